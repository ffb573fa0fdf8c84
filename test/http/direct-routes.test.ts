import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { KurelApp } from '../../src/http/app.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import type { TaskRunner } from '../../src/http/work/task.js';
import { waitFor } from '../helpers/serve.js';
import { type CapturedLog, GATEWAY_DOCUMENT, GATEWAY_PROFILE, testApp } from './support.js';

// POST /v1/validate and POST /v1/admission are answered by a node:http listener before express
// when the request is ordinary (src/http/routes/direct-routes.ts); the express routes stay for
// every other request. Both must give the same answers, byte for byte, and the same log lines.

const LIMIT_BYTES = 4096;
const PROFILES_DIR = new URL('../../profiles/', import.meta.url);
const PROFILES = readdirSync(PROFILES_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => readFileSync(new URL(name, PROFILES_DIR), 'utf8'));

/** A runner that judges on the test's thread but, lacking `judgeInline`, only through `run`: the direct route's path for tasks handed to the pool. */
function runOnlyRunner(): TaskRunner {
  const { judgeInline: _left, ...runner } = inProcessRunner(createCatalogue());
  return runner;
}

interface Served {
  kurel: KurelApp & { log: CapturedLog };
  server: Server;
  port: number;
}

async function serve(kurel: KurelApp & { log: CapturedLog }, listener: RequestListener): Promise<Served> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { kurel, server, port: (server.address() as AddressInfo).port };
}

/** Sends `head` and `body` as they are on a new connection and resolves to every byte answered until the server closes it. */
function exchange(port: number, head: string, body: Uint8Array, chunks = 1): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // A server that refuses a body closes the connection under it; what it answered is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.write(head);
    const size = Math.ceil(body.length / chunks) || 1;
    for (let at = 0; at < body.length; at += size) socket.write(body.subarray(at, at + size));
  });
}

interface RequestCase {
  method: string;
  path: string;
  contentType: string | undefined;
  requestId: string | undefined;
  body: Uint8Array;
  chunked: boolean;
  pieces: number;
}

/** One POST with its whole body in one piece, answered as the server wrote it. */
function postWhole(port: number, path: string, contentType: string, requestId: string, body: Uint8Array): Promise<string> {
  return exchange(port, headOf({ method: 'POST', path, contentType, requestId, body, chunked: false, pieces: 1 }), body);
}

