import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

export { type FrontArguments, frontArguments } from './front-arguments.js';

/** Where the front hands a connection: a serving process that takes requests. */
export interface Taker {
  /** Sends `socket` to the process; `done` gets an error when it could not be sent. */
  take(socket: Socket, done: (err: Error | null) => void): void;
}

/**
 * The supervisor's listening socket, open for the service's whole life (docs/service.md
 * "Processes and the supervisor"): it accepts every connection and hands it to a serving process
 * that takes requests, in turn. While none does (the service is starting, or its only process is
 * being replaced) it answers on plain HTTP itself: `GET /healthz` 200, `GET /readyz` 503
 * `starting` (`HEAD` of each alike), anything else 503 with `Retry-After: 1`, each on a connection it then closes, so the
 * client's next connection reaches a serving process. Over TLS it cannot answer: connections wait
 * for a serving process instead, at most {@link MAX_WAITING} of them.
 */
export interface Front {
  /** The address it listens on, `host:port` (IPv6 in brackets). */
  readonly address: string;
  readonly port: number;
  /** Puts a process in the rotation; connections waiting go to it at once. */
  add(id: number, taker: Taker): void;
  /** Takes a process out of the rotation (it stopped, ended or is draining). */
  remove(id: number): void;
  /**
   * Hands `socket`, accepted here with nothing of it read, to the next process in the rotation, or
   * answers or holds it as while none takes requests (a connection sent to a process that ended
   * before it had it).
   */
  handOver(socket: Socket): void;
  /** Serving processes in the rotation. */
  readonly takers: number;
  /** Keeps the process running while the front listens (an early front does not, until taken). */
  ref(): void;
  /**
   * Closes the listening socket (no new connection is accepted). A connection it answers itself
   * that has begun its request still gets its answer (`/readyz` then says `draining`); one that
   * has sent nothing closes once quiet, and one held for a process over TLS closes at once.
   * Resolves once every connection it holds has closed.
   */
  close(): Promise<void>;
}

/** Connections held while no serving process takes requests over TLS; more are closed at once. */
export const MAX_WAITING = 512;

/** How long a connection the front answers itself may take to send its request. */
const HEADERS_TIMEOUT_MS = 5_000;

/** How long a connection that has sent nothing may stay once the front closes (as a serving process's, docs/service.md "Signals"). */
const QUIET_MS = 250;

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** A client's request id the service keeps, as a serving process's edge does (docs/service.md). */
const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The front's own answers, while no serving process takes requests (`draining` once it closes),
 * each with its request id as every answer of the service has. `HEAD` is answered wherever `GET`
 * is, with the same status and headers and no body (Node leaves the body out of an answer to `HEAD`).
 */
function answerStarting(req: IncomingMessage, res: ServerResponse, draining: boolean): void {
  const path = (req.url ?? '').split('?')[0];
  const probe = req.method === 'GET' || req.method === 'HEAD';
  const requestId = requestIdOf(req);
  const headers = { 'X-Request-Id': requestId };
  // One answer per connection: a keep-alive client must come back through the rotation.
  res.shouldKeepAlive = false;
  if (probe && path === '/healthz') send(res, 200, JSON_TYPE, '{"status":"ok"}', headers);
  else if (probe && path === '/readyz') send(res, 503, JSON_TYPE, draining ? '{"status":"draining"}' : '{"status":"starting"}', headers);
  else {
    const problem = { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the service is starting; retry shortly', requestId };
    send(res, 503, PROBLEM_TYPE, JSON.stringify(problem), { 'Retry-After': '1', ...headers });
  }
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...headers }).end(body);
}

/**
 * Listens on `host:port` (0 picks a free port) with node:net and node:http alone, so it answers
 * as soon as the supervisor runs; `answers: false` (TLS) holds connections instead of answering.
 * Resolves to the front, or to the error that kept it from listening.
 */
export function openFront(host: string, port: number, options: { answers: boolean; unref?: boolean }): Promise<Front | { error: Error }> {
  // Paused, so no byte of a request is read here before the connection is handed over.
  const server: Server = createServer({ pauseOnConnect: true, noDelay: true });
  const answering = options.answers ? createHttpServer((req, res) => answerStarting(req, res, closed)) : undefined;
  const order: number[] = [];
  const takers = new Map<number, Taker>();
  const waiting: Socket[] = [];
  const held = new Set<Socket>();
  let next = 0;
  let closed = false;

  const hold = (socket: Socket) => {
    if (closed) return void socket.destroy();
    if (answering) {
      held.add(socket);
      socket.once('close', () => held.delete(socket));
      // This server never listens, so Node's header time-outs do not cover it: a connection that
      // sends nothing is closed after the headers limit of the service (docs/service.md).
      socket.setTimeout(HEADERS_TIMEOUT_MS, () => socket.destroy());
      answering.emit('connection', socket);
      socket.resume();
    } else if (waiting.length < MAX_WAITING) {
      waiting.push(socket);
      socket.once('close', () => {
        const at = waiting.indexOf(socket);
        if (at >= 0) waiting.splice(at, 1);
      });
    } else socket.destroy();
  };
  const closeIfSilent = (socket: Socket) => {
    if (socket.bytesRead > 0) return;
    setTimeout(() => {
      // After the event loop has read what is waiting on the socket: bytes that came meanwhile count.
      setImmediate(() => {
        if (socket.bytesRead === 0) socket.destroy();
      });
    }, QUIET_MS).unref();
  };
  const handOver = (socket: Socket, tried = 0) => {
    if (order.length === 0 || tried >= order.length) return hold(socket);
    next = (next + 1) % order.length;
    const taker = takers.get(order[next]!)!;
    taker.take(socket, (err) => {
      // A process that ended meanwhile: the next one, or the front's own answer.
      if (err && !socket.destroyed) handOver(socket, tried + 1);
    });
  };
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => socket.destroy());
    handOver(socket);
  });

  return new Promise((resolve) => {
    server.once('error', (error) => resolve({ error }));
    if (options.unref) server.unref();
    server.listen({ host, port }, () => {
      server.removeAllListeners('error');
      server.on('error', () => undefined);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        address: `${shown}:${address.port}`,
        port: address.port,
        add(id, taker) {
          if (!takers.has(id)) order.push(id);
          takers.set(id, taker);
          for (const socket of waiting.splice(0)) handOver(socket);
        },
        remove(id) {
          if (!takers.delete(id)) return;
          order.splice(order.indexOf(id), 1);
        },
        handOver(socket) {
          handOver(socket);
        },
        get takers() {
          return order.length;
        },
        ref() {
          server.ref();
        },
        close() {
          closed = true;
          // Held for a process that will not come: nothing of them was read, nothing can answer them.
          for (const socket of waiting.splice(0)) socket.destroy();
          // A request whose first byte arrived before the drain is answered (docs/service.md
          // "Signals"): only a connection still silent once quiet is closed. The one answer per
          // connection, or the headers limit, closes the others; the listening socket's close
          // waits for them.
          for (const socket of held) closeIfSilent(socket);
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
