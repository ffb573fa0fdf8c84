// The HTTP service under load (docs/performance.md): `POST /v1/validate` of a typical profile with a
// JSON and with a YAML body, next to bare express routes that only parse the same bodies and
// echo them (lib/http-baseline.mjs: `express.json`, js-yaml `load`, `yaml` parse), measured in
// the same run with the same load (autocannon, 10 connections, loopback), in rounds of 10 s per
// route that alternate the routes so other load on the machine falls on all of them alike; a
// ratio is taken in each round and the median of the rounds is reported. The baseline runs as
// many processes (node:cluster) as kurel has workers, so neither side gets more cores. Also: the
// time until `kurel serve` first answers `GET /healthz` against `node -e 0`, and its memory idle
// against the bare express app. Stops by itself.
// BENCH_SECONDS sets a round's length per route (default 10), BENCH_ROUNDS the rounds (3),
// BENCH_STARTS the starts timed (7), BENCH_WORKERS the worker count once kurel has `--workers`,
// BENCH_PROCESSES the serving processes once it has `--processes` (then one worker each).
// Once it has `--inline-max-bytes`, kurel is also run with every request sent to its workers
// (`--inline-max-bytes 0`) in the same rounds, unless BENCH_INLINE_COMPARE=0. The
// server CPU each request costs is read from /proc for every process of each side.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parse } from 'yaml';
import { asMs, Budgets } from './lib/budget.mjs';
import { median, now } from './lib/measure.mjs';
import { killAll, ROOT, requireBuild, serveFlags, sleep, startBaseline, startKurel, stop, treeCpuMs, treeRssMiB, workerPlan } from './lib/servers.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STARTS = Number(process.env.BENCH_STARTS ?? 7);
const WARM_UP_SECONDS = 1;
const CONNECTIONS = 10;
// BENCH_INLINE_COMPARE=0 leaves out the service run with `--inline-max-bytes 0`.
const INLINE_COMPARE = process.env.BENCH_INLINE_COMPARE !== '0' && serveFlags().has('--inline-max-bytes');

// The repository's 1.5 KB multi-gateway profile when it is there; otherwise one like it.
const PROFILE_FILE = join(ROOT, 'profiles', 'gateway-multi-scope.yaml');
const FALLBACK_PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod-eu-west
spec:
  capabilities:
    expose:
      rendering: {controllerType: gateway, gatewayName: public-gateway, allowedHostnameWildcard: "*.apps.example.com"}
    expose.internal:
      rendering:
        controllerType: gateway
        gatewayName: internal-gateway
        gatewayNamespace: gateway-internal
        networkPolicy:
          trafficSources:
            - namespace: gateway-internal
              podSelector: {matchLabels: {app.kubernetes.io/name: envoy}}
            - namespace: monitoring
    certificate:
      rendering: {issuerRef: {name: letsencrypt-prod}}
    external-secret:
      rendering: {secretStoreRef: {name: aws-secretsmanager}, refreshInterval: 1h30m}
