import { createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Front, frontArguments, openFront, type Taker } from '../../src/http/supervisor/front.js';

const opened: Front[] = [];
afterEach(async () => {
  for (const front of opened.splice(0)) await front.close();
});

async function front(answers = true): Promise<Front> {
  const made = await openFront('127.0.0.1', 0, { answers });
  if ('error' in made) throw made.error;
  opened.push(made);
  return made;
}

/** A taker that serves what it is handed with an HTTP server answering its own name. */
function namedTaker(name: string): Taker {
  const server = createServer((_req, res) => {
    res.shouldKeepAlive = false;
    res.end(name);
  });
  return {
    take(socket: Socket, done) {
      server.emit('connection', socket);
      // The front accepts paused: what takes a socket reads it.
      socket.resume();
      done(null);
    },
  };
}

/** One GET on a new connection: its status, `Connection` header and body. */
function get(url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("the supervisor's front", () => {
  it('answers /healthz 200, /readyz 503 starting and anything else 503 with Retry-After while no process takes requests, closing each connection', async () => {
    const served = await front();
    const url = `http://${served.address}`;
    expect(await get(`${url}/healthz`)).toEqual({ status: 200, connection: 'close', body: '{"status":"ok"}' });
    expect(await get(`${url}/readyz`)).toEqual({ status: 503, connection: 'close', body: '{"status":"starting"}' });
    const work = await fetch(`${url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect([work.status, work.headers.get('retry-after'), work.headers.get('content-type')]).toEqual([503, '1', 'application/problem+json; charset=utf-8']);
    const requestId = work.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await work.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the service is starting; retry shortly',
      requestId,
    });
  });

  it("gives each of its answers a request id, the client's own when it is a plain token, and answers HEAD of the probes as GET", async () => {
    const served = await front();
    const url = `http://${served.address}`;
    const answer = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${url}${path}`, init);
      return [res.status, res.headers.get('x-request-id'), await res.text()];
    };
    expect(await answer('/healthz', { headers: { 'X-Request-Id': 'probe-1' } })).toEqual([200, 'probe-1', '{"status":"ok"}']);
    expect(await answer('/readyz', { headers: { 'X-Request-Id': 'probe:2' } })).toEqual([503, 'probe:2', '{"status":"starting"}']);
    expect(await answer('/healthz', { method: 'HEAD', headers: { 'X-Request-Id': 'head-1' } })).toEqual([200, 'head-1', '']);
    expect(await answer('/readyz', { method: 'HEAD', headers: { 'X-Request-Id': 'head-2' } })).toEqual([503, 'head-2', '']);
    const [status, requestId, body] = await answer('/metrics', { headers: { 'X-Request-Id': 'not a token' } });
    expect([status, requestId]).toEqual([503, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(JSON.parse(String(body))).toMatchObject({ status: 503, requestId });
  });

  // docs/service.md "During start": HEAD is answered wherever GET is, from the first moment the service listens.
  it.each([
    ['/healthz', '200 OK', 'application/json; charset=utf-8', '{"status":"ok"}'],
    ['/readyz', '503 Service Unavailable', 'application/json; charset=utf-8', '{"status":"starting"}'],
    [
      '/v1/capabilities',
      '503 Service Unavailable',
      'application/problem+json; charset=utf-8',
      '{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"the service is starting; retry shortly","requestId":"head-test"}',
    ],
  ])('answers HEAD %s as it answers GET, with the same status and headers and no body', async (path, status, type, body) => {
    const served = await front();
    const exchange = (method: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(served.port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('close', () => resolve(text.replace(/\r\nDate: [^\r]*/, '')));
        socket.write(`${method} ${path} HTTP/1.1\r\nHost: kurel\r\nX-Request-Id: head-test\r\n\r\n`);
      });
    const [get, head] = [await exchange('GET'), await exchange('HEAD')];
    const headers =
      `HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n` +
      `${path === '/v1/capabilities' ? 'Retry-After: 1\r\n' : ''}X-Request-Id: head-test\r\nConnection: close\r\n\r\n`;
    expect(head).toBe(headers);
    expect(get).toBe(headers + body);
  });

  it('hands connections to the processes that take requests, in turn, and answers itself again once none does', async () => {
    const served = await front();
    const url = `http://${served.address}/healthz`;
    served.add(1, namedTaker('one'));
    served.add(2, namedTaker('two'));
    expect(served.takers).toBe(2);
    const bodies = [];
    for (let i = 0; i < 4; i++) bodies.push((await get(url)).body);
    expect(bodies.sort()).toEqual(['one', 'one', 'two', 'two']);
    served.remove(1);
    expect([(await get(url)).body, (await get(url)).body]).toEqual(['two', 'two']);
    served.remove(2);
    expect(await get(url)).toEqual({ status: 200, connection: 'close', body: '{"status":"ok"}' });
  });

  it('gives a connection the next process, or its own answer, when it cannot be sent to one', async () => {
    const served = await front();
    const url = `http://${served.address}/readyz`;
    served.add(1, { take: (_socket, done) => done(new Error('gone')) });
    expect((await get(url)).body).toBe('{"status":"starting"}');
    served.add(2, namedTaker('two'));
    expect([(await get(url)).body, (await get(url)).body]).toEqual(['two', 'two']);
  });

  it('over TLS, holds connections until a process takes requests', async () => {
    const served = await front(false);
    const answer = get(`http://${served.address}/healthz`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    served.add(1, namedTaker('one'));
    expect((await answer).body).toBe('one');
  });

  // docs/service.md "Signals": a request whose first byte arrived before the drain began is answered.
  it('answers a request it had begun to receive when it closes, and closes a connection that sent nothing once quiet', async () => {
    const served = await front();
    const started = connect(served.port, '127.0.0.1');
    const silent = connect(served.port, '127.0.0.1');
    const read = (socket: Socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(text));
      });
    const startedText = read(started);
    const silentText = read(silent);
    started.write('GET /readyz HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = served.close();
    started.write('Host: kurel\r\n\r\n');
    const text = await startedText;
    expect(text.replace(/\r\nDate: [^\r]*/, '').replace(/\r\nX-Request-Id: [0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\r\n/, '\r\nX-Request-Id: UUID\r\n')).toBe(
      'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 21\r\nX-Request-Id: UUID\r\nConnection: close\r\n\r\n' +
        '{"status":"draining"}',
    );
    expect(await silentText).toBe('');
    await closing;
    await expect(new Promise((resolve, reject) => connect(served.port, '127.0.0.1').on('connect', resolve).on('error', reject))).rejects.toThrow();
  });

  it('resolves to the error when the port is taken', async () => {
    const taken = await front();
    const again = await openFront('127.0.0.1', taken.port, { answers: true });
    expect('error' in again && (again.error as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  });
});

describe('frontArguments', () => {
  it.each([
    [[], { host: '127.0.0.1', port: 8080, tls: false }],
    [['--port', '0', '--processes', '2'], { host: '127.0.0.1', port: 0, tls: false }],
    [['--host=0.0.0.0', '--port=9000', '--port', '9001'], { host: '0.0.0.0', port: 9001, tls: false }],
    [['--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--port', '8443'], { host: '127.0.0.1', port: 8443, tls: true }],
    [['--definitions', 'defs', '--host', '::1'], { host: '::1', port: 8080, tls: false }],
  ])('reads %j', (args, expected) => {
    expect(frontArguments(args)).toEqual(expected);
  });

  it.each([[['--help']], [['-h']], [['--port']], [['--port', 'http']], [['--port', '70000']], [['--port', '-1']], [['--', '--port', '1']]])(
    'leaves %j to the CLI',
    (args) => {
      expect(frontArguments(args)).toBeUndefined();
    },
  );
});
