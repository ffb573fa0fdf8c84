// Starting, probing and stopping the servers the HTTP bench scripts measure: `kurel serve` and
// the bare express baseline (lib/http-baseline.mjs). Loopback only. A server counts as ready at
// its first successful `GET /healthz` (docs/performance.md), never at a log line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { now } from './measure.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli.cjs');
const BASELINE = fileURLToPath(new URL('./http-baseline.mjs', import.meta.url));

/** Exits when dist/ is missing: the bench measures the built CLI. */
export function requireBuild() {
  if (!existsSync(CLI)) {
    console.error('dist/cli.cjs is missing: run npm run build first');
    process.exit(1);
  }
}

/** The flags `kurel serve --help` lists, so the bench can use a flag once it exists. */
export function serveFlags() {
  const help = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' });
  return new Set(help.stdout.match(/--[a-z][a-z-]*/g) ?? []);
}

/**
 * How many processes and workers kurel serves with, and so how many processes the baseline
 * gets: with `--processes`, one serving process per CPU (kurel's default, or BENCH_PROCESSES)
 * of one worker each, and the baseline as many processes; before it, the CPU count of workers
 * (or BENCH_WORKERS) in one process and the baseline that many processes; without `--workers`,
 * 1, the one thread that does everything.
 */
export function workerPlan(flags = serveFlags()) {
  if (flags.has('--processes')) {
    const processes = Number(process.env.BENCH_PROCESSES ?? availableParallelism());
    return { workers: processes, processes, pool: true, args: ['--processes', String(processes), '--workers', '1'] };
  }
  if (!flags.has('--workers')) return { workers: 1, pool: false, args: [] };
  const workers = Number(process.env.BENCH_WORKERS ?? availableParallelism());
  return { workers, pool: true, args: ['--workers', String(workers)] };
}

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One GET on loopback, resolving to its status (or rejecting on a connection error or after `timeoutMs`). */
export function get(url, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Milliseconds from `since` until `url` answers 200; polls every 2 ms. Throws if the child exits first. */
export async function waitForHealthz(url, child, since, limitMs = 30_000) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering ${url}`);
    try {
      if ((await get(url, 1000)) === 200) return now() - since;
    } catch {
      // not listening yet
    }
    if (now() - since > limitMs) throw new Error(`${url} did not answer within ${limitMs} ms`);
    await sleep(2);
  }
}

/**
 * Starts `kurel serve` on a free port with `args` added; resolves once `/readyz` says every
 * worker has loaded, with the spawn-to-first-answer time (its first 200 on `/healthz`) and the
 * spawn-to-ready time (its first 200 on `/readyz`). Its output goes to /dev/null unless `stdio` says otherwise: a log
 * piped into the bench would be read on the thread that drives the load.
 */
export async function startKurel({ args = [], env = {}, stdio = 'ignore' } = {}) {
  const port = await freePort();
  const started = now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', ...env },
    stdio: ['ignore', stdio, 'inherit'],
  });
  track(child);
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitForHealthz(`${url}/healthz`, child, started);
  // kurel answers once its first worker has loaded and is ready once all have: the load starts
  // then, as a load balancer's would.
  let readyzMs = Number.NaN;
  for (let i = 0; i < 12_000; i++) {
    if ((await get(`${url}/readyz`).catch(() => 0)) === 200) {
      readyzMs = now() - started;
      break;
    }
    await sleep(5);
  }
  return { child, url, readyMs, readyzMs };
}

/** Starts the bare express baseline with `processes` processes (node:cluster when more than one). */
export async function startBaseline(processes) {
  const port = await freePort();
  const started = now();
  const child = spawn(process.execPath, [BASELINE], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PROCESSES: String(processes) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  track(child);
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitForHealthz(`${url}/healthz`, child, started);
  // With a cluster, every process must be up before the load starts.
  if (processes > 1) {
    for (let i = 0; i < 500 && childrenOf(child.pid).length < processes; i++) await sleep(10);
  }
  return { child, url, readyMs };
}

const children = new Set();
function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
}

/** Stops a server: SIGTERM, then SIGKILL after `graceMs` (a blocked server cannot run its handler). */
export function stop(child, graceMs = 3000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Kills every server still running (for `finally` and a hard stop). */
export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

/** A field of /proc/<pid>/status in MiB (VmRSS, VmHWM), or NaN when the process is gone. */
export function statusMiB(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** Resident memory in MiB of a process and its child processes (a cluster's workers). */
export function treeRssMiB(pid) {
  return [pid, ...childrenOf(pid)].reduce((sum, p) => sum + statusMiB(p, 'VmRSS'), 0);
}

/** CPU time in ms (user + system) a process and its child processes have used so far. */
export function treeCpuMs(pid) {
  const ticks = (p) => {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  // Linux counts these in clock ticks of 10 ms (USER_HZ 100).
  return [pid, ...childrenOf(pid)].reduce((sum, p) => sum + ticks(p), 0) * 10;
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
