import { HttpProblem, sendProblem } from '../problem.js';
import { isAnswered } from '../respond.js';
import type { ServiceLimits } from '../service-limits.js';
import type { InFlightRequest } from './in-flight.js';

/** What the deadlines are checked against. */
export interface DeadlineOptions {
  limits: Pick<ServiceLimits, 'requestTimeoutMs' | 'sendTimeoutMs'>;
  /** Paths without a request deadline (a reload has bounds of its own); their answers still have the send timeout. */
  exempt: ReadonlySet<string>;
}

/**
 * Holds every request in flight to its deadline (docs/service.md), in one sweep rather than a timer
 * each; the sweep adds at most a tick to a limit. From a request's first byte, within
 * `requestTimeoutMs`:
 * - a body still incomplete is answered 408 and its connection closed;
 * - a task still queued or running is cancelled, and its route answers 503 (with `Retry-After:
 *   1` when it never ran: the service was busy; without it when it ran: the request is costly);
 * - anything else not answered yet is answered 503.
 * Once an answer is going out, the deadline no longer applies: an answer the client has not read
 * within `sendTimeoutMs` is cut (the connection closed), and the access log counts it as aborted.
 */
export function watchDeadlines(requests: ReadonlySet<InFlightRequest>, options: DeadlineOptions): void {
  const { limits, exempt } = options;
  const tick = Math.min(100, Math.max(10, Math.min(limits.requestTimeoutMs, limits.sendTimeoutMs) / 20));
  setInterval(() => {
    const now = performance.now();
    for (const record of requests) check(record, now);
  }, tick).unref();

  function check(record: InFlightRequest, now: number): void {
    const { res } = record;
    if (isAnswered(res)) {
      if (record.delivered || record.isClosed || record.cutBySendTimeout) return;
      record.sendingSince ??= now;
      if (now - record.sendingSince > limits.sendTimeoutMs) {
        record.cutBySendTimeout = true;
        res.destroy();
      }
      return;
    }
    if (record.expired !== undefined || exempt.has(record.path) || now - record.arrivedAt <= limits.requestTimeoutMs) return;
    const expiry = record.expire();
    if (record.isClosed) return;
    const ms = limits.requestTimeoutMs;
    if (expiry === 'receiving') {
      res.setHeader('Connection', 'close');
      sendProblem(res, new HttpProblem(408, `the request was not complete within the time limit of ${ms} ms`, {}, { limitMs: ms }));
    } else if (expiry === 'waiting') {
      sendProblem(res, new HttpProblem(503, `the request was not answered within the time limit of ${ms} ms`, {}, { limitMs: ms }));
    }
  }
}

/**
 * The answer to a request whose task the deadline cancelled: 503 with `Retry-After: 1` when the
 * task was still queued (the service was busy), 503 without it when it was running (the request
 * itself is too costly; sent again it would fail again).
 */
export function deadlineProblem(expiry: 'queued' | 'running', ms: number): HttpProblem {
  if (expiry === 'queued') {
    return new HttpProblem(
      503,
      `the request waited for a free worker beyond the time limit of ${ms} ms; retry shortly`,
      { 'Retry-After': '1' },
      { limitMs: ms },
    );
  }
  return new HttpProblem(
    503,
    `the request was still being processed when the time limit of ${ms} ms passed, so its work was cancelled; the same request would take as long again`,
    {},
    { limitMs: ms },
  );
}
