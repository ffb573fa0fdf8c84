import type { RequestHandler } from 'express';
import { HttpProblem } from '../problem.js';
import type { ServiceLimits } from '../service-limits.js';
import { type InFlightRequest, inFlightOf } from './in-flight.js';

/** The service's concurrency limit, shared by the routes whose work runs in the pool. */
export interface Admission {
  /** The express handler that admits a request or refuses it with 503. */
  handler: RequestHandler;
  /** Admits the request `record` follows when a slot is free (held until it is done); false when none is. */
  tryAdmit(record: InFlightRequest): boolean;
}

/** The 503 a request gets when every slot is taken. */
export function admissionRefusal(limits: Pick<ServiceLimits, 'maxConcurrentRequests'>): HttpProblem {
  return new HttpProblem(503, `the service is handling ${limits.maxConcurrentRequests} requests at once, its limit; retry shortly`, { 'Retry-After': '1' });
}

/**
 * Admits at most `maxConcurrentRequests` requests at once across the routes it is put on (the
 * ones whose work runs in the pool, so running or queued); beyond that, 503 with `Retry-After:
 * 1`. It sits on each route rather than at the edge, so a refusal is counted under its route. A
 * slot is held until the answer is out and the request's task has ended.
 */
export function admission(limits: Pick<ServiceLimits, 'maxConcurrentRequests'>): Admission {
  let admitted = 0;
  const release = () => {
    admitted -= 1;
  };
  const tryAdmit = (record: InFlightRequest): boolean => {
    if (admitted >= limits.maxConcurrentRequests) return false;
    admitted += 1;
    record.onDone(release);
    return true;
  };
  const handler: RequestHandler = (_req, res, next) => {
    if (!tryAdmit(inFlightOf(res))) throw admissionRefusal(limits);
    next();
  };
  return { handler, tryAdmit };
}
