import type { PluginRef } from '../../catalogue/load-plugins.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { ServedLockfile } from '../../operations/served-catalogue.js';
import type { RegistrySummary, WorkTask } from './task.js';

/** What every worker of a pool is started with: the same plugins and definition bytes, so all build the same catalogue. */
export interface WorkerSetup {
  /** Plugin specifiers, resolved from `cwd` as `--plugin` is (or from the config file's folder). */
  plugins: readonly PluginRef[];
  cwd: string;
  /** The definition files the main thread read, named as they are shown in diagnostics. */
  definitions: readonly { file: string; content: Uint8Array }[];
  /** The lockfile the service serves (`--lockfile`), as the main thread read it. */
  lockfile?: ServedLockfile | undefined;
  /**
   * Shared by the pool's workers: `[0]` counts the workers that started, `[1]` becomes 1 once the
   * first has loaded. Every worker but the first waits for it before loading.
   */
  startGate?: Int32Array;
}

/** What a worker reports once it has loaded (before it takes any task). */
export interface WorkerReport {
  threadId: number;
  /** False when a plugin was refused or a definition has an error: the pool is not used. */
  ok: boolean;
  registry: RegistrySummary;
  /** Problems in the definitions (errors when not ok, else warnings), or the plugin refusal as a `usage` diagnostic. */
  diagnostics: Diagnostic[];
}

/** The key under which a worker posts its {@link WorkerReport} to the pool. */
export const WORKER_REPORT = 'kurelWorkerLoaded';

/** One task as posted to a worker: the work, and the flag the worker raises when it begins. */
export interface PostedTask {
  task: WorkTask;
  started: Int32Array;
}
