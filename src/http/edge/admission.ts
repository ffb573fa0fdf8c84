import type { RequestHandler } from 'express';
import { HttpProblem } from '../problem.js';
import type { ServiceLimits } from '../service-limits.js';
import { inFlightOf } from './in-flight.js';

/**
 * Admits at most `maxConcurrentRequests` requests at once across the routes it is put on (the
 * ones whose work runs in the pool, so running or queued); beyond that, 503 with `Retry-After:
 * 1`. It sits on each route rather than at the edge, so a refusal is counted under its route. A
 * slot is held until the answer is out and the request's task has ended.
 */
export function admission(limits: Pick<ServiceLimits, 'maxConcurrentRequests'>): RequestHandler {
  let admitted = 0;
  return (_req, res, next) => {
    if (admitted >= limits.maxConcurrentRequests) {
      throw new HttpProblem(503, `the service is handling ${limits.maxConcurrentRequests} requests at once, its limit; retry shortly`, { 'Retry-After': '1' });
    }
    admitted += 1;
    inFlightOf(res).onDone(() => {
      admitted -= 1;
    });
    next();
  };
}
