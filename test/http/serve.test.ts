import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { availableCpus } from '../../src/http/supervisor/cpus.js';
import { CLI, runKurel, spawnKurel } from '../helpers/cli.js';
import { readJsonLines, waitFor as waitUntil } from '../helpers/serve.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE, startSlowRequest } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  lines: Record<string, unknown>[];
  exit: Promise<number | null>;
}

const started: Served[] = [];
afterEach(async () => {
  for (const served of started.splice(0)) {
    if (served.child.exitCode === null) served.child.kill('SIGKILL');
    await served.exit;
  }
});

/** Starts the built `kurel serve` on a free port and resolves once it logs that every process is ready. */
function serve(args: string[] = [], cwd = ROOT): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd, env: { ...process.env, LOG_LEVEL: 'info' } });
  const lines: Record<string, unknown>[] = [];
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    readJsonLines(child.stdout, lines, (line) => {
      // Every serving process answers once the supervisor says all are ready; until then one
      // still loading answers 503 (its early listener).
      if (line['msg'] !== 'ready: every worker has loaded') return;
      const served = { child, url: String(lines.find((l) => l['msg'] === 'listening')?.['url']), lines, exit };
      started.push(served);
      resolve(served);
    });
    void exit.then((code) => reject(new Error(`kurel serve exited with ${code} before listening: ${stderr}`)));
  });
}

// A condition waited for up to the shared helper's deadline: a count of turns is a bound a loaded machine can pass.
const waitFor = <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => waitUntil(probe, what);