function headOf(c: RequestCase): string {
  const lines = [`${c.method} ${c.path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  if (c.contentType !== undefined) lines.push(`Content-Type: ${c.contentType}`);
  if (c.requestId !== undefined) lines.push(`X-Request-Id: ${c.requestId}`);
  lines.push(c.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${c.body.length}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function bodyOf(c: RequestCase): Uint8Array {
  if (!c.chunked) return c.body;
  const framed = c.body.length > 0 ? `${c.body.length.toString(16)}\r\n${Buffer.from(c.body).toString('latin1')}\r\n0\r\n\r\n` : '0\r\n\r\n';
  return Buffer.from(framed, 'latin1');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The answer with what differs between any two answers (the date, a generated request id) replaced. */
function normalise(answer: string): string {
  return answer.replace(/^Date: .*$/m, 'Date: -').replace(UUID, '<uuid>');
}

/** The log lines about one request id, without what differs between two runs. */
function linesOf(log: CapturedLog, requestId: string): unknown[] {
  return log.lines.filter((line) => line['requestId'] === requestId).map(({ time: _time, durationMs: _duration, requestId: _id, ...rest }) => rest);
}

const text = (s: string) => new TextEncoder().encode(s);

const KIND = { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' };
const reviewOf = (object: unknown, uid: unknown = 'a1b2') =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid, kind: KIND, operation: 'CREATE', object } });

/** AdmissionReviews of the repository's profiles, of damaged ones, without a uid, and bodies that are no review. */
const reviews: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom(...PROFILES, GATEWAY_PROFILE).map((p) => text(reviewOf(parse(p)))),
  fc.constantFrom(...PROFILES).map((p) => text(reviewOf(parse(p), 7))),
  fc.constantFrom(...PROFILES).map((p) => text(reviewOf({ ...parse(p), spec: { capabilities: { nope: { rendering: {} } } } }))),
  fc.constant(text(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }))),
  fc.json({ maxDepth: 3 }).map(text),
);

/** Bodies of every kind: the repository's profiles as YAML and JSON, envelopes, damaged profiles, arbitrary JSON, text and bytes. */
const bodies: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom(...PROFILES, GATEWAY_PROFILE).map(text),
  fc.constantFrom(...PROFILES, GATEWAY_PROFILE).map((p) => text(JSON.stringify(parse(p)))),
  fc.constantFrom(...PROFILES).map((p) => text(JSON.stringify({ profile: p }))),
  fc.constantFrom(JSON.stringify({ profile: GATEWAY_DOCUMENT, platform: { kubernetes: '1.30' } }), '{"profile": 1}', '{"profile": ').map(text),
  fc
    .tuple(fc.constantFrom(...PROFILES, GATEWAY_PROFILE), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 6 }))
    .map(([p, at, cut, insert]) => text(p.slice(0, at % p.length) + insert + p.slice((at % p.length) + cut))),
  fc.constantFrom(...PROFILES).map((p) => text(`${p}# ${'padding '.repeat(400)}\n`)),
  fc.json({ maxDepth: 4 }).map(text),
  fc.string({ maxLength: 200 }).map(text),
  fc.uint8Array({ maxLength: 64 }),
  fc.constant(new Uint8Array(0)),
);

const requests: fc.Arbitrary<RequestCase> = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'PUT', 'GET'),
  path: fc.constantFrom(
    '/v1/validate',
    '/v1/validate',
    '/v1/validate',
    '/v1/validate?verbose=1',
    '/v1/validate/',
    '/V1/validate',
    '/v1/admission',
    '/v1/admission?timeout=10s',
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/yaml',
    'application/x-yaml',
    'text/yaml',
    'application/yaml; charset=utf-8',
    'Application/JSON; charset="UTF-8"',
    'application/json; charset=latin1',
    'text/plain',
    undefined,
  ),
  requestId: fc.constantFrom('trace-1', undefined, 'not a token!'),
  body: fc.oneof(bodies, reviews),
  chunked: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
  pieces: fc.integer({ min: 1, max: 3 }),
});

