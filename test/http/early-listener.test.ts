import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { expressApp } from '../../src/http/app.js';
import { type AppOptions, createAppCore } from '../../src/http/app-core.js';
import { stagedListener } from '../../src/http/early-listener.js';
import type { Logger } from '../../src/http/log-lines.js';
import { createLogger } from '../../src/http/logger.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import { type CapturedLog, GATEWAY_PROFILE } from './support.js';

// A serving process takes requests before express has loaded (docs/service.md "During start"):
// the probes and the ordinary validations and reviews are answered at once, as express would
// answer them, and every other request waits for express, within its deadline.

const servers: Server[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) server.close();
});

async function serve(listener: RequestListener): Promise<number> {
  return (await serveOn(listener)).port;
}

async function serveOn(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Counts the requests a staged listener holds; `until(n)` resolves once it has held `n`. */
function holdCounter() {
  let holds = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  return {
    onHold: () => {
      holds++;
      for (const wait of waiting.filter((w) => w.n <= holds)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    },
    count: () => holds,
    until: (n: number) => (holds >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }))),
  };
}

/** The parts of a service, logging into memory at `debug`, over `state` (one of its own by default). */
function coreOf(options: Partial<AppOptions> = {}) {
  const log: CapturedLog = { lines: [] };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) log.lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const base = options.state ? { state: options.state } : { runner: inProcessRunner(createCatalogue()) };
  const core = createAppCore({ ...options, ...base, logger: createLogger('debug', sink) } as AppOptions & { logger: Logger });
  return { core, log };
}

/** Sends `request` as it is on a new connection and resolves to every byte answered until the server closes it. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
    socket.write(request);
  });
}

const get = (method: string, path: string, id: string) => `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`;
const post = (path: string, id: string, body: string, type = 'application/yaml') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const chunkedPost = (path: string, id: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/yaml\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;

const normalise = (answer: string) => answer.replace(/^Date: .*$/m, 'Date: -');

/** The log lines about one request id, without what differs between two runs. */
function linesOf(log: CapturedLog, requestId: string): unknown[] {
  return log.lines.filter((line) => line['requestId'] === requestId).map(({ time: _time, durationMs: _duration, ...rest }) => rest);
}

