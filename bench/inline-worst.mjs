// The costliest bodies of `--inline-max-bytes` (BENCH_INLINE_BYTES, default 2048) that could be built, judged
// by `kurel serve` on its main thread (docs/service.md "Small requests judged where they
// arrive"): a YAML profile full of mistakes, one of aliases, one of long scalars matched by
// patterns, one nested as deep as it may be, a JSON envelope bringing definitions with patterns,
// and a build envelope full of mistakes. Each is sent one at a time (no other load), and the
// median and the largest answer time of BENCH_REPEATS sends (default 30) are given, with inline
// judging and without it (`--inline-max-bytes 0`), with the server's CPU per request (its
// processes' user and system time, from /proc). The answers of both must be the same bytes.
// Stops by itself.

import { median, now } from './lib/measure.mjs';
import { killAll, requireBuild, startKurel, stop, treeCpuMs } from './lib/servers.mjs';

const LIMIT = Number(process.env.BENCH_INLINE_BYTES ?? 2048);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);

const head = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: worst\nspec:\n  capabilities:\n';

/** Repeats `part(i)` after `start` while the body stays within the limit. */
function fill(start, part, end = '') {
  let body = start;
  for (let i = 0; ; i++) {
    const next = part(i);
    if (Buffer.byteLength(body + next + end) > LIMIT) return body + end;
    body += next;
  }
}

const bodies = {
  'yaml, a mistake on every line': [
    'application/yaml',
    fill(head, (i) => `    rate-limit.m${i}:\n      rendering: {requestsPerSecond: -1, burst: x, key: bad, nope${i}: 1, responseCode: 7}\n`),
  ],
  'yaml, aliases': [
    'application/yaml',
    fill(
      `${head}    rate-limit:\n      rendering:\n        requestsPerSecond: 1\n        allowlist: &a [10.0.0.0/8, 10.0.0.0/9, 10.0.0.0/10, x, y, z]\n        exemptPaths: [`,
      (i) => `${i ? ', ' : ''}*a`,
      ']\n',
    ),
  ],
  'yaml, long scalars against patterns': ['application/yaml', longScalars()],
  'yaml, nested as deep as it goes': [
    'application/yaml',
    `${head}    rate-limit:\n      rendering:\n        requestsPerSecond: 1\n        allowlist: ${'['.repeat((LIMIT - 200) >> 1)}${']'.repeat((LIMIT - 200) >> 1)}\n`,
  ],
  'json envelope, definitions with patterns': ['application/json', envelopeWithDefinitions()],
  'build envelope, a mistake on every line': ['application/json', buildEnvelope()],
};

/** Strings near the limit's length matched against the allowlist's CIDR pattern and the paths' `^/`. */
function longScalars() {
  const room = LIMIT - 200;
  const cidr = Math.floor(room / 2 / 2);
  const path = Math.floor(room / 2 / 2);
  return `${head}    rate-limit:\n      rendering:\n        requestsPerSecond: 1\n        allowlist: ["${'1.'.repeat(cidr)}1/33"]\n        exemptPaths: ["/${'a'.repeat(path)}", "${'b'.repeat(path)}"]\n`;
}

function envelopeWithDefinitions() {
  const properties = {};
  const rendering = {};
  const envelope = (defs, profile) => JSON.stringify({ profile, definitions: defs });
  for (let i = 0; ; i++) {
    properties[`p${i}`] = { type: 'string', pattern: `^(a|b)*c{1,9}[x-z]+${i}$` };
    rendering[`p${i}`] = `${'ab'.repeat(20)}d`;
    const def = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: worst\nspec:\n  description: worst\n  rendering:\n    properties: ${JSON.stringify(properties)}\n`;
    const profile = {
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'w' },
      spec: { capabilities: { worst: { rendering } } },
    };
    if (Buffer.byteLength(envelope([def], profile)) > LIMIT) {
      delete properties[`p${i}`];
      delete rendering[`p${i}`];
      const last = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: worst\nspec:\n  description: worst\n  rendering:\n    properties: ${JSON.stringify(properties)}\n`;
      return envelope([last], { ...profile, spec: { capabilities: { worst: { rendering } } } });
    }
  }
}

function buildEnvelope() {
  const profile = `${head}    expose:\n      rendering: {controllerType: gateway, gatewayName: gw}\n`;
  const application = fill(
    'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: worst\nspec:\n  components:\n',
    (i) => `    - name: c${i}\n      capabilities: {expose: {host: "", nope: ${i}}, missing${i}: {}}\n`,
  );
  // The application's text is escaped once in JSON: keep the envelope within the limit.
  let text = application;
  while (Buffer.byteLength(JSON.stringify({ application: text, profile })) > LIMIT) text = text.slice(0, text.lastIndexOf('\n    - name:'));
  return JSON.stringify({ application: text, profile });
}

async function post(url, route, type, body) {
  const started = now();
  const response = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': type }, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { ms: now() - started, status: response.status, bytes };
}

requireBuild();
const hardStop = setTimeout(() => {
  console.error('the inline bench took too long; stopping');
  killAll();
  process.exit(1);
}, 180_000);
hardStop.unref();
const args = ['--processes', '1', '--workers', '1', '--definitions', 'definitions'];
const inline = await startKurel({ args: [...args, '--inline-max-bytes', String(LIMIT)], env: { LOG_LEVEL: 'warn' } });
const pooled = await startKurel({ args: [...args, '--inline-max-bytes', '0'], env: { LOG_LEVEL: 'warn' } });
let mismatches = 0;
try {
  console.log('| body | bytes | status | inline median / max ms | inline CPU ms | pool median / max ms | pool CPU ms |\n|---|---|---|---|---|---|---|');
  for (const [name, [type, body]] of Object.entries(bodies)) {
    const route = name.startsWith('build') ? '/v1/build' : '/v1/validate';
    const times = { inline: [], pool: [] };
    const cpu = { inline: 0, pool: 0 };
    let status = 0;
    for (let r = 0; r < REPEATS; r++) {
      let before = treeCpuMs(inline.child.pid);
      const a = await post(inline.url, route, type, body);
      cpu.inline += treeCpuMs(inline.child.pid) - before;
      before = treeCpuMs(pooled.child.pid);
      const b = await post(pooled.url, route, type, body);
      cpu.pool += treeCpuMs(pooled.child.pid) - before;
      if (!a.bytes.equals(b.bytes) || a.status !== b.status) {
        mismatches++;
        if (process.env.BENCH_SHOW_DIFFERENCES) console.error(`${name}:\n  inline ${a.status} ${a.bytes}\n  pool   ${b.status} ${b.bytes}`);
      }
      status = a.status;
      times.inline.push(a.ms);
      times.pool.push(b.ms);
    }
    const fmt = (xs) => `${median(xs).toFixed(1)} / ${Math.max(...xs).toFixed(1)}`;
    const perRequest = (total) => (total / REPEATS).toFixed(1);
    console.log(
      `| ${name} | ${Buffer.byteLength(body)} | ${status} | ${fmt(times.inline)} | ${perRequest(cpu.inline)} | ${fmt(times.pool)} | ${perRequest(cpu.pool)} |`,
    );
  }
} finally {
  await Promise.all([stop(inline.child), stop(pooled.child)]);
}
if (mismatches > 0) {
  console.error(`${mismatches} answers differed between inline and pooled judging`);
  process.exit(1);
}