`;

requireBuild();
const plan = workerPlan();
// However the measurements go, the bench ends.
const hardStop = setTimeout(
  () => {
    console.error('the HTTP bench took too long; stopping');
    killAll();
    process.exit(1);
  },
  (5 * ROUNDS * SECONDS + 5 * 2 * WARM_UP_SECONDS + STARTS * 20 + 90) * 1000,
);
hardStop.unref();

const yamlBody = existsSync(PROFILE_FILE) ? readFileSync(PROFILE_FILE, 'utf8') : FALLBACK_PROFILE;
const jsonBody = JSON.stringify(parse(yamlBody));
const budgets = new Budgets();

try {
  const ready = await measureStartup();
  const bare = await startBaseline(plan.workers);
  const kurel = await startKurel({ args: plan.args });
  // With --inline-max-bytes, the same service with every request sent to its workers, measured
  // in the same rounds: what judging small bodies where they arrive changes.
  const pooled = INLINE_COMPARE ? await startKurel({ args: [...plan.args, '--inline-max-bytes', '0'] }) : undefined;
  await checkAnswers(kurel.url, bare.url);
  if (pooled) await checkAnswers(pooled.url, bare.url);
  await sleep(1000);
  const idle = { bare: treeRssMiB(bare.child.pid), kurel: treeRssMiB(kurel.child.pid) };

  const routes = [
    { name: 'express.json echo', url: `${bare.url}/json`, body: jsonBody, type: 'application/json', pid: bare.child.pid },
    { name: 'kurel, JSON body', url: `${kurel.url}/v1/validate`, body: jsonBody, type: 'application/json', pid: kurel.child.pid },
    { name: 'js-yaml load echo', url: `${bare.url}/js-yaml`, body: yamlBody, type: 'application/yaml', pid: bare.child.pid },
    { name: 'kurel, YAML body', url: `${kurel.url}/v1/validate`, body: yamlBody, type: 'application/yaml', pid: kurel.child.pid },
    { name: 'yaml parse echo', url: `${bare.url}/yaml`, body: yamlBody, type: 'application/yaml', pid: bare.child.pid },
    ...(pooled
      ? [
          { name: 'kurel pooled, JSON body', url: `${pooled.url}/v1/validate`, body: jsonBody, type: 'application/json', pid: pooled.child.pid },
          { name: 'kurel pooled, YAML body', url: `${pooled.url}/v1/validate`, body: yamlBody, type: 'application/yaml', pid: pooled.child.pid },
        ]
      : []),
  ];
  for (const route of routes) await load(route, WARM_UP_SECONDS);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {};
    for (const route of routes) figures[route.name] = await load(route, SECONDS);
    rounds.push(figures);
  }
  const loaded = { bare: treeRssMiB(bare.child.pid), kurel: treeRssMiB(kurel.child.pid) };
  report({ ready, idle, loaded, routes, rounds });
  await Promise.all([stop(bare.child), stop(kurel.child), ...(pooled ? [stop(pooled.child)] : [])]);
} finally {
  killAll();
}
budgets.finish();

/** Median spawn-to-ready times of `kurel serve` (until its first 200 on /healthz, and on /readyz) and of `node -e 0` (until it exits), alternating. */
async function measureStartup() {
  const serve = [];
  const readyz = [];
  const bare = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      child.on('exit', resolve);
      child.on('error', reject);
    });
    bare.push(now() - t0);
    const service = await startKurel({ args: plan.args });
    serve.push(service.readyMs);
    readyz.push(service.readyzMs);
    await stop(service.child);
  }
  return { serve: median(serve), readyz: median(readyz), node: median(bare) };
}

/** The service must answer the bench bodies as valid, and the baseline echo them, or the figures mean nothing. */
async function checkAnswers(kurelUrl, bareUrl) {
  for (const [body, type] of [
    [jsonBody, 'application/json'],
    [yamlBody, 'application/yaml'],
  ]) {
    const res = await fetch(`${kurelUrl}/v1/validate`, { method: 'POST', headers: { 'Content-Type': type }, body });
    const answer = await res.json();
    if (res.status !== 200 || answer.valid !== true) throw new Error(`the bench profile is not valid as ${type}: ${JSON.stringify(answer).slice(0, 500)}`);
  }
  for (const [path, body, type] of [
    ['/json', jsonBody, 'application/json'],
    ['/js-yaml', yamlBody, 'application/yaml'],
    ['/yaml', yamlBody, 'application/yaml'],
  ]) {
    const res = await fetch(`${bareUrl}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body });
    if (res.status !== 200 || JSON.stringify(await res.json()) !== jsonBody) throw new Error(`the baseline route ${path} does not echo the profile`);
  }
}

