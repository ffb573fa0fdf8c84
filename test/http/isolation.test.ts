import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READY_LINE, type ServedProcess, startServe, waitFor } from '../helpers/serve.js';
import { REDIS_DEFINITION, REDIS_PROFILE, startSlowRequest } from './support.js';

// docs/service.md, against the built `kurel serve` and its worker threads: the test plugin's
// handlers keep a worker busy, exhaust its heap or make a large answer on demand.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLUGIN = fileURLToPath(new URL('../fixtures/plugins/costly.mjs', import.meta.url));
const MISBEHAVING = fileURLToPath(new URL('../fixtures/plugins/misbehaving.mjs', import.meta.url));

/** A ClusterProfile, as JSON, binding each capability to its rendering. */
function profile(bindings: Record<string, Record<string, unknown>>): string {
  const capabilities = Object.fromEntries(Object.entries(bindings).map(([type, rendering]) => [type, { rendering }]));
  return JSON.stringify({ apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata: { name: 'costly' }, spec: { capabilities } });
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** An AdmissionReview asking to create a ClusterProfile binding each capability to its rendering. */
function review(uid: string, bindings: Record<string, Record<string, unknown>>): string {
  const object = JSON.parse(profile(bindings)) as unknown;
  const kind = { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' };
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid, kind, operation: 'CREATE', object } });
}

/** A review made `bytes` long by an annotation, so that the pool moves its bytes to the worker rather than copy them. */
function padded(text: string, bytes: number): string {
  const data = JSON.parse(text) as { request: { object: { metadata: Record<string, unknown> } } };
  data.request.object.metadata['annotations'] = { 'example.com/padding': 'x'.repeat(Math.max(0, bytes - text.length)) };
  return JSON.stringify(data);
}

// Each request on a connection of its own: between tests a pooled connection can sit idle for as
// long as the server's keep-alive time-out (a worker's replacement loads meanwhile), and a request
// sent on it just as the server closes it is reset (nodejs/undici#3141). That race is the
// client's pool, not what these tests are about.
const FRESH = { Connection: 'close' };

