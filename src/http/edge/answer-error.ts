import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log-lines.js';
import { HttpProblem, sendProblem } from '../problem.js';
import { type Answerable, isAnswered } from '../respond.js';
import type { ServiceLimits } from '../service-limits.js';

/** Body-reading errors by type (as express's body parsers name them): what the client did and the status that says it. */
const BODY_ERRORS: Readonly<Record<string, (limitBytes: number) => HttpProblem>> = {
  'entity.too.large': (limitBytes) => new HttpProblem(413, `the request body is larger than the limit of ${limitBytes} bytes`, {}, { limitBytes }),
  'encoding.unsupported': () => new HttpProblem(415, 'the Content-Encoding is not supported; send the body as identity, gzip, deflate or br'),
  'request.aborted': () => new HttpProblem(400, 'the request body ended before it was complete'),
  'request.size.invalid': () => new HttpProblem(400, 'the request body does not match its Content-Length'),
};

/** The request an error happened on, and what answering it needs. */
export interface ErrorContext {
  req: IncomingMessage;
  res: Answerable;
  /** The request's path, without its query. */
  path: string;
  logger: Logger;
  limits: ServiceLimits;
}

/**
 * Where errors become answers, for the express routes and the ones answered before express
 * alike: request errors are problems with their status; any other failure is a 500 whose detail
 * never holds a stack (the log has it, under the request id).
 */
export function answerError(err: unknown, context: ErrorContext): void {
  const { req, res, logger } = context;
  if (isAnswered(res)) {
    // Already answered (the deadline): nothing more can be said on this connection once the
    // answer is out; one still waiting for its turn goes out as it is.
    if (res.headersSent) req.socket.destroy();
    return;
  }
  const problem = toProblem(err, context);
  if (problem.status >= 500 && problem.status !== 503) logger.error({ err, requestId: res.locals['requestId'], path: context.path }, 'unexpected failure');
  sendProblem(res, problem);
}

function toProblem(err: unknown, context: ErrorContext): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const known = err as { type?: unknown; status?: unknown; expose?: unknown; limit?: unknown };
  const byType = typeof known?.type === 'string' ? BODY_ERRORS[known.type] : undefined;
  // The body reader says which limit it applied (a route may have a smaller one than the service's).
  if (byType) return byType(typeof known.limit === 'number' ? known.limit : context.limits.maxBodyBytes);
  // The router could not decode a path parameter: a bad percent escape, such as `/v1/capabilities/%`.
  if (err instanceof URIError && known.status === 400) return new HttpProblem(400, `the path ${JSON.stringify(context.path)} holds a malformed percent escape`);
  if (typeof known?.status === 'number' && known.status >= 400 && known.status < 500 && known.expose === true) {
    return new HttpProblem(known.status === 415 ? 415 : 400, 'the request could not be read');
  }
  return new HttpProblem(500, 'an unexpected error occurred; the server log has the details under this request id');
}