describe('POST /v1/validate and /v1/admission answered before express', () => {
  let direct: Served;
  let viaPool: Served;
  let express: Served;
  let counter = 0;

  beforeAll(async () => {
    const limits = { maxBodyBytes: LIMIT_BYTES };
    const inline = testApp({ limits, logLevel: 'debug' });
    direct = await serve(inline, inline.listener);
    const pooled = testApp({ limits, logLevel: 'debug', state: new ServiceState(runOnlyRunner()) });
    viaPool = await serve(pooled, pooled.listener);
    const plain = testApp({ limits, logLevel: 'debug' });
    express = await serve(plain, plain.app);
  });

  afterAll(() => {
    for (const served of [direct, viaPool, express]) served.server.close();
  });

  it('answers every request with the same bytes and the same log lines as the express route (generated requests)', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        counter += 1;
        const answers: string[] = [];
        const logs: unknown[][] = [];
        for (const served of [direct, viaPool, express]) {
          // Each server's request gets an id of its own when the client sends one, for its log lines.
          const id = request.requestId === 'trace-1' ? `trace-${counter}-${served.port}` : request.requestId;
          const answer = await exchange(served.port, headOf({ ...request, requestId: id }), bodyOf(request), request.pieces);
          answers.push(normalise(answer).replaceAll(id ?? '\u0000', '<id>'));
          if (id === `trace-${counter}-${served.port}`) logs.push(linesOf(served.kurel.log, id));
        }
        expect(answers[0]).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(answers[0]).toBe(answers[2]);
        expect(answers[1]).toBe(answers[2]);
        if (logs.length === 3) {
          expect(logs[0]).toEqual(logs[2]);
          expect(logs[1]).toEqual(logs[2]);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('takes ordinary validations and reviews from express, and leaves it the others', async () => {
    // express hands every request it gets to `app.handle`.
    const handle = vi.spyOn(direct.kurel.app as unknown as { handle: (...args: unknown[]) => void }, 'handle');
    try {
      const profile = text(GATEWAY_PROFILE);
      const ordinary = await postWhole(direct.port, '/v1/validate', 'application/yaml', 'r-1', profile);
      expect(ordinary).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const review = text(reviewOf(GATEWAY_DOCUMENT));
      const admitted = await postWhole(direct.port, '/v1/admission', 'application/json', 'r-0', review);
      expect(admitted).toContain('{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"a1b2","allowed":true}}');
      expect(handle).not.toHaveBeenCalled();
      const others: RequestCase[] = [
        { method: 'POST', path: '/v1/validate', contentType: 'application/yaml', requestId: 'r-2', body: profile, chunked: true, pieces: 1 },
        { method: 'POST', path: '/v1/validate', contentType: 'text/plain', requestId: 'r-3', body: profile, chunked: false, pieces: 1 },
        { method: 'GET', path: '/v1/validate', contentType: undefined, requestId: 'r-4', body: new Uint8Array(0), chunked: false, pieces: 1 },
        { method: 'POST', path: '/v1/build', contentType: 'application/json', requestId: 'r-5', body: text('{}'), chunked: false, pieces: 1 },
        { method: 'POST', path: '/v1/admission', contentType: 'application/yaml', requestId: 'r-6', body: text('{}'), chunked: false, pieces: 1 },
      ];
      for (const c of others) await exchange(direct.port, headOf(c), bodyOf(c));
      expect(handle).toHaveBeenCalledTimes(others.length);
    } finally {
      handle.mockRestore();
    }
  });

  it('refuses beyond the concurrency limit as the express route does, 503 with Retry-After', async () => {
    const full = testApp({ limits: { maxConcurrentRequests: 0 } });
    const [viaDirect, viaExpress] = [await serve(full, full.listener), await serve(full, full.app)];
    try {
      const profile = text(GATEWAY_PROFILE);
      const c: RequestCase = {
        method: 'POST',
        path: '/v1/validate',
        contentType: 'application/yaml',
        requestId: 'busy-1',
        body: profile,
        chunked: false,
        pieces: 1,
      };
      const answers = [await exchange(viaDirect.port, headOf(c), profile), await exchange(viaExpress.port, headOf(c), profile)].map(normalise);
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toMatch(
        /^HTTP\/1\.1 503 Service Unavailable\r\nX-Request-Id: busy-1\r\nRetry-After: 1\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/,
      );
      expect(answers[0]).toContain(
        '{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"the service is handling 0 requests at once, its limit; retry shortly","requestId":"busy-1"}',
      );
    } finally {
      viaDirect.server.close();
      viaExpress.server.close();
    }
  });

  it.each([
    ['closes', 'close'],
    ['resets', 'reset'],
  ] as const)('counts and logs a client that %s its connection before its body is complete as aborted, and frees its slot', async (_how, way) => {
    const app = testApp({ limits: { maxConcurrentRequests: 1 } });
    const served = await serve(app, app.listener);
    try {
      // The client goes once the service has the request's head (an event, not a time), and the
      // test reads the log once the access line is there.
      const socket = connect(served.port, '127.0.0.1', () => {
        socket.write('POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\nX-Request-Id: gone-1\r\nContent-Length: 100\r\n\r\nkind: Clu');
      });
      socket.on('error', () => undefined);
      served.server.once('request', () => (way === 'reset' ? socket.resetAndDestroy() : socket.destroy()));
      await waitFor(() => (linesOf(app.log, 'gone-1').length > 0 ? true : undefined), 'the access line of the request that went away');
      expect(linesOf(app.log, 'gone-1')).toEqual([
        expect.objectContaining({
          level: 30,
          method: 'POST',
          path: '/v1/validate',
          route: '/v1/validate',
          aborted: true,
          cause: 'client-closed',
          msg: 'request',
        }),
      ]);
      const metrics = await exchange(served.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', new Uint8Array(0));
      expect(metrics).toContain('kurel_http_requests_total{method="POST",route="/v1/validate",status="aborted"} 1\n');
      // The one slot is free again: the next validation is answered, not refused.
      const profile = text(GATEWAY_PROFILE);
      const next = await postWhole(served.port, '/v1/validate', 'application/yaml', 'next-1', profile);
      expect(next).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    } finally {
      served.server.close();
    }
  });

  it('closes every request of a pipelining connection that goes away, those waiting for their turn too', async () => {
    // A runner that answers only once the connection has gone, so that the pipelined requests wait behind the first.
    const base = runOnlyRunner();
    let release: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (release = resolve));
    const slow: TaskRunner = { ...base, run: (task, control) => gone.then(() => base.run(task, control)) };
    const app = testApp({ state: new ServiceState(slow) });
    const served = await serve(app, app.listener);
    try {
      const profile = GATEWAY_PROFILE;
      const one = (id: string) =>
        `POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(profile)}\r\n\r\n${profile}`;
      await new Promise<void>((resolve) => {
        const socket = connect(served.port, '127.0.0.1', () => {
          socket.write(one('piped-1') + one('piped-2') + one('piped-3'));
          // Once all three are followed, a reset: a client that only closes its side would still be answered.
          const followed = () => ['piped-1', 'piped-2', 'piped-3'].every((id) => app.requestIdsInFlight().includes(id));
          void waitFor(() => (followed() ? true : undefined), 'the pipelined requests to be followed').then(() => socket.resetAndDestroy());
        });
        socket.on('close', () => resolve());
      });
      release();
      await waitFor(
        () => (['piped-1', 'piped-2', 'piped-3'].every((id) => linesOf(app.log, id).length > 0) && app.requestIdsInFlight().length === 0 ? true : undefined),
        'the access lines of the pipelined requests, and their records done',
      );
      const metrics = await exchange(served.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', new Uint8Array(0));
      expect(metrics).toContain('kurel_http_requests_total{method="POST",route="/v1/validate",status="aborted"} 3\n');
      // Only the scrape itself is in flight: every record was closed and is done.
      expect(metrics).toContain('kurel_http_requests_in_flight 1\n');
      expect(app.requestIdsInFlight()).toEqual([]);
      for (const id of ['piped-1', 'piped-2', 'piped-3'])
        expect(linesOf(app.log, id)).toEqual([expect.objectContaining({ aborted: true, cause: 'client-closed' })]);
    } finally {
      served.server.close();
    }
  });

  it('answers an admission review whose task fails with a review of the same uid, as the express route does', async () => {
    // A worker that runs out of heap: the review is refused with 413 under its uid (docs/kubernetes.md).
    const base = runOnlyRunner();
    const outOfMemory: TaskRunner = { ...base, run: () => Promise.reject(Object.assign(new Error('out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' })) };
    const failing = testApp({ state: new ServiceState(outOfMemory) });
    const [viaDirect, viaExpress] = [await serve(failing, failing.listener), await serve(failing, failing.app)];
    try {
      const review = text(reviewOf(GATEWAY_DOCUMENT, 'oom-1'));
      const c: RequestCase = {
        method: 'POST',
        path: '/v1/admission',
        contentType: 'application/json',
        requestId: 'big-1',
        body: review,
        chunked: false,
        pieces: 1,
      };
      const answers = [await exchange(viaDirect.port, headOf(c), review), await exchange(viaExpress.port, headOf(c), review)].map(normalise);
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answers[0]).toContain('"uid":"oom-1","allowed":false');
      expect(answers[0]).toContain('"code":413');
    } finally {
      viaDirect.server.close();
      viaExpress.server.close();
    }
  });
});
