// Probes during a cancel storm: `kurel serve --request-timeout 20ms` while 12 clients post
// 700 KB profiles back to back (each is cancelled at its deadline, its worker replaced), and a
// probe asks `GET /healthz` every 20 ms on a new connection. A liveness probe must not depend
// on the work in flight: the budget is the probe's p99. Every probe must be answered 200 and
// no client connection reset (a 20 ms deadline is not the headers limit). A bare node:http
// server answering /healthz is probed in alternation as the control: what the machine's own
// load adds to any probe.
// BENCH_STORM_SECONDS sets the storm's length (default 15).

import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { asMs, Budgets } from './lib/budget.mjs';
import { median, now } from './lib/measure.mjs';
import { freePort, killAll, requireBuild, sleep, startKurel, stop, waitForHealthz, workerPlan } from './lib/servers.mjs';

const SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 15);
const CLIENTS = 12;
const PROBE_EVERY_MS = 20;

requireBuild();
const plan = workerPlan();
const hardStop = setTimeout(
  () => {
    console.error('the probe storm took too long; stopping');
    killAll();
    process.exit(1);
  },
  (SECONDS + 90) * 1000,
);
hardStop.unref();

// A 700 KB profile: one binding whose rendering holds many fields.
const fields = Array.from({ length: 14_000 }, (_, i) => `        field${String(i).padStart(6, '0')}: value-${'x'.repeat(24)}`).join('\n');
const body = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: storm\nspec:\n  capabilities:\n    expose:\n      rendering:\n${fields}\n`;

/** One request on a new connection: its status (0 on a connection error) and how long it took. */
function once(url, method, payload) {
  return new Promise((resolve) => {
    const started = now();
    const req = request(url, { method, agent: false, headers: payload ? { 'Content-Type': 'application/yaml' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: now() - started }));
      res.on('error', (err) => resolve({ status: 0, ms: now() - started, error: err.code ?? err.message }));
    });
    req.on('error', (err) => resolve({ status: 0, ms: now() - started, error: err.code ?? err.message }));
    req.end(payload);
  });
}

const budgets = new Budgets();
try {
  const kurel = await startKurel({ args: [...plan.args, '--request-timeout', '20ms'] });
  const port = await freePort();
  const control = spawn(process.execPath, ['-e', `require('node:http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1')`], { stdio: 'ignore' });
  const controlUrl = `http://127.0.0.1:${port}/healthz`;
  await waitForHealthz(controlUrl, control, now());
  const controls = [];
  const until = now() + SECONDS * 1000;
  const storm = { sent: 0, statuses: {}, resets: 0 };
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (now() < until) {
      const answer = await once(`${kurel.url}/v1/validate`, 'POST', body);
      storm.sent += 1;
      storm.statuses[answer.status] = (storm.statuses[answer.status] ?? 0) + 1;
      if (answer.status === 0) storm.resets += 1;
    }
  });
  const probes = [];
  const probing = (async () => {
    while (now() < until) {
      probes.push(await once(`${kurel.url}/healthz`, 'GET'));
      controls.push(await once(controlUrl, 'GET'));
      await sleep(PROBE_EVERY_MS);
    }
  })();
  await Promise.all([...clients, probing]);
  await stop(kurel.child);
  control.kill('SIGKILL');
  const sorted = (list) => list.map((p) => p.ms).sort((a, b) => a - b);
  const p99Of = (times) => times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
  const times = sorted(probes);
  const p99 = p99Of(times);
  const controlTimes = sorted(controls);
  const failed = probes.filter((p) => p.status !== 200).length;
  console.log(
    `cancel storm: ${CLIENTS} clients posting ${(Buffer.byteLength(body) / 1024).toFixed(0)} KB bodies for ${SECONDS} s, --request-timeout 20ms, ${plan.args.join(' ') || 'defaults'}`,
  );
  console.log(`  storm requests: ${storm.sent}, by status ${JSON.stringify(storm.statuses)}; connection errors ${storm.resets}`);
  console.log(`  /healthz probes: ${probes.length}, not 200: ${failed}; p50 ${asMs(median(times))}, p99 ${asMs(p99)}, max ${asMs(times.at(-1) ?? Number.NaN)}`);
  console.log(`  control (bare node:http /healthz, same moments): p50 ${asMs(median(controlTimes))}, p99 ${asMs(p99Of(controlTimes))}`);
  budgets.atMost('/healthz p99 during the cancel storm', p99, 50, asMs);
  budgets.atMost('/healthz probes not answered 200 during the cancel storm', failed, 0, String);
  budgets.atMost('storm requests reset without an answer', storm.resets, 0, String);
} finally {
  killAll();
}
budgets.finish();
