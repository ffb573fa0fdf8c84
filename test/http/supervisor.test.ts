import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnKurel } from '../helpers/cli.js';
import { keepAliveLoad } from '../helpers/keep-alive-load.js';
import { type ServedProcess, startServe, waitFor } from '../helpers/serve.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE, startSlowRequest } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const started: ServedProcess[] = [];
afterEach(async () => {
  for (const served of started.splice(0)) await served.stop();
});

async function serve(args: string[]): Promise<ServedProcess> {
  const served = await startServe(['--port', '0', ...args], { cwd: ROOT });
  started.push(served);
  return served;
}

/** The pids of the serving processes that logged `listening`. */
const servingPids = (served: ServedProcess) => served.lines.filter((l) => l['msg'] === 'listening').map((l) => Number(l['pid']));

/** One validation on a connection of its own: its status (and `Retry-After`), or the connection's error. */
function answerOrError(url: string, body: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/yaml' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(`${res.statusCode}${res.headers['retry-after'] ? ` Retry-After: ${res.headers['retry-after']}` : ''}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
    req.end(body);
  });
}

async function series(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('kurel serve --processes', () => {
  it('replaces a serving process that dies, logs the requests it was handling, counts it, and keeps answering', async () => {
    // The slow requests must outlive the kill and the replacement's start: under a loaded machine
    // that takes longer than the default deadline, which would answer them 408 first.
    const served = await serve(['--processes', '2', '--workers', '1', '--request-timeout', '120s']);
    expect(await series(served.url, 'kurel_processes')).toBe(2);
    // Two connections in a row go to the two processes in turn.
    const slow = ['doomed-a', 'doomed-b'].map((id) => ({ id, request: startSlowRequest(served.url, '/v1/validate', GATEWAY_PROFILE, { requestId: id }) }));
    const outcomes = slow.map(({ request }) =>
      request.response.then(
        (res) => `answered ${res.status}`,
        () => 'lost',
      ),
    );
    await waitFor(async () => ((await series(served.url, 'kurel_http_requests_in_flight')) === 3 ? true : undefined), 'both slow requests in flight');
    // The processes report what is in flight a few times a second.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const [victim] = servingPids(served);
    process.kill(victim!, 'SIGKILL');
    const ended = await waitFor(
      () => served.lines.find((l) => l['msg'] === 'a serving process ended: the requests it was handling are lost; it is replaced'),
      'the death to be logged',
    );
    expect(ended).toMatchObject({ level: 50, pid: victim, signal: 'SIGKILL', restarts: 1 });
    const lostIds = ended['requestIds'] as string[];
    expect(lostIds.length).toBeGreaterThan(0);
    expect(lostIds.every((id) => id === 'doomed-a' || id === 'doomed-b')).toBe(true);
    await waitFor(() => (servingPids(served).length === 3 ? true : undefined), 'the replacement to listen');
    for (const { request } of slow) request.finish();
    const results = await Promise.all(outcomes);
    // Only the requests the dead process was handling are lost.
    expect([...results].sort()).toEqual([...Array(lostIds.length).fill('lost'), ...Array(2 - lostIds.length).fill('answered 200')].sort());
    expect(await series(served.url, 'kurel_process_restarts_total')).toBe(1);
    expect(await series(served.url, 'kurel_processes')).toBe(2);
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${served.url}/readyz`)).status).toBe(200);
  });

  it.each(['POST /v1/reload', 'SIGHUP'])('reloads every process on one %s', async (how) => {
    const served = await serve(['--processes', '2', '--workers', '1']);
    await waitFor(() => (servingPids(served).length === 2 ? true : undefined), 'both processes to listen');
    if (how === 'SIGHUP') served.child.kill('SIGHUP');
    else {
      const res = await fetch(`${served.url}/v1/reload`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(200);
    }
    const reloaded = await waitFor(() => {
      const pids = new Set(served.lines.filter((l) => l['msg'] === 'definitions reloaded').map((l) => l['pid']));
      return pids.size === 2 ? pids : undefined;
    }, 'both processes to reload');
    expect([...reloaded].sort()).toEqual(servingPids(served).sort());
  });

  // A serving process loads no CLI: the supervisor sends it the options its command line and
  // configuration gave, and each process serves exactly what the CLI read (docs/service.md).
  it('serves in every process with the options of the command line and the configuration the supervisor read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurel-supervised-'));
    try {
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'defs'));
      writeFileSync(join(dir, 'defs', 'redis-sidecar.yaml'), REDIS_DEFINITION);
      // The configuration turns unknown capabilities into errors (strictCapabilities).
      writeFileSync(join(dir, '.kurel.yaml'), 'strictCapabilities: true\n');
      writeFileSync(join(dir, 'token'), 'sesame\n');
      const served = await startServe(
        [
          ...['--port', '0', '--host', '127.0.0.1', '--processes', '2', '--workers', '1', '--definitions', 'defs'],
          ...['--request-timeout', '7s', '--send-timeout', '9s', '--worker-memory', '96', '--inline-max-bytes', '1024', '--admin-token-file', 'token'],
        ],
        { cwd: dir },
      );
      started.push(served);
      await waitFor(() => (servingPids(served).length === 2 ? true : undefined), 'both processes to listen');
      const listening = served.lines.filter((l) => l['msg'] === 'listening');
      for (const line of listening) {
        expect(line).toMatchObject({
          url: served.url,
          tls: false,
          reloadAccess: 'token',
          workers: 1,
          processes: 2,
          inlineMaxBytes: 1024,
          definitions: 1,
          limits: expect.objectContaining({ requestTimeoutMs: 7000, sendTimeoutMs: 9000, workerMemoryMiB: 96 }),
        });
      }
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // Judged on the folder named by --definitions, with the configuration's severities, in each process in turn.
      const profile = `${REDIS_PROFILE}    expose.internal:\n      rendering: {controllerType: gateway, gatewayName: gw}\n    nope:\n      rendering: {}\n`;
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${served.url}/v1/validate`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/yaml', Connection: 'close' },
          body: profile,
        });
        const answer = (await res.json()) as { valid: boolean; diagnostics: { code: string; severity: string; path: string }[] };
        expect(answer.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([['unknown-capability', 'error', '/spec/capabilities/nope']]);
        expect(answer.valid).toBe(false);
      }
      // The token file was read: a reload without it is refused, with it allowed.
      const refused = await fetch(`${served.url}/v1/reload`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      expect(refused.status).toBe(403);
      const reloaded = await fetch(`${served.url}/v1/reload`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sesame' },
      });
      expect(reloaded.status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The first serving process is forked before the supervisor's socket listens (it starts while
  // the socket opens): a port in use still refuses the start once, and leaves no process behind.
  it('refuses to start, exit 2, when its port is in use, and its early serving process ends with it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const run = await spawnKurel(['serve', '--port', String(port), '--processes', '1', '--workers', '1'], { cwd: ROOT, env: { LOG_LEVEL: 'silent' } });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `kurel serve: refusing to start: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
    } finally {
      taken.close();
    }
  });

  // Issue 25: the supervisor outlives its last serving process, and the replacement listens on
  // the port `--port 0` picked for the service.
  it('replaces its only serving process, and the service answers again at the same address', async () => {
    const served = await serve(['--processes', '1', '--workers', '1']);
    await waitFor(() => (servingPids(served).length === 1 ? true : undefined), 'the process to listen');
    const [victim] = servingPids(served);
    process.kill(victim!, 'SIGKILL');
    await waitFor(() => (servingPids(served).length === 2 ? true : undefined), 'the replacement to listen', 20_000);
    const healthy = await waitFor(
      () =>
        fetch(`${served.url}/healthz`).then(
          (res) => (res.status === 200 ? true : undefined),
          () => undefined,
        ),
      'the same address to answer again',
      20_000,
    );
    expect(healthy).toBe(true);
    expect((await fetch(`${served.url}/readyz`)).status).toBe(200);
    expect(await series(served.url, 'kurel_process_restarts_total')).toBe(1);
    expect(served.child.exitCode).toBeNull();
  });

  // docs/service.md "Processes and the supervisor": between a process's death and its replacement,
  // every connection is handed to a live process or answered; only its requests in flight are lost.
  it.each([1, 2])('answers every connection opened as a serving process is killed (--processes %i)', async (processes) => {
    const served = await serve(['--processes', String(processes), '--workers', '1']);
    await waitFor(() => (servingPids(served).length === processes ? true : undefined), 'every process to listen');
    const [victim] = servingPids(served);
    // Connections opened as the process dies: some reach the supervisor before it knows.
    const before = Array.from({ length: 20 }, () => answerOrError(`${served.url}/v1/validate`, GATEWAY_PROFILE));
    process.kill(victim!, 'SIGKILL');
    const after = Array.from({ length: 20 }, () => answerOrError(`${served.url}/v1/validate`, GATEWAY_PROFILE));
    const outcomes = await Promise.all([...before, ...after]);
    // Judged by a live process, or refused for now by the supervisor while none serves.
    expect(outcomes.filter((outcome) => outcome !== '200' && outcome !== '503 Retry-After: 1')).toEqual([]);
    expect(outcomes).toContain(processes === 2 ? '200' : '503 Retry-After: 1');
  });

  // Two runs: a lost request shows up only now and then.
  it.each([1, 2])('answers every request received when SIGTERM comes under 64 keep-alive connections (run %i)', async () => {
    const served = await serve(['--processes', '2', '--workers', '1']);
    const load = keepAliveLoad(served.url, { connections: 64, pipeline: 2, method: 'POST', path: '/v1/validate', body: JSON.stringify(GATEWAY_DOCUMENT) });
    await waitFor(() => (load.tally.answered >= 300 && load.tally.answeredConnections === 64 ? true : undefined), 'the load on every connection', 30_000);
    served.child.kill('SIGTERM');
    const tally = await load.done;
    expect({ lost: tally.lost, errors: tally.errors }).toEqual({ lost: 0, errors: [] });
    expect(tally.answered).toBe(tally.sent);
    // Answered means answered: judged, or refused at the admission limit of a busy process.
    expect(Object.keys(tally.statuses).filter((status) => status !== '200' && status !== '503')).toEqual([]);
    expect(tally.statuses[200]).toBeGreaterThan(0);
    expect(await served.exit).toBe(0);
  });
});
