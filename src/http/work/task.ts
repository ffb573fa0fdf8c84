import type { Diagnostic } from '../../core/diagnostics.js';
import type { SeverityRules } from '../../documents/kurel-config.js';
import type { Platform } from '../../schema/platform-version.js';
import type { BodyKind } from '../request-body.js';

/**
 * The work one request asks for, as it crosses to a worker thread: plain data (structured
 * clone), the body as bytes and query parameters as the router read them (checked by the
 * worker). Everything that reads a document or the catalogue is here; the main thread only
 * routes and answers.
 */
export type WorkTask =
  | { kind: 'validate'; bodyKind: BodyKind; body: Uint8Array; versions: VersionOptions }
  | { kind: 'build'; body: Uint8Array; versions: VersionOptions }
  | { kind: 'admission'; body: Uint8Array; versions: VersionOptions }
  | { kind: 'migrate'; body: Uint8Array; versions: VersionOptions }
  | { kind: 'capabilities' }
  | { kind: 'capability'; type: string; platform?: unknown; version?: unknown }
  | { kind: 'cluster-profile-schema'; platform?: unknown };

/** How the service judges versions in requests (its flags and its `.kurel.yaml`): plain data, to cross to a worker. */
export interface VersionOptions {
  /** `--require-pinned`: a binding of a versioned definition without `version` is an error. */
  requirePinned: boolean;
  /** The config file's `platform`: versions for the components a request's profile does not name. */
  platformDefault?: Platform | undefined;
  /** The config file's severities (its `strictCapabilities` and `severity`), applied to every validation as lint applies them. */
  severity?: SeverityRules | undefined;
}

/** A problem a task found with its request (a body that cannot be decoded, an unknown type). */
export interface WorkProblem {
  status: number;
  detail: string;
  extensions?: Record<string, unknown>;
}

/** The verdict of a validation or a build, counted in `/metrics` by the main thread. */
export interface WorkVerdict {
  operation: 'validate' | 'build' | 'migrate' | 'admission';
  valid: boolean;
}

/** What a task answers: the response, already encoded, or a problem with the request. */
export type WorkAnswer<Body extends Uint8Array | string = Uint8Array> =
  | { status: number; mediaType: string; body: Body; verdict?: WorkVerdict }
  | { problem: WorkProblem };

/**
 * An answer as the serving thread gets it: a worker's bytes (moved to it, not copied), or, for a
 * task judged on the serving thread, the text itself, written out with the headers in one write.
 */
export type ServedAnswer = WorkAnswer<Uint8Array | string>;

/**
 * How the main thread follows one task: `signal` cancels it (a queued task leaves the queue, a
 * running one loses its worker), and the worker sets `started[0]` to 1 when it begins, so a
 * deadline can tell a task still queued from one running.
 */
export interface TaskControl {
  signal: AbortSignal;
  started: Int32Array;
}

/** What the main thread knows of the catalogue a runner judges with (for `/readyz` and `/metrics`). */
export interface RegistrySummary {
  handlers: number;
  definitions: number;
  /** The registry digest (docs/service.md): equal on replicas that serve the same definitions, handlers and kurel. */
  digest: string;
}

/** Whether every worker of a runner has loaded its catalogue, or why one could not. */
export type EveryWorker = { ok: true } | { ok: false; diagnostics: Diagnostic[] };

/** Runs tasks against one catalogue: in worker threads, or on the calling thread for embedding and tests. */
export interface TaskRunner {
  /** The catalogue the tasks are judged with. */
  readonly registry: RegistrySummary;
  /** Settles once every worker has loaded the catalogue (or one could not); tasks are taken before, by the workers loaded. */
  readonly ready: Promise<EveryWorker>;
  /**
   * Judges `task` on the calling thread at once when this runner judges such a task there (a
   * small validation, say): its answer, or undefined when it is for {@link TaskRunner.run}.
   * Throws only on an unexpected failure. Absent: every task goes to `run`.
   */
  judgeInline?(task: WorkTask): ServedAnswer | undefined;
  /** Runs one task; rejects with an `AbortError` when `control.signal` cancels it. */
  run(task: WorkTask, control: TaskControl): Promise<ServedAnswer>;
  /** Stops taking tasks, lets the ones running finish, then frees the threads. */
  close(): Promise<void>;
}
