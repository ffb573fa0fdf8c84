import { connect, type Socket } from 'node:net';

/** What a keep-alive load saw, summed over its connections. */
export interface LoadTally {
  /** Requests written. */
  sent: number;
  /** Complete answers read. */
  answered: number;
  /** Requests written whose connection closed before their answer came: lost. */
  lost: number;
  /** Connections whose last answer said `Connection: close`. */
  closedAfterAnswer: number;
  /** Connections the server closed while no request was outstanding. */
  closedIdle: number;
  /** Connections that have had at least one answer. */
  answeredConnections: number;
  /** Socket errors seen (ECONNRESET, say), by code. */
  errors: string[];
  /** Answer statuses, by status. */
  statuses: Record<number, number>;
}

/** A running load: its tally so far, and the way to end it. */
export interface KeepAliveLoad {
  tally: LoadTally;
  /** Resolves once every connection has closed. */
  done: Promise<LoadTally>;
  /** Sends no more requests and closes each connection once its outstanding answers are in. */
  stop(): void;
}

/**
 * Opens `connections` keep-alive connections to `url` and keeps each busy: it writes `pipeline`
 * requests at once and, as soon as they are all answered, the next ones, until the server says
 * `Connection: close` or the load is stopped. Every request written is either answered or
 * counted as lost.
 */
export function keepAliveLoad(
  url: string,
  options: { connections: number; pipeline?: number; path?: string; method?: string; body?: string; contentType?: string },
): KeepAliveLoad {
  const target = new URL(url);
  const pipeline = options.pipeline ?? 1;
  const body = options.body ?? '';
  const head =
    `${options.method ?? 'GET'} ${options.path ?? '/healthz'} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    (body ? `Content-Type: ${options.contentType ?? 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
    '\r\n';
  const request = head + body;
  const tally: LoadTally = { sent: 0, answered: 0, answeredConnections: 0, lost: 0, closedAfterAnswer: 0, closedIdle: 0, errors: [], statuses: {} };
  let stopped = false;
  const sockets: { socket: Socket; outstanding: () => number }[] = [];
  const closings: Promise<void>[] = [];
  for (let i = 0; i < options.connections; i++) {
    const socket = connect(Number(target.port), target.hostname);
    let outstanding = 0;
    let answers = 0;
    let closing = false;
    let buffered = Buffer.alloc(0);
    const send = () => {
      if (stopped || closing) {
        socket.end();
        return;
      }
      outstanding += pipeline;
      tally.sent += pipeline;
      socket.write(request.repeat(pipeline));
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        const status = Number(headText.slice(9, 12));
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
        if (++answers === 1) tally.answeredConnections += 1;
        tally.answered += 1;
        outstanding -= 1;
        if (/\r\nconnection: *close/i.test(headText)) closing = true;
        if (outstanding === 0) {
          if (closing) tally.closedAfterAnswer += 1;
          send();
        }
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => tally.errors.push(err.code ?? err.message));
    closings.push(
      new Promise((resolve) =>
        socket.on('close', () => {
          if (outstanding > 0) tally.lost += outstanding;
          else if (!closing && !stopped) tally.closedIdle += 1;
          outstanding = 0;
          resolve();
        }),
      ),
    );
    sockets.push({ socket, outstanding: () => outstanding });
  }
  return {
    tally,
    done: Promise.all(closings).then(() => tally),
    stop() {
      stopped = true;
      for (const { socket, outstanding } of sockets) if (outstanding() === 0) socket.end();
    },
  };
}
