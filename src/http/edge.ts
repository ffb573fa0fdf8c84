import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ServiceLimits } from './limits.js';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import { HttpProblem, sendProblem } from './problem.js';
import type { ServiceState } from './service-state.js';

const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the edge of the service needs. */
export interface EdgeOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  state: ServiceState;
  limits: ServiceLimits;
  /** Paths never refused by the concurrency limit (probes, metrics), so an overloaded service still reports. */
  exempt: ReadonlySet<string>;
}

interface InFlight {
  req: Request;
  res: Response;
  started: number;
}

/**
 * The first handler of every request, in one pass (each step is per request, so they share one
 * close listener): gives the request an id (the client's `X-Request-Id` when it is a plain
 * token, else a new UUID) and echoes it; once shutdown has begun, closes the connection after
 * the answer; refuses requests beyond the concurrency limit with 503 and `Retry-After`; answers
 * 408 to a request not answered within the time limit (a body arriving too slowly) and closes
 * its connection; and once the answer is out, records the request's metrics and logs one line
 * (at debug for a 2xx or 3xx answer, info for 4xx, error for 5xx).
 */
export function edge(options: EdgeOptions): RequestHandler {
  const { logger, metrics, state, limits, exempt } = options;
  // Records in a set rather than a map keyed by the response, so no response object is made a key.
  const inFlight = new Set<InFlight>();
  let limited = 0;
  metrics.countInFlightWith(() => inFlight.size);
  // One sweep for every request, rather than a timer each; it adds at most a tick to the limit.
  const tick = Math.min(500, Math.max(10, limits.requestTimeoutMs / 10));
  setInterval(() => {
    const now = performance.now();
    for (const { req, res, started } of inFlight) if (now - started > limits.requestTimeoutMs) timeOut(req, res, limits.requestTimeoutMs);
  }, tick).unref();

  return (req, res, next) => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (state.isDraining) res.setHeader('Connection', 'close');
    const isLimited = !exempt.has(req.path);
    const isRefused = isLimited && limited >= limits.maxConcurrentRequests;
    if (isLimited && !isRefused) limited += 1;
    const record: InFlight = { req, res, started };
    inFlight.add(record);
    res.once('close', () => {
      inFlight.delete(record);
      if (isLimited && !isRefused) limited -= 1;
      const seconds = (performance.now() - started) / 1000;
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeOf(req);
      const status = res.statusCode;
      metrics.requests.inc({ method, route, status: String(status) });
      metrics.duration.observe({ method, route }, seconds);
      const line = {
        requestId,
        method,
        path: req.path,
        route,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      // Answers that went well are counted in /metrics; a line each would cost a busy service
      // more than the validation itself, so they log at debug and problems at info or error.
      if (status >= 500) logger.error(line, 'request');
      else if (status >= 400) logger.info(line, 'request');
      else logger.debug(line, 'request');
    });
    if (isRefused) {
      sendProblem(
        res,
        new HttpProblem(503, `the service is handling ${limits.maxConcurrentRequests} requests at once, its limit; retry shortly`, { 'Retry-After': '1' }),
      );
      return;
    }
    next();
  };
}

function timeOut(req: Request, res: Response, ms: number): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.setHeader('Connection', 'close');
  sendProblem(res, new HttpProblem(408, `the request was not complete within the time limit of ${ms} ms`, {}, { limitMs: ms }));
}

// The path template keeps the label set small: /v1/capabilities/:type, never each type.
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}
