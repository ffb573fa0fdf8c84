import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { readJsonLines, waitFor } from '../helpers/serve.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/slow-to-load.mjs', import.meta.url));

/** One request on a new connection: its status and body, or the connection error's code. */
/** A port free now (the service is started on it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function once(url: string, method = 'GET', body?: string): Promise<{ status: number; body: string; retryAfter?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(url, { method, agent: false, headers: body ? { 'Content-Type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text, ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}) }),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

describe('kurel serve while it starts', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  let work: string;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('answers /healthz 200 and /readyz 503 from the supervisor before any serving process can judge, then 200, refusing no connection on the way', async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-start-'));
    // Every worker finds the marker and loads for 3 s: no serving process can judge before then.
    const marker = join(work, 'loaded');
    writeFileSync(marker, '');
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--processes', '1', '--workers', '1', '--plugin', SLOW_PLUGIN], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', KUREL_TEST_LOAD_MARKER: marker, KUREL_TEST_LOAD_DELAY_MS: '3000' },
    });
    const lines = readJsonLines(child.stdout);
    const supervising = await waitFor(() => lines.find((l) => l['msg'] === 'supervising'), 'the supervisor to start');
    const url = `http://${String(supervising['address'])}`;

    const health = await once(`${url}/healthz`);
    const readiness = await once(`${url}/readyz`);
    const work503 = await once(`${url}/v1/validate`, 'POST', '{}');
    // Answered by the supervisor: no serving process takes requests yet.
    expect(lines.some((l) => l['msg'] === 'serving: a process takes requests')).toBe(false);
    expect(health).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(readiness).toEqual({ status: 503, body: '{"status":"starting"}' });
    expect(work503).toMatchObject({ status: 503, retryAfter: '1' });

    const seen: string[] = [];
    await waitFor(
      async () => {
        const answer = await once(`${url}/readyz`);
        seen.push('error' in answer ? answer.error : String(answer.status));
        return seen.at(-1) === '200' ? true : undefined;
      },
      'the service to be ready',
      30_000,
    );
    // Only the supervisor's 503 and then the serving process's 200: no connection refused or reset.
    expect(new Set(seen)).toEqual(new Set(['503', '200']));
    expect(seen.indexOf('200')).toBe(seen.length - 1);
    expect(lines.some((l) => l['msg'] === 'serving: a process takes requests')).toBe(true);
    expect(await once(`${url}/healthz`)).toEqual({ status: 200, body: '{"status":"ok"}' });
  });
  // docs/service.md "Signals": the supervisor handles its signals from its first line.
  const startSlowly = async (processes: string) => {
    work = mkdtempSync(join(tmpdir(), 'kurel-start-'));
    const marker = join(work, 'loaded');
    writeFileSync(marker, '');
    // A port known before the start, so that /healthz is asked from the moment it listens, before the supervisor logs anything.
    const port = await freePort();
    const started = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--processes', processes, '--workers', '1', '--plugin', SLOW_PLUGIN], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', KUREL_TEST_LOAD_MARKER: marker, KUREL_TEST_LOAD_DELAY_MS: '3000' },
    });
    child = started;
    const lines = readJsonLines(started.stdout);
    const exit = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => {
      const answer = await once(`${url}/healthz`);
      return 'status' in answer && answer.status === 200 ? true : undefined;
    }, '/healthz to be 200');
    return { child: started, lines, exit, url };
  };

  it('takes SIGHUP while it starts as a reload once every process serves, and keeps serving', async () => {
    const run = await startSlowly('1');
    run.child.kill('SIGHUP');
    const { url } = run;
    const reloaded = await waitFor(() => run.lines.find((l) => l['msg'] === 'definitions reloaded'), 'the reload');
    expect(reloaded['level']).toBe(30);
    expect(await once(`${url}/readyz`)).toMatchObject({ status: 200 });
    expect(run.child.exitCode).toBeNull();
  });

  it('takes SIGTERM while it starts as a graceful stop: exit 0', async () => {
    const run = await startSlowly('2');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('answers a request for an express route or a worker sent the moment /readyz turns 200, as it does once every worker has loaded', async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-start-'));
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--processes', '1', '--workers', '1'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    const lines = readJsonLines(child.stdout);
    const supervising = await waitFor(() => lines.find((l) => l['msg'] === 'supervising'), 'the supervisor to start');
    const url = `http://${String(supervising['address'])}`;
    for (;;) {
      const answer = await once(`${url}/readyz`);
      if ('status' in answer && answer.status === 200) break;
    }
    // At once, before express or any worker has loaded: the catalogue (a worker's task, through
    // express), the contract (express), a build body too large to judge here (express, a worker),
    // and a validation too large to judge here (answered before express, by a worker).
    const large = JSON.stringify({ application: { padding: 'x'.repeat(4096) }, profile: 'kind: ClusterProfile' });
    const largeProfile = JSON.stringify({ kind: 'ClusterProfile', padding: 'x'.repeat(4096) });
    const requests = () =>
      Promise.all([
        once(`${url}/v1/capabilities`),
        once(`${url}/openapi.yaml`),
        once(`${url}/v1/build`, 'POST', large),
        once(`${url}/v1/validate`, 'POST', largeProfile),
      ]);
    const early = await requests();
    await waitFor(() => lines.find((l) => l['msg'] === 'ready: every worker has loaded'), 'every worker to load');
    const later = await requests();
    expect(early.map((a) => ('status' in a ? a.status : a.error))).toEqual([200, 200, 200, 200]);
    expect(early).toEqual(later);
  });
});