describe('a serving process before express has loaded', () => {
  it('answers GET and HEAD /healthz and /readyz, and ordinary validations, with the bytes and log lines express gives them', async () => {
    // One state for both, so /readyz tells the same registry and time of load.
    const state = new ServiceState(inProcessRunner(createCatalogue()));
    const early = coreOf({ state });
    const staged = stagedListener(early.core);
    const earlyPort = await serve(staged.listener);
    const later = coreOf({ state });
    const expressPort = await serve(expressApp(later.core).listener);
    const requests = [
      get('GET', '/healthz', 'p-1'),
      get('HEAD', '/healthz', 'p-2'),
      get('GET', '/readyz', 'p-3'),
      get('HEAD', '/readyz?verbose=1', 'p-4'),
      post('/v1/validate', 'p-5', GATEWAY_PROFILE),
      post('/v1/validate', 'p-6', 'kind: [', 'application/yaml'),
    ];
    for (const [i, request] of requests.entries()) {
      const answers = [normalise(await exchange(earlyPort, request)), normalise(await exchange(expressPort, request))];
      expect(answers[0]).toBe(answers[1]);
      expect(linesOf(early.log, `p-${i + 1}`)).toEqual(linesOf(later.log, `p-${i + 1}`));
      expect(linesOf(early.log, `p-${i + 1}`)).toHaveLength(1);
    }
    expect(await exchange(earlyPort, get('GET', '/healthz', 'p-7'))).toMatch(/^HTTP\/1\.1 200 OK\r\nX-Request-Id: p-7\r\n[\s\S]*\r\n\r\n\{"status":"ok"\}$/);
    const metrics = await exchange(expressPort, get('GET', '/metrics', 'p-8'));
    expect(metrics).toContain('kurel_http_requests_total{method="HEAD",route="/readyz",status="200"} 1\n');
    staged.complete(expressApp(early.core).listener);
    // Counted alike whichever answered: the early answers are in the same registry.
    const after = await exchange(earlyPort, get('GET', '/metrics', 'p-9'));
    expect(after).toContain('kurel_http_requests_total{method="HEAD",route="/readyz",status="200"} 1\n');
    expect(after).toContain('kurel_http_requests_total{method="GET",route="/healthz",status="200"} 2\n');
  });

  it('holds a request for another route, or one express is to read, and answers it once express has loaded, as express does', async () => {
    const { core, log } = coreOf();
    const holds = holdCounter();
    const staged = stagedListener(core, { onHold: holds.onHold });
    const port = await serve(staged.listener);
    const reference = coreOf();
    const referencePort = await serve(expressApp(reference.core).listener);
    const requests = [
      get('GET', '/v1/capabilities', 'h-1'),
      get('GET', '/', 'h-2'),
      chunkedPost('/v1/validate', 'h-3', GATEWAY_PROFILE),
      get('GET', '/nowhere', 'h-4'),
      post('/v1/validate', 'h-5', GATEWAY_PROFILE, 'text/plain'),
    ];
    let answered = 0;
    const held = requests.map((request) => exchange(port, request).finally(() => answered++));
    // Each held request asks for express at once.
    await holds.until(requests.length);
    expect(holds.count()).toBe(requests.length);
    expect(answered).toBe(0);
    // Not logged either: nothing was answered.
    expect(log.lines.filter((line) => String(line['requestId']).startsWith('h-'))).toEqual([]);
    staged.complete(expressApp(core).listener);
    const answers = (await Promise.all(held)).map(normalise);
    for (const [i, request] of requests.entries()) {
      const expected = normalise(await exchange(referencePort, request));
      // The console page carries a nonce of its own in each answer.
      const strip = (text: string) => text.replace(/nonce-[A-Za-z0-9+/=]+/g, 'nonce').replace(/nonce="[^"]*"/g, 'nonce');
      expect(strip(answers[i]!)).toBe(strip(expected));
    }
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[2]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[3]).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(answers[4]).toMatch(/^HTTP\/1\.1 415 Unsupported Media Type\r\n/);
    expect(linesOf(log, 'h-1')).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/capabilities', route: '/v1/capabilities', status: 200 })]);
  });

  it('counts the deadline of a held request from its arrival: past it once express has loaded, 503 with Retry-After', async () => {
    // The clock the deadline is counted on is the test's: the request is past it however loaded the machine.
    vi.useFakeTimers({ toFake: ['performance'] });
    const { core } = coreOf({ limits: { requestTimeoutMs: 200 } });
    const holds = holdCounter();
    const staged = stagedListener(core, { onHold: holds.onHold });
    const port = await serve(staged.listener);
    const answer = exchange(port, get('GET', '/v1/capabilities', 'd-1'));
    await holds.until(1);
    vi.advanceTimersByTime(201);
    staged.complete(expressApp(core).listener);
    expect(await answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\nX-Request-Id: d-1\r\nRetry-After: 1\r\n/);
    expect(await answer).toContain(
      '\r\n\r\n{"limitMs":200,"type":"about:blank","title":"Service Unavailable","status":503,"detail":"the service was still starting when the time limit of 200 ms passed; retry shortly","requestId":"d-1"}',
    );
  });

  it('answers 503 with Retry-After beyond the requests it may hold, and forgets a held request whose client left', async () => {
    const { core, log } = coreOf();
    const holds = holdCounter();
    const staged = stagedListener(core, { maxHeld: 1, onHold: holds.onHold });
    const { server, port } = await serveOn(staged.listener);
    // The listener's own handlers of a request's events run before the test's, added after it.
    const closed = new Promise<void>((resolve) => server.once('request', (_req, res: ServerResponse) => res.once('close', resolve)));
    const gone = connect(port, '127.0.0.1');
    gone.write(get('GET', '/v1/capabilities', 'm-0'));
    await holds.until(1);
    gone.destroy();
    await closed;
    const first = exchange(port, get('GET', '/v1/capabilities', 'm-1'));
    await holds.until(2);
    const refused = await exchange(port, get('GET', '/v1/capabilities', 'm-2'));
    expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\nX-Request-Id: m-2\r\nRetry-After: 1\r\n/);
    expect(refused).toContain('"detail":"the service is still starting; retry shortly","requestId":"m-2"');
    staged.complete(expressApp(core).listener);
    expect(await first).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // The client that left before express loaded is neither answered nor counted as in flight.
    expect(linesOf(log, 'm-0')).toEqual([]);
    expect(core.requestIdsInFlight()).toEqual([]);
  });
});
