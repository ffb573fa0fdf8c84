// The HTTP service under load (DESIGN §6): `POST /v1/validate` of a typical profile with a JSON
// and with a YAML body, next to bare express routes that only parse the same bodies and echo
// them, measured in the same run with the same load (autocannon, 10 connections, loopback);
// the service's memory idle and after load against a bare express app; its time until ready
// against `node -e 0`. Stops by itself. BENCH_SECONDS sets the load time of each route
// (default 5; DESIGN §6 measures 10), split into rounds that alternate the routes so that
// other load on the machine falls on all of them alike. The service runs at its default log
// level, as in production (BENCH_LOG_LEVEL=debug adds a line for every request).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const STARTS = Number(process.env.BENCH_STARTS ?? 7);
const BUDGET = { json: 0.85, yaml: 0.8, memory: 1.5, ready: 3 };

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

// A bare express app: two routes that only parse a body (JSON.parse, or yaml's parse) and echo it.
const BARE_EXPRESS = `
import express from 'express';
let parseYaml;
const app = express();
const text = express.text({ type: () => true, limit: '1mb' });
app.post('/json', text, (req, res) => { res.json(JSON.parse(req.body)); });
app.post('/yaml', text, async (req, res) => {
  parseYaml ??= (await import('yaml')).parse;
  res.json(parseYaml(req.body));
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'listening', url: 'http://127.0.0.1:' + server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: run npm run build first');
  process.exit(1);
}
// However the measurements go, the bench ends.
const hardStop = setTimeout(() => {
  console.error('the bench took too long; stopping');
  process.exit(1);
}, (SECONDS + WARM_UP_SECONDS) * 4 * 1000 + STARTS * 2 * 15_000 + 60_000);
hardStop.unref();

const yamlBody = existsSync(PROFILE_FILE) ? readFileSync(PROFILE_FILE, 'utf8') : FALLBACK_PROFILE;
const jsonBody = JSON.stringify(parse(yamlBody));
const children = new Set();

try {
  const ready = await measureStartup();
  // Under load the servers write to /dev/null: a log piped into this process would be read on
  // the thread that drives the load, and slow the load down.
  const bare = await startQuiet(() => ['--input-type=module', '-e', BARE_EXPRESS], (port) => ({ PORT: String(port) }));
  const kurel = await startQuiet((port) => [CLI, 'serve', '--port', String(port)], () => ({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' }));
  await checkAnswers(kurel.url);
  await sleep(1000);
  const idle = { bare: rssOf(bare.child.pid), kurel: rssOf(kurel.child.pid) };

  const routes = [
    ['json', `${bare.url}/json`, `${kurel.url}/v1/validate`, jsonBody, 'application/json'],
    ['yaml', `${bare.url}/yaml`, `${kurel.url}/v1/validate`, yamlBody, 'application/yaml'],
  ];
  for (const [, baseUrl, serviceUrl, body, type] of routes) {
    await load(baseUrl, body, type, WARM_UP_SECONDS);
    await load(serviceUrl, body, type, WARM_UP_SECONDS);
  }
  const runs = Object.fromEntries(routes.map(([name]) => [name, { base: [], service: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, baseUrl, serviceUrl, body, type] of routes) {
      runs[name].base.push(await load(baseUrl, body, type, SECONDS / ROUNDS));
      runs[name].service.push(await load(serviceUrl, body, type, SECONDS / ROUNDS));
    }
  }
  const results = Object.fromEntries(Object.entries(runs).map(([name, { base, service }]) => [name, { base: combine(base), service: combine(service) }]));
  const loaded = { bare: rssOf(bare.child.pid), kurel: rssOf(kurel.child.pid) };
  report({ ready, idle, loaded, results, bytes: { yaml: Buffer.byteLength(yamlBody), json: Buffer.byteLength(jsonBody) } });
} finally {
  for (const child of children) child.kill('SIGTERM');
}

/** Median spawn-to-ready times of `kurel serve` (until it logs that it listens) and of `node -e 0` (until it exits), alternating. */
async function measureStartup() {
  const serve = [];
  const bare = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      child.on('exit', resolve);
      child.on('error', reject);
    });
    bare.push(performance.now() - t0);
    const t1 = performance.now();
    const service = await start(process.execPath, [CLI, 'serve', '--port', '0'], { LOG_LEVEL: 'info' });
    serve.push(performance.now() - t1);
    await stop(service.child);
  }
  return { serve: median(serve), node: median(bare) };
}

/** Spawns a server and resolves with its URL once it logs that it listens. */
function start(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    let buffered = '';
    let found = false;
    child.stdout.on('data', (chunk) => {
      if (found) return;
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        if (!line.includes('"listening"')) continue;
        found = true;
        buffered = '';
        resolve({ child, url: JSON.parse(line).url });
        return;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      if (!found) reject(new Error(`${args.join(' ')} exited with ${code} before listening`));
    });
  });
}

/** Spawns a Node server on a free port with its output discarded; resolves once it answers HTTP. */
async function startQuiet(argsFor, envFor) {
  const port = await freePort();
  const args = argsFor(port);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...envFor(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1000; i++) {
    if (child.exitCode !== null) throw new Error(`${args.at(-1)?.slice(0, 40)} exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/readyz`);
      return { child, url };
    } catch {
      await sleep(20);
    }
  }
  throw new Error(`a server never answered on ${url}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** The service must answer the bench bodies as valid, or the figures mean nothing. */