/** Requests per second, latency percentiles and server CPU per request (µs, every process of the server) of one route under load for `seconds`. */
async function load({ url, body, type, pid }, seconds) {
  const cpuBefore = treeCpuMs(pid);
  const result = await autocannon({ url, method: 'POST', headers: { 'content-type': type }, body, connections: CONNECTIONS, duration: seconds });
  const cpuUs = ((treeCpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

function report({ ready, idle, loaded, routes, rounds }) {
  let workers = '1 process (kurel serve has no --workers yet)';
  if (plan.processes) workers = `${plan.processes} serving processes of 1 worker (${plan.args.join(' ')})`;
  else if (plan.pool) workers = `${plan.workers} workers (--workers ${plan.workers})`;
  console.log(`HTTP: ${CONNECTIONS} connections, ${SECONDS} s per route in each of ${ROUNDS} alternating rounds, loopback`);
  console.log(`kurel: ${workers}; baseline: ${plan.workers} express process${plan.workers === 1 ? '' : 'es (node:cluster)'}`);
  console.log(`bodies: YAML ${Buffer.byteLength(yamlBody)} bytes, JSON ${Buffer.byteLength(jsonBody)} bytes\n`);
  console.log(
    `  ${'route'.padEnd(36)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'CPU µs/req'.padStart(11)}   (medians of the rounds)`,
  );
  for (const route of routes) {
    const of = (key) => median(rounds.map((r) => r[route.name][key]));
    let label = `bare express, ${route.name}`;
    if (route.name.startsWith('kurel pooled')) label = `POST /v1/validate, ${route.name.replace('kurel pooled, ', '')}, pooled`;
    else if (route.url.includes('/v1/validate')) label = `POST /v1/validate, ${route.name.replace('kurel, ', '')}`;
    console.log(`  ${label.padEnd(36)} ${fmt(of('rps'), 8)} ${fmt(of('p50'), 8)} ${fmt(of('p99'), 8)} ${fmt(of('cpuUs'), 11)}`);
  }
  const cpuRatio = (service, base) => median(rounds.map((r) => r[service].cpuUs / r[base].cpuUs));
  console.log(
    `  server CPU per request vs the echo: JSON ${cpuRatio('kurel, JSON body', 'express.json echo').toFixed(2)}x, YAML (js-yaml echo) ${cpuRatio('kurel, YAML body', 'js-yaml load echo').toFixed(2)}x`,
  );
  const ratioOf = (service, base) => median(rounds.map((r) => r[service].rps / r[base].rps));
  const perRound = (service, base) => rounds.map((r) => (r[service].rps / r[base].rps).toFixed(2)).join(', ');
  if (routes.some((r) => r.name.startsWith('kurel pooled'))) {
    const both = (kind) =>
      `${ratioOf(`kurel, ${kind} body`, `kurel pooled, ${kind} body`).toFixed(2)}x req/s, ${cpuRatio(`kurel, ${kind} body`, `kurel pooled, ${kind} body`).toFixed(2)}x CPU`;
    console.log(`  judged inline vs every request to a worker (--inline-max-bytes 0), same rounds: JSON ${both('JSON')}; YAML ${both('YAML')}`);
  }
  console.log(
    `  kurel per worker: ${fmt(median(rounds.map((r) => r['kurel, JSON body'].rps)) / plan.workers, 0)} req/s JSON, ${fmt(median(rounds.map((r) => r['kurel, YAML body'].rps)) / plan.workers, 0)} req/s YAML`,
  );
  console.log(
    `  ratios per round: JSON/express.json ${perRound('kurel, JSON body', 'express.json echo')}; YAML/js-yaml ${perRound('kurel, YAML body', 'js-yaml load echo')}; YAML/yaml ${perRound('kurel, YAML body', 'yaml parse echo')}`,
  );
  console.log(`  RSS after load: kurel serve ${loaded.kurel.toFixed(1)} MiB, bare express ${loaded.bare.toFixed(1)} MiB`);
  console.log(
    `  time until ready, median of ${STARTS}: kurel serve first /healthz ${asMs(ready.serve)}, first /readyz 200 ${asMs(ready.readyz)}, node -e 0 ${asMs(ready.node)}`,
  );
  console.log(
    `  idle RSS: kurel serve ${idle.kurel.toFixed(1)} MiB, bare express ${idle.bare.toFixed(1)} MiB${plan.workers > 1 ? ' (all its processes)' : ''}`,
  );
  budgets.atLeast('POST /v1/validate JSON req/s / express.json echo (docs/performance.md)', ratioOf('kurel, JSON body', 'express.json echo'), 0.9);
  budgets.atLeast('POST /v1/validate YAML req/s / js-yaml load echo (docs/performance.md)', ratioOf('kurel, YAML body', 'js-yaml load echo'), 0.8);
  budgets.atLeast('POST /v1/validate YAML req/s / yaml parse echo (docs/performance.md)', ratioOf('kurel, YAML body', 'yaml parse echo'), 0.8);
  budgets.atMost('kurel serve first GET /healthz / node -e 0 (docs/performance.md)', ready.serve / ready.node, 2);
  budgets.atMost('kurel serve first GET /readyz 200 / node -e 0 (docs/performance.md)', ready.readyz / ready.node, 2.5);
  budgets.atMost('idle RSS / bare express (docs/performance.md)', idle.kurel / idle.bare, 1.5);
}

function fmt(value, width) {
  return (value >= 100 ? value.toFixed(0) : value.toFixed(2)).padStart(width);
}
