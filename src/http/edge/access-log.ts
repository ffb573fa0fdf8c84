import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log-lines.js';
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
    const method = req.method !== undefined && METHODS.has(req.method) ? req.method : 'OTHER';
    const route = record.route ?? routeOf(req);
    const delivered = record.delivered;
    options.metrics.requests.inc({ method, route, status: delivered ? String(res.statusCode) : 'aborted' });
    options.metrics.duration.observe({ method, route }, seconds);
    const status = res.statusCode;
    let level: 'debug' | 'info' | 'warn' | 'error' = 'debug';
    let message = 'request';
    if (!delivered) {
      level = record.cutBySendTimeout ? 'warn' : 'info';
      if (record.cutBySendTimeout) message = 'answer cut: the client did not read it within the send timeout';
    } else if (status === 503) level = 'warn';
    else if (status >= 500) level = 'error';
    else if (status >= 400) level = 'info';
    // A line at a level the logger leaves out is not even built (most answers are 2xx, at debug).
    if (!options.logger.isLevelEnabled(level)) return;
    const line = {
      requestId,
      method,
      path: record.path,
      route,
      ...(res.headersSent ? { status } : {}),
      durationMs: Math.round(seconds * 1e6) / 1e3,
      ...(delivered ? {} : { aborted: true, cause: record.cutBySendTimeout ? 'send-timeout' : 'client-closed' }),
    };
    options.logger[level](line, message);
  });
}

// The path template keeps the label set small: /v1/capabilities/:type, never each type.
function routeOf(req: IncomingMessage): string {
  const route = (req as IncomingMessage & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}
