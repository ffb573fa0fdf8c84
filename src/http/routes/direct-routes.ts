import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type Admission, admissionRefusal } from '../edge/admission.js';
import { answerError } from '../edge/answer-error.js';
import type { Edge } from '../edge/edge.js';
import type { InFlightRequest } from '../edge/in-flight.js';
import type { Logger } from '../log-lines.js';
import { HttpProblem } from '../problem.js';
import { type BodyKind, mediaTypeReader } from '../request-body.js';
import { type Answerable, isAnswered } from '../respond.js';
import type { ServedAnswer, WorkAnswer, WorkTask } from '../work/task.js';
import { runWork, sendWorkAnswer, type WorkRouteOptions } from './work.js';

/** What the direct routes share with the express app they stand in front of. */
export interface DirectRoutesOptions {
  edge: Edge;
  admission: Admission;
  work: WorkRouteOptions;
  logger: Logger;
}

/** A `POST` route answered before express: the same path, media types, body limit and task as its express route. */
export interface DirectRoute {
  /** The path, exactly as express routes it (case-sensitive, strict). */
  path: string;
  /** The kinds of body it accepts. */
  accepted: readonly BodyKind[];
  /** Its body limit in bytes. */
  maxBytes: number;
  /** The task for a body of `kind`. */
  task(kind: BodyKind, body: Buffer): WorkTask;
  /** Turns a failed task's problem into an answer, from the body as read (see `reviewOfFailure`). */
  answerFailure?: (problem: HttpProblem, body: Buffer) => WorkAnswer | undefined;
}

interface PreparedRoute extends DirectRoute {
  withQuery: string;
  kindOf(header: string | undefined): BodyKind | HttpProblem;
}

const PLAIN_LENGTH = /^\d+$/;

/**
 * The service's request listener: a `POST` to one of `routes` with an ordinary request (a
 * `Content-Type` the route accepts, a `Content-Length` within its body limit, no
 * `Content-Encoding` or `Transfer-Encoding`, the service not draining) is answered here on
 * node:http alone, and every other request goes to `fallback`, the express app, which answers
 * it as it always has. The answers are the same byte for byte (status, headers, body, problems);
 * the access log, the metrics, the deadlines and the admission limit follow the request as they
 * follow the express routes. What these routes leave out is express's routing and body reading,
 * and, for a body the runner judges inline, every promise between the last byte read and the
 * answer.
 */
export function directRoutes(options: DirectRoutesOptions, routes: readonly DirectRoute[], fallback: RequestListener): RequestListener {
  const { edge, admission, work } = options;
  const { limits } = work;
  const prepared: PreparedRoute[] = routes.map((route) => ({ ...route, withQuery: `${route.path}?`, kindOf: mediaTypeReader(route.accepted) }));

  return (req, res) => {
    const route = req.method === 'POST' ? routeOf(prepared, req.url) : undefined;
    const kind = route && ordinaryBody(req, route);
    if (route === undefined || kind === undefined || edge.draining()) return fallback(req, res);
    const answerable = res as ServerResponse & Partial<Answerable>;
    answerable.locals = Object.create(null) as Record<string, unknown>;
    const record = edge.follow(req, answerable as Answerable, route.path, route.path);
    const fail = (err: unknown) => answerError(err, { req, res: record.res, path: route.path, logger: options.logger, limits });
    if (!admission.tryAdmit(record)) return fail(admissionRefusal(limits));
    readWhole(req, (body) => {
      if (body === undefined) return fail({ type: 'request.aborted' });
      // Answered already (the deadline passed while the body arrived) or the client has left.
      if (record.isClosed || isAnswered(record.res)) return;
      const answerFailure = route.answerFailure;
      judge(record, route.task(kind, body), work, fail, answerFailure && ((problem) => answerFailure(problem, body)));
    });
  };
}

function routeOf(routes: readonly PreparedRoute[], url: string | undefined): PreparedRoute | undefined {
  if (url === undefined) return undefined;
  for (const route of routes) if (url === route.path || url.startsWith(route.withQuery)) return route;
  return undefined;
}

/** The kind of an ordinary body for `route`; undefined when express is to read the request. */
function ordinaryBody(req: IncomingMessage, route: PreparedRoute): BodyKind | undefined {
  const headers = req.headers;
  const declared = headers['content-length'];
  if (declared === undefined || !PLAIN_LENGTH.test(declared) || Number(declared) > route.maxBytes) return undefined;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return undefined;
  const kind = route.kindOf(headers['content-type']);
  return kind instanceof HttpProblem ? undefined : kind;
}

/** Reads the whole body (its length was checked against the limit) and calls `done` with it, or with nothing when the client left first. */
function readWhole(req: IncomingMessage, done: (body: Buffer | undefined) => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  req.on('data', (chunk: Buffer) => {
    if (first === undefined) first = chunk;
    else {
      more ??= [first];
      more.push(chunk);
    }
  });
  req.once('end', () => done(more ? Buffer.concat(more) : (first ?? Buffer.alloc(0))));
  // A request cut short closes incomplete (node emits its 'error' only to a listener, and none is needed).
  req.once('close', () => {
    if (!req.complete) done(undefined);
  });
}

/** Judges the task inline when the runner does so (answered in the same turn) and in the runner otherwise. */
function judge(
  record: InFlightRequest,
  task: WorkTask,
  work: WorkRouteOptions,
  fail: (err: unknown) => void,
  answerFailure: ((problem: HttpProblem) => WorkAnswer | undefined) | undefined,
): void {
  let answer: ServedAnswer | undefined;
  try {
    answer = work.state.runner.judgeInline?.(task);
    if (answer) sendWorkAnswer(work.metrics, record, answer);
  } catch (err) {
    fail(err);
    return;
  }
  if (answer) return;
  runWork(work, record, task, answerFailure)
    .then((ran) => {
      if (ran) sendWorkAnswer(work.metrics, record, ran);
    })
    .catch(fail);
}
