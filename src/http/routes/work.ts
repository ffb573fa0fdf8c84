import type { Request, RequestHandler, Response } from 'express';
import { readReviewIdentity, refuseReview } from '../../operations/admission.js';
import { deadlineProblem } from '../edge/deadlines.js';
import { type InFlightRequest, inFlightOf } from '../edge/in-flight.js';
import type { ServiceMetrics } from '../metrics.js';
import { HttpProblem } from '../problem.js';
import { type BodyKind, bodyBytes } from '../request-body.js';
import { isAnswered, sendBytes, sendText } from '../respond.js';
import type { ServiceLimits } from '../service-limits.js';
import type { ServiceState } from '../service-state.js';
import type { ServedAnswer, VersionOptions, WorkAnswer, WorkTask } from '../work/task.js';

/** What the work routes need. */
export interface WorkRouteOptions {
  state: ServiceState;
  metrics: ServiceMetrics;
  limits: ServiceLimits;
}

/** How a route turns a request into the task a worker does for it. */
export type TaskOf = (req: Request, res: Response) => WorkTask;

/** `POST /v1/validate`: the body as read, YAML or JSON, judged with the service's version options. */
export function validateTask(versions: VersionOptions): TaskOf {
  return (req, res) => ({ kind: 'validate', bodyKind: res.locals['bodyKind'] as BodyKind, body: bodyBytes(req), versions });
}

/** `POST /v1/build`: the JSON envelope as read, judged with the service's version options. */
export function buildTask(versions: VersionOptions): TaskOf {
  return (req) => ({ kind: 'build', body: bodyBytes(req), versions });
}

/** `POST /v1/migrate`: the JSON envelope as read, migrated with the service's version options. */
export function migrateTask(versions: VersionOptions): TaskOf {
  return (req) => ({ kind: 'migrate', body: bodyBytes(req), versions });
}

/**
 * `POST /v1/admission`: the AdmissionReview as read, judged with the service's version options.
 * The worker gets a copy of the bytes (the pool moves a task's bytes to its thread): the request
 * keeps its own, so that a review whose worker is cancelled or runs out of heap is still
 * answered with its uid ({@link reviewOfFailure}), whatever its size.
 */
export function admissionTask(versions: VersionOptions): TaskOf {
  return (req) => ({ kind: 'admission', body: new Uint8Array(bodyBytes(req)), versions });
}

/**
 * A failed admission task still answers the API server with a review (docs/kubernetes.md): once the
 * uid can be read, a deadline is `allowed: false` with `status.code` 503 and a review beyond the
 * worker's memory 413. Read here only on that rare path; a body without a uid keeps the problem.
 */
export function reviewOfFailure(problem: HttpProblem, body: Buffer): WorkAnswer | undefined {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const identity = readReviewIdentity(data);
  if ('problem' in identity) return undefined;
  const answer = refuseReview(identity.uid, problem.status, problem.detail);
  return { status: 200, mediaType: 'application/json', body: new TextEncoder().encode(JSON.stringify(answer)) };
}

/** `GET /v1/capabilities`. */
export const capabilitiesTask: TaskOf = () => ({ kind: 'capabilities' });

/** `GET /v1/capabilities/{type}`, with `?platform=` and `?version=` when given. */
export const capabilityTask: TaskOf = (req) => {
  const version: unknown = req.query['version'];
  return { kind: 'capability', type: String(req.params['type']), ...platformQuery(req), ...(version === undefined ? {} : { version }) };
};

/** `GET /v1/schema/cluster-profile`, with `?platform=` when given. */
export const clusterProfileSchemaTask: TaskOf = (req) => ({ kind: 'cluster-profile-schema', ...platformQuery(req) });

function platformQuery(req: Request): { platform?: unknown } {
  const platform: unknown = req.query['platform'];
  return platform === undefined ? {} : { platform };
}

/**
 * A route whose work runs in the service's runner (the worker pool under `kurel serve`): the
 * request becomes a task, judged by the runner in service when it arrives, and the task's answer
 * is sent as it was encoded. A task the deadline cancelled is a 503, one that ran out of memory
 * a 413 (docs/service.md); validations and builds are counted by verdict.
 */
export function workRoute(
  options: WorkRouteOptions,
  taskOf: TaskOf,
  answerFailure?: (problem: HttpProblem, req: Request) => WorkAnswer | undefined,
): RequestHandler {
  return async (req, res) => {
    const record = inFlightOf(res);
    const answer = await runWork(options, record, taskOf(req, res), answerFailure && ((problem) => answerFailure(problem, req)));
    if (answer) sendWorkAnswer(options.metrics, record, answer);
  };
}

/**
 * Runs `task` for the request `record` follows in the runner in service; resolves to its answer,
 * or to nothing when the client has left. A failure becomes the problem it means (a deadline, a
 * worker out of memory or ended), unless `answerFailure` turns that problem into an answer; any
 * other failure is thrown as it is.
 */
export async function runWork(
  options: WorkRouteOptions,
  record: InFlightRequest,
  task: WorkTask,
  answerFailure?: (problem: HttpProblem) => WorkAnswer | undefined,
): Promise<ServedAnswer | undefined> {
  const runner = options.state.runner;
  let answer: ServedAnswer;
  const control = record.beginTask();
  try {
    answer = await runner.run(task, control);
  } catch (err) {
    // A client that has left needs no answer, whatever became of its task.
    if (record.isClosed) return undefined;
    const failure = failureOf(err, record, options.limits);
    const answered = failure instanceof HttpProblem ? answerFailure?.(failure) : undefined;
    if (!answered || !('status' in answered)) throw failure;
    answer = answered;
  } finally {
    record.endTask();
  }
  return answer;
}

/**
 * Sends a task's answer to the request `record` follows, unless it has been answered (the
 * deadline) or its client has left; a problem the task found is thrown, for the edge to answer.
 */
export function sendWorkAnswer(metrics: ServiceMetrics, record: InFlightRequest, answer: ServedAnswer): void {
  const { res } = record;
  if (record.isClosed || isAnswered(res)) return;
  if ('problem' in answer) throw new HttpProblem(answer.problem.status, answer.problem.detail, {}, answer.problem.extensions);
  if (answer.verdict) metrics.validations.inc({ operation: answer.verdict.operation, verdict: answer.verdict.valid ? 'valid' : 'invalid' });
  if (typeof answer.body === 'string') sendText(res, answer.status, answer.mediaType, answer.body);
  else sendBytes(res, answer.status, answer.mediaType, answer.body);
}

function failureOf(err: unknown, record: InFlightRequest, limits: ServiceLimits): unknown {
  if (record.expired === 'queued' || record.expired === 'running') return deadlineProblem(record.expired, limits.requestTimeoutMs);
  if ((err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new HttpProblem(413, "the document expands beyond the service's memory limit", {}, { limitMiB: limits.workerMemoryMiB });
  }
  // A worker ended under its task (a plugin that kept process.exit from before it was guarded, or
  // ended its thread some other way): the pool replaces it, and an admission review is still answered.
  const exited = err instanceof Error ? WORKER_EXIT.exec(err.message) : null;
  if (exited) return new HttpProblem(500, `the worker judging the request ended (exit code ${exited[1]}) before it answered; it was replaced`);
  return err;
}

// How the pool (piscina) says that a worker thread ended while it ran a task.
const WORKER_EXIT = /^worker exited with code: (-?\d+)$/;
