import type { Request } from 'express';
import type { Logger } from '../logger.js';
import type { ServiceMetrics } from '../metrics.js';
import type { InFlightRequest } from './in-flight.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Once a request's response has closed, records it in the metrics and logs one line. An answer
 * not delivered in full (the client left, or did not read it within the send timeout) is counted
 * with the status `aborted`, never with the status it was going to have. Levels: `debug` for a
 * 2xx or 3xx answer (the metrics count them; a line each would cost a busy service more than the
 * validation), `info` for 4xx and for a client that left, `warn` for 503 (overload and
 * deadlines: the client's load, not a fault) and for an answer cut by the send timeout, `error`
 * for any other 5xx.
 */
export function logAccess(record: InFlightRequest, requestId: string, options: { logger: Logger; metrics: ServiceMetrics }): void {
  const { req, res } = record;
  record.onClose(() => {
    const seconds = (performance.now() - record.arrivedAt) / 1000;
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    const route = routeOf(req);
    const delivered = record.delivered;
    options.metrics.requests.inc({ method, route, status: delivered ? String(res.statusCode) : 'aborted' });
    options.metrics.duration.observe({ method, route }, seconds);
    const line = {
      requestId,
      method,
      path: req.path,
      route,
      ...(res.headersSent ? { status: res.statusCode } : {}),
      durationMs: Math.round(seconds * 1e6) / 1e3,
      ...(delivered ? {} : { aborted: true, cause: record.cutBySendTimeout ? 'send-timeout' : 'client-closed' }),
    };
    const status = res.statusCode;
    if (!delivered) {
      if (record.cutBySendTimeout) options.logger.warn(line, 'answer cut: the client did not read it within the send timeout');
      else options.logger.info(line, 'request');
    } else if (status === 503) options.logger.warn(line, 'request');
    else if (status >= 500) options.logger.error(line, 'request');
    else if (status >= 400) options.logger.info(line, 'request');
    else options.logger.debug(line, 'request');
  });
}

// The path template keeps the label set small: /v1/capabilities/:type, never each type.
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}
