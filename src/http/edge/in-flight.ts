import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Answerable } from '../respond.js';
import type { TaskControl } from '../work/task.js';

/** Where a request stood when its deadline passed. */
export type Expiry = 'receiving' | 'queued' | 'running' | 'waiting';

/** When requests held before they were followed arrived (see {@link markArrival}). */
const arrivals = new WeakMap<IncomingMessage, number>();

/**
 * Remembers that `req` arrived now, for a request held before the edge follows it (while express
 * loads, early-listener.ts): its deadline then counts from its arrival, not from when it was followed.
 * Returns the time of its arrival.
 */
export function markArrival(req: IncomingMessage): number {
  let at = arrivals.get(req);
  if (at === undefined) {
    at = performance.now();
    arrivals.set(req, at);
  }
  return at;
}

/**
 * One request from its arrival until its answer is out and its work has ended (a task keeps
 * running after its client leaves, so it stays here, and in its admission slot, until the task
 * ends or its deadline cancels it). The edge, the deadlines and the routes share it.
 */
export class InFlightRequest {
  /** When the request arrived (its headers were read), on the `performance.now()` clock. */
  readonly arrivedAt: number;
  /** Where the request stood when its deadline passed; undefined while it has not. */
  expired: Expiry | undefined;
  /** When the answer was first seen going out, for the send timeout. */
  sendingSince: number | undefined;
  /** True when the answer was cut because the client did not read it within the send timeout. */
  cutBySendTimeout = false;
  /** True once the whole answer has been handed to the connection, which was still open then. */
  delivered = false;
  private task: { controller: AbortController; started: Int32Array } | undefined;
  private answered = false;
  private readonly whenClosed: (() => void)[] = [];
  private readonly whenDone: (() => void)[] = [];

  /**
   * `path` is the request's path without its query (what the access log and the deadline
   * exemptions read); `route` the path template it was routed to, when known before it is
   * answered (express tells its own at the end, on the request).
   */
  constructor(
    readonly req: IncomingMessage,
    readonly res: Answerable,
    readonly path: string,
    readonly route?: string,
  ) {
    this.arrivedAt = arrivals.get(req) ?? performance.now();
    // Node also emits 'finish' when the connection was destroyed under an answer still being
    // written; only a finish on a live connection is a delivery. Listened to before Node's own
    // listener, which may close the connection right after the last answer. Both events come
    // once, and close() runs once.
    res.prependListener('finish', () => {
      this.delivered = !this.cutBySendTimeout && !req.socket.destroyed;
    });
    res.on('close', () => this.close());
    // A response queued behind another on a pipelining connection never emits 'close' when the
    // connection goes away; the connection's own 'close' covers it.
    openOn(req.socket).add(this);
  }

  /** True once the response has closed (answered, or the client left). */
  get isClosed(): boolean {
    return this.answered;
  }

  /** Starts following the task handed to a worker for this request. */
  beginTask(): TaskControl {
    const controller = new AbortController();
    const started = new Int32Array(new SharedArrayBuffer(4));
    this.task = { controller, started };
    return { signal: controller.signal, started };
  }

  /** The task has ended, whatever its outcome. */
  endTask(): void {
    this.task = undefined;
    this.settle();
  }

  /**
   * The deadline has passed: cancels the task (when there is one) and remembers whether it was
   * still queued or already running, which decides the answer.
   */
  expire(): Expiry {
    if (this.task) {
      this.expired = Atomics.load(this.task.started, 0) === 1 ? 'running' : 'queued';
      this.task.controller.abort(new Error('the request deadline passed'));
    } else {
      this.expired = this.req.complete ? 'waiting' : 'receiving';
    }
    return this.expired;
  }

  /** Calls `listener` once, when the response has closed (answered, or the client left). */
  onClose(listener: () => void): void {
    this.whenClosed.push(listener);
  }

  /** Calls `listener` once, when the response has closed and no task is left running for it. */
  onDone(listener: () => void): void {
    this.whenDone.push(listener);
  }

  /** The request's connection has closed. */
  connectionClosed(): void {
    this.close();
  }

  private close(): void {
    if (this.answered) return;
    this.answered = true;
    // A client that leaves frees the queue at once; a running task ends by itself or at its deadline.
    if (this.task && Atomics.load(this.task.started, 0) === 0) this.task.controller.abort(new Error('the client closed the connection'));
    for (const listener of this.whenClosed.splice(0)) listener();
    this.settle();
  }

  private settle(): void {
    if (!this.answered || this.task) return;
    openRecords.get(this.req.socket)?.delete(this);
    for (const listener of this.whenDone.splice(0)) listener();
  }
}

// The records not yet done on each connection, closed together when it closes: one listener per
// connection rather than one added and removed per request.
const openRecords = new WeakMap<Socket, Set<InFlightRequest>>();

function openOn(socket: Socket): Set<InFlightRequest> {
  let open = openRecords.get(socket);
  if (!open) {
    const records = new Set<InFlightRequest>();
    openRecords.set(socket, records);
    socket.once('close', () => {
      for (const record of [...records]) record.connectionClosed();
    });
    open = records;
  }
  return open;
}

/** The in-flight record the edge gave a request. */
export function inFlightOf(res: Answerable): InFlightRequest {
  const record = res.locals['inFlight'];
  if (!(record instanceof InFlightRequest)) throw new Error('the request did not pass through the edge');
  return record;
}