async function admit(url: string, body: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/admission`, { method: 'POST', headers: { ...FRESH, 'Content-Type': 'application/json' }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function validate(url: string, body: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/validate`, { method: 'POST', headers: { ...FRESH, 'Content-Type': 'application/json' }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function get(url: string, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}${path}`, { headers: FRESH });
  return { status: res.status, text: await res.text() };
}

/** The value of one series in `/metrics` (0 when absent). */
async function series(url: string, name: string): Promise<number> {
  const text = (await get(url, '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

const inFlight = (url: string) => series(url, 'kurel_http_requests_in_flight');

/** Polls /readyz until `until` settles, and returns every status it answered meanwhile. */
async function readinessWhile(url: string, until: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    statuses.push((await get(url, '/readyz')).status);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return statuses;
}

/** Resolves once a quick request is answered 200: a worker is loaded and free. */
async function untilFree(url: string): Promise<void> {
  await waitFor(async () => ((await validate(url, QUICK)).status === 200 ? true : undefined), 'a free worker', 30_000);
}

const REPLACED = 'worker replaced: the new worker has loaded';
const replacements = (served: ServedProcess) => served.lines.filter((l) => l['msg'] === REPLACED).length;

const SPIN_FOREVER = profile({ spin: { ms: 600_000 } });
const QUICK = profile({ spin: { ms: 0 } });

describe('kurel serve with two workers and a 64 MiB heap', () => {
  let served: ServedProcess;
  beforeAll(async () => {
    // A deadline no machine reaches before a worker's heap runs out: on a loaded machine, a
    // shorter one could pass first and answer 503 instead of 413.
    served = await startServe(
      ['--port', '0', '--processes', '1', '--plugin', PLUGIN, '--plugin', MISBEHAVING, '--workers', '2', '--worker-memory', '64', '--request-timeout', '600s'],
      { cwd: ROOT },
    );
  });
  afterAll(async () => {
    await served?.stop();
  });

  it("answers 413 to a request that exhausts its worker's heap, replaces the worker and stays up", async () => {
    const pid = served.child.pid;
    const answer = validate(served.url, profile({ hog: {} }));
    const readiness = await readinessWhile(served.url, answer);
    const { status, headers, body } = await answer;
    expect(status).toBe(413);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Content Too Large',
      status: 413,
      detail: "the document expands beyond the service's memory limit",
      limitMiB: 64,
      requestId: headers.get('x-request-id'),
    });
    expect(new Set(readiness)).toEqual(new Set([200]));
    expect(served.child.exitCode).toBeNull();
    expect(served.child.pid).toBe(pid);
    const next = await validate(served.url, QUICK);
    expect(next.body).toMatchObject({ valid: true });
  });

  it("answers an AdmissionReview that exhausts its worker's heap with allowed: false and status 413, as a review", async () => {
    await untilFree(served.url);
    const { status, body } = await admit(served.url, review('9a1f', { hog: {} }));
    expect(status).toBe(200);
    expect(body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: '9a1f',
        allowed: false,
        status: { code: 413, reason: 'RequestEntityTooLarge', message: "the document expands beyond the service's memory limit" },
      },
    });
  });

  it("answers a 24 KB AdmissionReview that exhausts its worker's heap with its uid, as a review (issue 25 row 7)", async () => {
    await untilFree(served.url);
    const body = padded(review('24kb', { hog: {} }), 24 * 1024);
    expect(body.length).toBeGreaterThanOrEqual(24 * 1024);
    const { status, body: answer } = await admit(served.url, body);
    expect(status).toBe(200);
    expect(answer).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: '24kb',
        allowed: false,
        status: { code: 413, reason: 'RequestEntityTooLarge', message: "the document expands beyond the service's memory limit" },
      },
    });
  });

  it('answers a plugin that calls process.exit(3) in its worker, or returns a cyclic rendering, with plugin-error in a 200 (issue 25 row 8)', async () => {
    await untilFree(served.url);
    for (const [type, reason] of [
      ['exits', 'validateAndApplyDefaults called process.exit(3)'],
      ['cyclic', 'validateAndApplyDefaults returned a rendering that is not JSON data: /self refers back to an object that holds it (a cycle)'],
    ] as const) {
      const { status, body } = await validate(served.url, profile({ [type]: { size: 1 } }));
      expect(status).toBe(200);
      expect(body).toMatchObject({
        valid: false,
        diagnostics: [{ code: 'plugin-error', severity: 'error', path: `/spec/capabilities/${type}/rendering` }],
      });
      const [diagnostic] = body['diagnostics'] as { message: string }[];
      expect(diagnostic!.message).toBe(`capability "${type}": plugin ${MISBEHAVING}: ${reason}`);
    }
    const next = await validate(served.url, QUICK);
    expect(next.body).toMatchObject({ valid: true });
  });

  it('answers a request whose worker ended under it with a 500 that says so, and a review with its uid', async () => {
    await untilFree(served.url);
    const detail = 'the worker judging the request ended (exit code 4) before it answered; it was replaced';
    const { status, headers, body } = await validate(served.url, profile({ ends: {} }));
    expect(status).toBe(500);
    expect(body).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail, requestId: headers.get('x-request-id') });
    await untilFree(served.url);
    const review500 = await admit(served.url, padded(review('e4e4', { ends: {} }), 8 * 1024));
    expect(review500).toMatchObject({
      status: 200,
      body: { kind: 'AdmissionReview', response: { uid: 'e4e4', allowed: false, status: { code: 500, reason: 'InternalError', message: detail } } },
    });
    await untilFree(served.url);
  });

  it('answers its probes and metrics while every worker is busy', async () => {
    await untilFree(served.url);
    // Both workers busy until the test lets them go: the probes are answered while they are.
    const signals = mkdtempSync(join(tmpdir(), 'kurel-busy-'));
    const release = join(signals, 'release');
    const started = [join(signals, 'started-1'), join(signals, 'started-2')];
    const busy = started.map((file) => validate(served.url, profile({ spin: { ms: 0, started: file, until: release } })));
    await waitFor(() => (started.every((file) => existsSync(file)) ? true : undefined), 'both workers to be busy');
    let settled = false;
    void Promise.all(busy).then(() => {
      settled = true;
    });
    expect((await get(served.url, '/healthz')).status).toBe(200);
    expect((await get(served.url, '/readyz')).status).toBe(200);
    expect((await get(served.url, '/metrics')).status).toBe(200);
    expect(settled).toBe(false);
    writeFileSync(release, '');
    expect((await Promise.all(busy)).map((a) => a.status)).toEqual([200, 200]);
    rmSync(signals, { recursive: true, force: true });
  });

  it('hands a plugin, in its worker, a rendering without prototype and without __proto__ keys', async () => {
    const body = profile({ inspect: { nested: { a: 1 } } }).replace('"inspect":{"rendering":{', '"inspect":{"rendering":{"__proto__":{"polluted":"yes"},');
    const nested = body.replace('"nested":{', '"nested":{"__proto__":{"polluted":"yes"},');
    const answer = await validate(served.url, nested);
    expect(answer.body).toMatchObject({
      valid: true,
      resolved: { capabilities: { inspect: { nullPrototype: true, keys: ['nested'], nestedNullPrototype: true, nestedKeys: ['a'], inherited: null } } },
    });
  });
});

describe('kurel serve with one worker and a 2 s deadline', () => {
  let served: ServedProcess;
  beforeAll(async () => {
    served = await startServe(['--port', '0', '--processes', '1', '--plugin', PLUGIN, '--workers', '1', '--request-timeout', '2s'], { cwd: ROOT });
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('judges nothing on the serving process with a plugin loaded, and says so', () => {
    // Small bodies spin in the plugin: were they judged inline, the probes while every worker is busy would stall.
    expect(served.lines.find((l) => l['msg'] === 'listening')).toMatchObject({ inlineMaxBytes: 0 });
  });

  it('cancels a request still running at its deadline: 503 without Retry-After, its worker replaced, readiness unchanged', async () => {
    await untilFree(served.url);
    const replaced = replacements(served);
    const answer = validate(served.url, SPIN_FOREVER);
    const readiness = await readinessWhile(served.url, answer);
    const { status, headers, body } = await answer;
    expect(status).toBe(503);
    expect(headers.get('retry-after')).toBeNull();
    expect(headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail:
        'the request was still being processed when the time limit of 2000 ms passed, so its work was cancelled; the same request would take as long again',
      limitMs: 2000,
      requestId: headers.get('x-request-id'),
    });
    expect(new Set(readiness)).toEqual(new Set([200]));
    await waitFor(() => (replacements(served) > replaced ? true : undefined), 'the replacement worker to load');
    const next = await validate(served.url, QUICK);
    expect(next.body).toMatchObject({ valid: true, resolved: { capabilities: { spin: { ms: 0 } } } });
    const line = await waitFor(() => served.lines.find((l) => l['requestId'] === headers.get('x-request-id')), 'the log line of the request');
    expect(line).toMatchObject({ level: 40, route: '/v1/validate', status: 503 });
  });

  it('answers an AdmissionReview still running at its deadline with allowed: false and status 503, as a review', async () => {
    await untilFree(served.url);
    const { status, body } = await admit(served.url, review('c77e', { spin: { ms: 600_000 } }));
    expect(status).toBe(200);
    expect(body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid: 'c77e',
        allowed: false,
        status: {
          code: 503,
          reason: 'ServiceUnavailable',
          message:
            'the request was still being processed when the time limit of 2000 ms passed, so its work was cancelled; the same request would take as long again',
        },
      },
    });
  });

  it('answers a 20 KB AdmissionReview still running at its deadline with its uid, as a review (issue 25 row 7)', async () => {
    await untilFree(served.url);
    const { status, body } = await admit(served.url, padded(review('20kb', { spin: { ms: 600_000 } }), 20 * 1024));
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'AdmissionReview', response: { uid: '20kb', allowed: false, status: { code: 503, reason: 'ServiceUnavailable' } } });
  });
});

// The queued request's first byte comes before the spinning request's: its deadline must not
// pass before the spin runs in the worker, which on a loaded machine may take a few seconds.
describe('kurel serve with one worker and a 10 s deadline', () => {
  let served: ServedProcess;
  beforeAll(async () => {
    served = await startServe(['--port', '0', '--processes', '1', '--plugin', PLUGIN, '--workers', '1', '--request-timeout', '10s'], { cwd: ROOT });
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('answers a request still queued at its deadline 503 with Retry-After: 1', async () => {
    await untilFree(served.url);
    // The queued request's deadline runs from its first byte, sent before the spinning request:
    // it passes while the spinning request still holds the one worker's slot.
    const early = startSlowRequest(served.url, '/v1/validate', QUICK, { contentType: 'application/json' });
    await waitFor(async () => ((await inFlight(served.url)) >= 2 ? true : undefined), 'the early request to be in flight');
    const signals = mkdtempSync(join(tmpdir(), 'kurel-spin-'));
    const started = join(signals, 'started');
    const running = validate(served.url, profile({ spin: { ms: 600_000, started } }));
    // The spin has the one worker's slot once its worker has begun it.
    await waitFor(() => (existsSync(started) ? true : undefined), 'the spinning request to run in the worker');
    early.finish();
    const queued = await early.response;
    expect(queued.status).toBe(503);
    expect(queued.headers['retry-after']).toBe('1');
    expect(JSON.parse(queued.body)).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the request waited for a free worker beyond the time limit of 10000 ms; retry shortly',
      limitMs: 10000,
      requestId: queued.headers['x-request-id'],
    });
    const first = await running;
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, null]);
    rmSync(signals, { recursive: true, force: true });
  });
});

describe('kurel serve at its admission limit', () => {
  let served: ServedProcess | undefined;
  afterEach(async () => {
    await served?.stop();
  });

  it('admits 64 requests at once and refuses the 65th at once with 503 and Retry-After: 1, logged at warn under its route', async () => {
    const server = await startServe(['--port', '0', '--processes', '1', '--plugin', PLUGIN, '--workers', '1', '--request-timeout', '60s'], { cwd: ROOT });
    served = server;
    const admitted = Array.from({ length: 64 }, () => validate(server.url, SPIN_FOREVER).catch(() => undefined));
    await waitFor(async () => ((await inFlight(server.url)) >= 65 ? true : undefined), '64 requests to be in flight');
    const refused = await validate(server.url, SPIN_FOREVER);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the service is handling 64 requests at once, its limit; retry shortly',
      requestId: refused.headers.get('x-request-id'),
    });
    const line = await waitFor(() => server.lines.find((l) => l['requestId'] === refused.headers.get('x-request-id')), 'the log line of the refusal');
    expect(line).toMatchObject({ level: 40, route: '/v1/validate', status: 503 });
    expect(await series(server.url, 'kurel_http_requests_total{method="POST",route="/v1/validate",status="503"}')).toBe(1);
    expect(await series(server.url, 'kurel_http_requests_total{method="POST",route="unmatched",status="503"}')).toBe(0);
    // The admitted requests would run for a minute: the process is killed rather than drained.
    server.child.kill('SIGKILL');
    await Promise.all(admitted);
  });
});

describe('kurel serve started outside the package, with a 1 s send timeout and an admin token', () => {
  let served: ServedProcess;
  let work: string;
  const TOKEN = 'isolation-admin-token';
  const reloadWith = (headers: Record<string, string>) =>
    fetch(`${served.url}/v1/reload`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } });
  const reload = () => reloadWith({ Authorization: `Bearer ${TOKEN}` });
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-isolation-'));
    mkdirSync(join(work, 'defs'));
    writeFileSync(join(work, 'token'), `${TOKEN}\n`);
    served = await startServe(
      [
        '--port',
        '0',
        '--definitions',
        'defs',
        '--plugin',
        PLUGIN,
        '--workers',
        '2',
        '--request-timeout',
        '30s',
        '--send-timeout',
        '1s',
        '--admin-token-file',
        'token',
      ],
      { cwd: work },
    );
  });
  afterAll(async () => {
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves the definitions it was given instead of the embedded ones', async () => {
    const capabilities = JSON.parse((await get(served.url, '/v1/capabilities')).text) as { type: string; source: string }[];
    expect(capabilities.find((c) => c.type === 'redis-sidecar')).toBeUndefined();
  });

  it('names the package definitions folder without its absolute path, when it names no definitions', async () => {
    const bare = await startServe(['--port', '0', '--processes', '1', '--workers', '1'], { cwd: work });
    try {
      const capabilities = JSON.parse((await get(bare.url, '/v1/capabilities')).text) as { type: string; source: string }[];
      expect(capabilities.find((c) => c.type === 'redis-sidecar')?.source).toBe('<kurel>/definitions/redis-sidecar.yaml');
    } finally {
      await bare.stop();
    }
  });

  it('refuses a reload without the admin token, from loopback too', async () => {
    expect(served.lines.find((l) => l['msg'] === 'listening')).toMatchObject({ reloadAccess: 'token' });
    const refused = [await reloadWith({}), await reloadWith({ Authorization: 'Bearer not-the-token' })];
    expect(refused.map((r) => r.status)).toEqual([403, 403]);
  });

  it('switches every worker to the new definitions together, and names a failed reload by the folder as given', async () => {
    const before = (JSON.parse((await get(served.url, '/readyz')).text) as { registry: { definitions: number } }).registry.definitions;
    writeFileSync(join(work, 'defs', 'cache.yaml'), REDIS_DEFINITION.replace('redis-sidecar', 'cache-sidecar'));
    const reloading = reload();
    const readiness = await readinessWhile(served.url, reloading);
    expect(((await (await reloading).json()) as { reloaded: boolean }).reloaded).toBe(true);
    expect(new Set(readiness)).toEqual(new Set([200]));
    const cache = REDIS_PROFILE.replace('redis-sidecar', 'cache-sidecar');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${served.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: cache }).then((r) => r.json()),
      ),
    );
    expect(answers.map((a) => (a as { valid: boolean }).valid)).toEqual(Array(8).fill(true));

    writeFileSync(join(work, 'defs', 'broken.yaml'), 'kind: [');
    const failed = (await (await reload()).json()) as {
      reloaded: boolean;
      diagnostics: { file: string }[];
    };
    expect(failed.reloaded).toBe(false);
    expect(failed.diagnostics.map((d) => d.file)).toEqual(['defs/broken.yaml']);
    const ready = (await get(served.url, '/readyz')).text;
    expect(JSON.parse(ready)).toMatchObject({ status: 'ready', registry: { definitions: before + 1 }, lastReload: { ok: false } });
    expect(ready).not.toContain(work);
    expect(ready).not.toContain(ROOT);
  });
  it('cuts an answer the client does not read within the send timeout, and counts it aborted, not 200', async () => {
    const before200 = await series(served.url, 'kurel_http_requests_total{method="POST",route="/v1/validate",status="200"}');
    // Larger than the kernel's socket buffers on both ends of a loopback connection can hold.
    const body = profile({ amplify: { bytes: 64 * 1024 * 1024 } });
    const socket = connect(Number(new URL(served.url).port), '127.0.0.1');
    let received = 0;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.pause();
    socket.write(`POST /v1/validate HTTP/1.1\r\nHost: kurel\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const cut = await waitFor(
      () => served.lines.find((l) => l['msg'] === 'answer cut: the client did not read it within the send timeout'),
      'the answer to be cut',
      30_000,
    );
    expect(cut).toMatchObject({ level: 40, route: '/v1/validate', status: 200, aborted: true, cause: 'send-timeout' });
    socket.resume();
    await closed;
    expect(received).toBeLessThan(64 * 1024 * 1024);
    expect(await series(served.url, 'kurel_http_requests_total{method="POST",route="/v1/validate",status="aborted"}')).toBe(1);
    expect(await series(served.url, 'kurel_http_requests_total{method="POST",route="/v1/validate",status="200"}')).toBe(before200);
  });
});

