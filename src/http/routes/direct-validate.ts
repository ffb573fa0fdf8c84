import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Admission } from '../edge/admission.js';
import { answerError } from '../edge/answer-error.js';
import type { Edge } from '../edge/edge.js';
import type { InFlightRequest } from '../edge/in-flight.js';
import type { Logger } from '../logger.js';
import { HttpProblem } from '../problem.js';
import { type BodyKind, mediaTypeReader } from '../read-body.js';
import { type Answerable, isAnswered } from '../respond.js';
import type { ServedAnswer, VersionOptions, WorkTask } from '../work/task.js';
import { runWork, sendWorkAnswer, type WorkRouteOptions } from './work.js';

/** What the direct route shares with the express app it stands in front of. */
export interface DirectValidateOptions {
  edge: Edge;
  admission: Admission;
  work: WorkRouteOptions;
  logger: Logger;
  versions: VersionOptions;
}

/** The route answered directly, as express routes it (case-sensitive, strict). */
const VALIDATE_PATH = '/v1/validate';
const VALIDATE_WITH_QUERY = `${VALIDATE_PATH}?`;
const PLAIN_LENGTH = /^\d+$/;

/**
 * The service's request listener: `POST /v1/validate` with an ordinary request (a `Content-Type`
 * it accepts, a `Content-Length` within the body limit, no `Content-Encoding` or
 * `Transfer-Encoding`, the service not draining) is answered here on node:http alone, and every
 * other request goes to `fallback`, the express app, which answers it as it always has. The
 * answers are the same byte for byte (status, headers, body, problems); the access log, the
 * metrics, the deadlines and the admission limit follow the request as they follow the express
 * routes. What this route leaves out is express's routing and body reading, and, for a body the
 * runner judges inline, every promise between the last byte read and the answer.
 */
export function directValidate(options: DirectValidateOptions, fallback: RequestListener): RequestListener {
  const { edge, admission, work } = options;
  const { limits } = work;
  const kindOf = mediaTypeReader(['json', 'yaml']);
  const refusal = () =>
    new HttpProblem(503, `the service is handling ${limits.maxConcurrentRequests} requests at once, its limit; retry shortly`, { 'Retry-After': '1' });

  return (req, res) => {
    const kind = ordinaryValidation(req, limits.maxBodyBytes, kindOf);
    if (kind === undefined || edge.draining()) return fallback(req, res);
    const answerable = res as ServerResponse & Partial<Answerable>;
    answerable.locals = Object.create(null) as Record<string, unknown>;
    const record = edge.follow(req, answerable as Answerable, VALIDATE_PATH, VALIDATE_PATH);
    const fail = (err: unknown) => answerError(err, { req, res: record.res, path: VALIDATE_PATH, logger: options.logger, limits });
    if (!admission.tryAdmit(record)) return fail(refusal());
    readWhole(req, (body) => {
      if (body === undefined) return fail({ type: 'request.aborted' });
      // Answered already (the deadline passed while the body arrived) or the client has left.
      if (record.isClosed || isAnswered(record.res)) return;
      judge(record, { kind: 'validate', bodyKind: kind, body, versions: options.versions }, work, fail);
    });
  };
}

/** The kind of body of a `POST /v1/validate` the direct route answers; undefined for any other request. */
function ordinaryValidation(req: IncomingMessage, maxBytes: number, kindOf: (header: string | undefined) => BodyKind | HttpProblem): BodyKind | undefined {
  if (req.method !== 'POST') return undefined;
  const url = req.url;
  if (url !== VALIDATE_PATH && !url?.startsWith(VALIDATE_WITH_QUERY)) return undefined;
  const headers = req.headers;
  const declared = headers['content-length'];
  if (declared === undefined || !PLAIN_LENGTH.test(declared) || Number(declared) > maxBytes) return undefined;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return undefined;
  const kind = kindOf(headers['content-type']);
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
function judge(record: InFlightRequest, task: WorkTask, work: WorkRouteOptions, fail: (err: unknown) => void): void {
  let answer: ServedAnswer | undefined;
  try {
    answer = work.state.runner.judgeInline?.(task);
    if (answer) sendWorkAnswer(work.metrics, record, answer);
  } catch (err) {
    fail(err);
    return;
  }
  if (answer) return;
  runWork(work, record, task)
    .then((ran) => {
      if (ran) sendWorkAnswer(work.metrics, record, ran);
    })
    .catch(fail);
}
