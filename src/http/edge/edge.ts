import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log-lines.js';
import type { ServiceMetrics } from '../metrics.js';
import type { Answerable } from '../respond.js';
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

/** The service's edge: the express handler every request passes first, and the same following for the routes answered before express. */
export interface Edge {
  handler: RequestHandler;
  /**
   * Follows a request answered outside express (edge/direct-routes.ts) as {@link Edge.handler}
   * follows the others: `path` without its query, `route` the template it is counted under.
   */
  follow(req: IncomingMessage, res: Answerable, path: string, route: string): InFlightRequest;
  /** Whether shutdown has begun. */
  draining(): boolean;
  /** The ids of the requests in flight. */
  requestIds(): string[];
}

/**
 * The first handler of every request: gives it an id, follows it until its answer is out and
 * its work has ended (for the deadlines and the in-flight gauge), closes its connection after its
 * last answer once shutdown has begun, and logs and counts it when its response closes.
 * Admission (the concurrency limit) is per route, after routing. `requestIds` lists the
 * requests in flight.
 */
export function edge(options: EdgeOptions): Edge {
  const { logger, metrics, state, limits } = options;
  const inFlight = new Set<InFlightRequest>();
  metrics.countInFlightWith(() => inFlight.size);
  watchDeadlines(inFlight, { limits, exempt: options.noDeadline });
  const draining = () => state.isDraining;
  const access = { logger, metrics };

  const follow = (req: IncomingMessage, res: Answerable, path: string, route?: string): InFlightRequest => {
    const requestId = assignRequestId(req, res);
    const record = new InFlightRequest(req, res, path, route);
    res.locals['inFlight'] = record;
    inFlight.add(record);
    record.onDone(() => inFlight.delete(record));
    closeAfterLastAnswer(req, res, draining);
    logAccess(record, requestId, access);
    return record;
  };

  const handler: RequestHandler = (req: Request, res, next) => {
    follow(req, res, req.path);
    // While draining, a request is handled once the event loop has parsed what arrived with it:
    // a pipelined request behind it is then known, and this answer does not close the connection
    // before that one is answered (an immediate refusal would otherwise be the last answer).
    if (draining()) setImmediate(next);
    else next();
  };
  return { handler, follow, draining, requestIds: () => [...inFlight].map((record) => String(record.res.locals['requestId'])) };
}