async function checkAnswers(url) {
  for (const [body, type] of [
    [jsonBody, 'application/json'],
    [yamlBody, 'application/yaml'],
  ]) {
    const res = await fetch(`${url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': type }, body });
    const answer = await res.json();
    if (res.status !== 200 || answer.valid !== true) throw new Error(`the bench profile is not valid as ${type}: ${JSON.stringify(answer).slice(0, 500)}`);
  }
}

/** Requests per second and latency percentiles of one route under load for `seconds`. */
async function load(url, body, type, seconds) {
  const result = await autocannon({ url, method: 'POST', headers: { 'content-type': type }, body, connections: CONNECTIONS, duration: seconds });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Rounds of one route: requests per second over all of them, median percentiles. */
function combine(rounds) {
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  return { rps: requests / seconds, p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) };
}

/** Resident memory of a process in MiB (Linux). */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kb / 1024;
}

function report({ ready, idle, loaded, results, bytes }) {
  const verdict = (ok) => (ok ? 'within budget' : 'OVER BUDGET');
  const rows = [];
  console.log(`kurel HTTP bench: node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per route in ${ROUNDS} alternating rounds, loopback`);
  console.log(`bodies: YAML ${bytes.yaml} bytes, JSON ${bytes.json} bytes\n`);
  console.log('route                                   req/s     p50 ms  p99 ms');
  for (const name of ['json', 'yaml']) {
    const { base, service } = results[name];
    console.log(`bare express, parse ${name.toUpperCase()} and echo`.padEnd(36), fmt(base.rps, 9), fmt(base.p50, 9), fmt(base.p99, 7));
    console.log(`kurel POST /v1/validate, ${name.toUpperCase()} body`.padEnd(36), fmt(service.rps, 9), fmt(service.p50, 9), fmt(service.p99, 7));
    const ratio = service.rps / base.rps;
    rows.push(`${name.toUpperCase()} body: validate / bare parse-and-echo = ${ratio.toFixed(2)}x (budget >= ${BUDGET[name]}x) ${verdict(ratio >= BUDGET[name])}`);
  }
  const memory = idle.kurel / idle.bare;
  const start = ready.serve / ready.node;
  console.log('');
  for (const row of rows) console.log(row);
  console.log(`RSS idle: kurel serve ${idle.kurel.toFixed(1)} MiB, bare express ${idle.bare.toFixed(1)} MiB = ${memory.toFixed(2)}x (budget <= ${BUDGET.memory}x) ${verdict(memory <= BUDGET.memory)}`);
  console.log(`RSS after load: kurel serve ${loaded.kurel.toFixed(1)} MiB, bare express ${loaded.bare.toFixed(1)} MiB`);
  console.log(`time until ready (median of ${STARTS}): kurel serve ${ready.serve.toFixed(0)} ms, node -e 0 ${ready.node.toFixed(0)} ms = ${start.toFixed(2)}x (budget <= ${BUDGET.ready}x) ${verdict(start <= BUDGET.ready)}`);
}

function fmt(value, width) {
  return (value >= 100 ? value.toFixed(0) : value.toFixed(2)).padStart(width);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
