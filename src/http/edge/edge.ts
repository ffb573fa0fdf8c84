import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import type { ServiceMetrics } from '../metrics.js';
import type { ServiceLimits } from '../service-limits.js';
import type { ServiceState } from '../service-state.js';
import { logAccess } from './access-log.js';
import { watchDeadlines } from './deadlines.js';
import { InFlightRequest } from './in-flight.js';
import { closeAfterLastAnswer } from './last-answer.js';
import { assignRequestId } from './request-id.js';

/** What the edge of the service needs. */
export interface EdgeOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  state: ServiceState;
  limits: ServiceLimits;
  /** Paths without a request deadline (see {@link watchDeadlines}). */
  noDeadline: ReadonlySet<string>;
}

/**
 * The first handler of every request: gives it an id, follows it until its answer is out and
 * its work has ended (for the deadlines and the in-flight gauge), closes its connection after its
 * last answer once shutdown has begun, and logs and counts it when its response closes.
 * Admission (the concurrency limit) is per route, after routing. `requestIds` lists the
 * requests in flight.
 */
export function edge(options: EdgeOptions): { handler: RequestHandler; requestIds(): string[] } {
  const { logger, metrics, state, limits } = options;
  const inFlight = new Set<InFlightRequest>();
  metrics.countInFlightWith(() => inFlight.size);
  watchDeadlines(inFlight, { limits, exempt: options.noDeadline });
  const draining = () => state.isDraining;

  const handler: RequestHandler = (req, res, next) => {
    const requestId = assignRequestId(req, res);
    const record = new InFlightRequest(req, res);
    res.locals['inFlight'] = record;
    inFlight.add(record);
    record.onDone(() => inFlight.delete(record));
    closeAfterLastAnswer(req, res, draining);
    logAccess(record, requestId, { logger, metrics });
    // While draining, a request is handled once the event loop has parsed what arrived with it:
    // a pipelined request behind it is then known, and this answer does not close the connection
    // before that one is answered (an immediate refusal would otherwise be the last answer).
    if (draining()) setImmediate(next);
    else next();
  };
  return { handler, requestIds: () => [...inFlight].map((record) => String(record.res.locals['requestId'])) };
}