/**
 * A loopback server that slow-to-load.mjs's later workers ask before they finish loading: the
 * first `free` are answered at once, the rest held until `open()`. `asked` counts the workers
 * that have asked.
 */
async function loadGate(free = 0): Promise<{ url: string; asked: () => number; open(): void; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  let opened = false;
  let asked = 0;
  const server = createServer((_req, res) => {
    asked += 1;
    if (opened || asked <= free) res.end('open');
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const open = () => {
    opened = true;
    for (const res of held.splice(0)) res.end('open');
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    asked: () => asked,
    open,
    close: () => {
      open();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('kurel serve while its workers load', () => {
  let served: ServedProcess | undefined;
  let work: string;
  let gate: Awaited<ReturnType<typeof loadGate>> | undefined;
  afterEach(async () => {
    await gate?.close();
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  // Under the supervisor a process takes requests, and is ready, once its first worker has loaded:
  // every connection goes to a process that can judge (docs/service.md), so the spare loading
  // meanwhile no longer holds readiness back.
  it('answers and reports ready once one worker has loaded, while the spare still loads', async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-starting-'));
    const plugin = fileURLToPath(new URL('../fixtures/plugins/slow-to-load.mjs', import.meta.url));
    // One worker and the spare: the first loads at once, the spare until the test opens the gate.
    gate = await loadGate();
    const server = await startServe(['--port', '0', '--processes', '1', '--plugin', plugin, '--workers', '1'], {
      cwd: ROOT,
      env: { KUREL_TEST_LOAD_MARKER: join(work, 'loaded'), KUREL_TEST_LOAD_GATE_URL: gate.url },
      until: 'listening',
    });
    served = server;
    const loading = gate;
    await waitFor(() => (loading.asked() === 1 ? true : undefined), 'the spare to be loading');
    const early = await get(server.url, '/readyz');
    expect([early.status, JSON.parse(early.text)]).toMatchObject([200, { status: 'ready', lastReload: { ok: true } }]);
    const answered = await validate(server.url, profile({ echo: { a: 1 } }));
    expect(answered.body).toMatchObject({ valid: true, resolved: { capabilities: { echo: { a: 1 } } } });
    expect(server.lines.some((l) => l['msg'] === READY_LINE)).toBe(false);
    gate.open();
    await waitFor(() => server.lines.find((l) => l['msg'] === READY_LINE), 'every worker to load', 30_000);
    const ready = await get(server.url, '/readyz');
    expect([ready.status, JSON.parse(ready.text).status]).toEqual([200, 'ready']);
  });
});

describe('kurel serve whose worker is replaced', () => {
  let served: ServedProcess | undefined;
  let work: string;
  let gate: Awaited<ReturnType<typeof loadGate>> | undefined;
  afterEach(async () => {
    await gate?.close();
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('hands the next request to its loaded spare at once, while the replacement loads', async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-spare-'));
    const plugin = fileURLToPath(new URL('../fixtures/plugins/slow-to-load.mjs', import.meta.url));
    // Every worker after the first asks the gate: the spare at start passes, the replacement
    // loads only once the test opens it.
    gate = await loadGate(1);
    const server = await startServe(['--port', '0', '--processes', '1', '--plugin', plugin, '--workers', '1', '--request-timeout', '1s'], {
      cwd: ROOT,
      env: { KUREL_TEST_LOAD_MARKER: join(work, 'loaded'), KUREL_TEST_LOAD_GATE_URL: gate.url },
    });
    served = server;
    const cancelled = await validate(server.url, SPIN_FOREVER);
    expect([cancelled.status, cancelled.headers.get('retry-after')]).toEqual([503, null]);
    const next = await validate(server.url, profile({ echo: { a: 1 } }));
    expect(next.body).toMatchObject({ valid: true, resolved: { capabilities: { echo: { a: 1 } } } });
    // Answered while the replacement still waits at the gate: the spare took it.
    const loading = gate;
    await waitFor(() => (loading.asked() === 2 ? true : undefined), 'the replacement to be loading');
    expect(replacements(server)).toBe(0);
    gate.open();
    await waitFor(() => (replacements(server) === 1 ? true : undefined), 'the replacement to load', 30_000);
  });
});

describe('a replacement worker that cannot load', () => {
  let served: ServedProcess | undefined;
  let work: string;
  afterEach(async () => {
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('takes no request, is logged, and leaves the service ready on its other workers', async () => {
    work = mkdtempSync(join(tmpdir(), 'kurel-replacement-'));
    const marker = join(work, 'refuse');
    const plugin = fileURLToPath(new URL('../fixtures/plugins/loads-once.mjs', import.meta.url));
    const server = await startServe(['--port', '0', '--processes', '1', '--plugin', plugin, '--workers', '2', '--request-timeout', '1s'], {
      cwd: ROOT,
      env: { KUREL_TEST_REFUSE_FILE: marker },
    });
    served = server;
    writeFileSync(marker, '');
    const cancelled = await validate(server.url, SPIN_FOREVER);
    expect([cancelled.status, cancelled.headers.get('retry-after')]).toEqual([503, null]);
    const line = await waitFor(
      () => server.lines.find((l) => String(l['msg']).startsWith('a replacement worker could not load')),
      'the failed replacement to be logged',
    );
    expect(line).toMatchObject({ level: 50, errors: [expect.stringContaining('the plugin refuses to load now')] });
    expect((await get(server.url, '/readyz')).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 4 }, () => validate(server.url, QUICK)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});

describe('SIGTERM with pipelined requests on keep-alive connections', () => {
  const sockets: Socket[] = [];
  let served: ServedProcess | undefined;
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await served?.stop();
  });

  it('answers every request already received, and closes each connection after its last answer', async () => {
    served = await startServe(['--port', '0', '--processes', '1', '--plugin', PLUGIN, '--workers', '2', '--request-timeout', '30s'], { cwd: ROOT });
    const { port } = new URL(served.url);
    // Each first request keeps a worker busy until the test lets it go, after the signal.
    const signals = mkdtempSync(join(tmpdir(), 'kurel-drain-'));
    const release = join(signals, 'release');
    const slow = profile({ spin: { ms: 0, until: release } });
    const quick = profile({ spin: { ms: 0 } });
    const post = (body: string) =>
      `POST /v1/validate HTTP/1.1\r\nHost: kurel\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const pipeline = `${post(slow)}GET /healthz HTTP/1.1\r\nHost: kurel\r\n\r\n${post(quick)}`;
    // So every connection's answers go out after the signal.
    const connections = 10;
    const received = Array.from({ length: connections }, () => {
      const socket = connect(Number(port), '127.0.0.1');
      sockets.push(socket);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.write(pipeline);
      return new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1'))));
    });
    await waitFor(async () => ((await inFlight(served!.url)) >= connections * 3 + 1 ? true : undefined), 'every pipelined request to be read');
    served.child.kill('SIGTERM');
    // The serving process's own line (it names its grace period), not the supervisor's: its answers close connections only once it drains.
    await waitFor(
      () => served?.lines.find((l) => l['msg'] === 'shutting down: finishing requests in flight' && l['graceMs'] !== undefined),
      'the serving process to begin draining',
    );
    writeFileSync(release, '');
    const answers = (await Promise.all(received)).map(parseResponses);
    rmSync(signals, { recursive: true, force: true });
    for (const responses of answers) {
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(responses.map((r) => r.headers['connection'])).toEqual(['keep-alive', 'keep-alive', 'close']);
    }
    expect(await served.exit).toBe(0);
  });
});

/** The responses in the bytes a connection received, read by their Content-Length. */
function parseResponses(text: string): { status: number; headers: Record<string, string> }[] {
  const responses: { status: number; headers: Record<string, string> }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`an incomplete response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