const inFlight = async (url: string) => Number(/^kurel_http_requests_in_flight (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);

describe('kurel serve', () => {
  it('validates profiles/minimal.yaml as the README shows, on its embedded definitions', async () => {
    const { url, lines } = await serve();
    // Without flags: a serving process per CPU the container is given, the CPUs shared out as
    // worker threads among them (one each), and the deadlines and heap of docs/service.md.
    expect(lines.find((l) => l['msg'] === 'listening')).toMatchObject({
      processes: availableCpus(),
      workers: 1,
      inlineMaxBytes: 2048,
      limits: { requestTimeoutMs: 5000, sendTimeoutMs: 30000, workerMemoryMiB: 512, maxConcurrentRequests: 64 },
    });
    const res = await fetch(`${url}/v1/validate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: readFileSync(join(ROOT, 'profiles/minimal.yaml')),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ valid: true, diagnostics: [] });
    const capabilities = (await (await fetch(`${url}/v1/capabilities`)).json()) as { type: string; source: string }[];
    expect(capabilities.find((c) => c.type === 'redis-sidecar')?.source).toBe('definitions/redis-sidecar.yaml');
  });

  it('finishes a request in flight on SIGTERM, accepts no new connection, and exits 0', async () => {
    const served = await serve();
    const slow = startSlowRequest(served.url, '/v1/validate', GATEWAY_PROFILE);
    let answered = false;
    void slow.response.then(() => (answered = true));
    await waitFor(async () => ((await inFlight(served.url)) >= 2 ? true : undefined), 'the slow request to arrive');
    served.child.kill('SIGTERM');
    await waitFor(async () => served.lines.find((l) => l['msg'] === 'shutting down: finishing requests in flight'), 'the shutdown to begin');
    // Once every process drains, the listening socket closes; the slow request is still in flight.
    await waitFor(
      () =>
        fetch(`${served.url}/healthz`).then(
          () => undefined,
          () => true,
        ),
      'new connections to be refused',
    );
    expect(answered).toBe(false);
    slow.finish();
    const res = await slow.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ valid: true, diagnostics: [] });
    expect(await served.exit).toBe(0);
    expect(served.lines.at(-1)?.['msg']).toBe('stopped');
  });

  it('exits 0 at once on SIGINT when idle', async () => {
    const served = await serve();
    served.child.kill('SIGINT');
    expect(await served.exit).toBe(0);
  });

  it('reloads its definitions on SIGHUP, and keeps them when a reload fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurel-serve-'));
    try {
      // One serving process: the steps below follow its reload record (supervisor.test.ts has SIGHUP reach every process).
      const served = await serve(['--processes', '1', '--definitions', dir]);
      const readiness = async () =>
        (await (await fetch(`${served.url}/readyz`)).json()) as { lastReload: { ok: boolean; at: string }; registry: { definitions: number } };
      const base = (await readiness()).registry.definitions;
      writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION.replace('redis-sidecar', 'cache-sidecar'));
      served.child.kill('SIGHUP');
      const good = await waitFor(async () => {
        const r = await readiness();
        return r.registry.definitions === base + 1 ? r : undefined;
      }, 'the good reload');
      expect(good.lastReload.ok).toBe(true);

      writeFileSync(join(dir, 'broken.yaml'), 'kind: [');
      served.child.kill('SIGHUP');
      const failed = await waitFor(async () => {
        const r = await readiness();
        return r.lastReload.at !== good.lastReload.at ? r : undefined;
      }, 'the failed reload');
      expect(failed.lastReload.ok).toBe(false);
      expect(failed.registry.definitions).toBe(base + 1);
      const profile = REDIS_PROFILE.replace('redis-sidecar', 'cache-sidecar');
      const res = await fetch(`${served.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: profile });
      expect(await res.json()).toMatchObject({ valid: true, resolved: { capabilities: { 'cache-sidecar': { image: 'redis:7', port: 6379 } } } });
      expect(served.lines.some((l) => l['msg'] === 'reload failed: the previous definitions stay in service')).toBe(true);
      served.child.kill('SIGTERM');
      expect(await served.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('judges as lint does when both read the same .kurel.yaml: its definitions replace the embedded ones (issue 16, defect 14)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurel-serve-config-'));
    try {
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'defs'));
      writeFileSync(join(dir, '.kurel.yaml'), 'definitions: [defs/]\n');
      writeFileSync(join(dir, 'defs', 'rate-limit.yaml'), readFileSync(join(ROOT, 'definitions', 'rate-limit.yaml')));
      const profile =
        'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  capabilities:\n    rate-limit:\n      rendering: {requestsPerSecond: "fifty"}\n    redis-sidecar:\n      rendering: {image: redis}\n';
      writeFileSync(join(dir, 'edge.yaml'), profile);
      const lint = await runKurel(['lint', 'edge.yaml', '--format', 'json'], { cwd: dir });
      const served = await serve([], dir);
      const res = await fetch(`${served.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: profile });
      const answer = (await res.json()) as { diagnostics: { code: string; severity: string; path: string }[] };
      const pinned = (list: { code: string; severity: string; path: string }[]) => list.map((d) => [d.code, d.severity, d.path]);
      expect(pinned(answer.diagnostics)).toEqual([
        ['wrong-type', 'error', '/spec/capabilities/rate-limit/rendering/requestsPerSecond'],
        // The embedded definitions/ (which define redis-sidecar) are replaced by the config's.
        ['unknown-capability', 'warning', '/spec/capabilities/redis-sidecar'],
      ]);
      expect(pinned((JSON.parse(lint.stdout) as { diagnostics: { code: string; severity: string; path: string }[] }).diagnostics)).toEqual(
        pinned(answer.diagnostics),
      );
      served.child.kill('SIGTERM');
      expect(await served.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs a refused start as one JSON line holding every error (issue 16, defect 11)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurel-serve-'));
    try {
      writeFileSync(
        join(dir, 'broken.yaml'),
        'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: q}\nspec:\n  rendering:\n    properties:\n      a: {type: strin}\n',
      );
      const run = await spawnKurel(['serve', '--port', '0', '--definitions', dir], { cwd: ROOT });
      expect(run.code).toBe(2);
      const lines = run.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l['level'] === 60)).toMatchObject({
        msg: 'refusing to start: the definitions have errors',
        errors: [
          `${join(dir, 'broken.yaml')}:7:17 error invalid-value a.type must be one of string, integer, number, boolean, array, object, found string "strin"`,
        ],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents its limits and reload access in --help, with their defaults', async () => {
    const run = await spawnKurel(['serve', '--help'], { cwd: ROOT });
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const fragment of [
      "--processes <n> serving processes, kept by a supervisor that replaces any that ends (default: the container's CPU quota, else os.availableParallelism())",
      '--workers <n> worker threads of each serving process that validate, build and publish schemas (default: the CPUs divided among the processes, at least 1)',
      '--worker-memory <mib> each worker\'s heap limit in MiB; a request that exceeds it gets 413 and the worker is replaced (default: "512")',
      '(default: "5s")',
      '--send-timeout <duration> time an answer may take to be read by the client before it is cut (default: "30s")',
      '--admin-token-file <file> POST /v1/reload requires Authorization: Bearer <the token in this file>, from anywhere; without it, only loopback callers may reload',
    ]) {
      expect(help).toContain(fragment);
    }
  });

  it.each([
    ['a port that is not a number', ['--port', 'http'], '<command line>:1:1 error usage --port must be an integer from 0 to 65535, found "http"'],
    ['a port out of range', ['--port', '70000'], '<command line>:1:1 error usage --port must be an integer from 0 to 65535, found "70000"'],
    [
      'a definitions folder that does not exist',
      ['--port', '0', '--definitions', 'no-such-folder'],
      'kurel serve: refusing to start: the definitions have errors (listed above)',
    ],
    ['a plugin that cannot be found', ['--port', '0', '--plugin', './no-such-plugin.mjs'], 'kurel serve: refusing to start: plugin ./no-such-plugin.mjs: '],
    ['no serving process', ['--processes', '0'], '<command line>:1:1 error usage --processes must be an integer from 1 to 256, found "0"'],
    ['no worker', ['--workers', '0'], '<command line>:1:1 error usage --workers must be an integer from 1 to 256, found "0"'],
    [
      'a worker heap under 64 MiB',
      ['--worker-memory', '32'],
      '<command line>:1:1 error usage --worker-memory must be a whole number of MiB, at least 64, found "32"',
    ],
    [
      'a request timeout without a unit',
      ['--request-timeout', '5'],
      '<command line>:1:1 error usage --request-timeout must be a duration such as 5s or 500ms, found "5"',
    ],
    ['a send timeout of zero', ['--send-timeout', '0s'], '<command line>:1:1 error usage --send-timeout must be a duration such as 30s or 500ms, found "0s"'],
    [
      'an admin token file that does not exist',
      ['--port', '0', '--admin-token-file', 'no-such-token'],
      'kurel serve: refusing to start: cannot read the admin token file no-such-token: ENOENT',
    ],
  ])('exits 2 without listening for %s', async (_name, args, message) => {
    const run = await spawnKurel(['serve', ...args], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).not.toContain('"msg":"listening"');
  });
});
