import { join } from 'node:path';
import type { PluginRef } from '../../catalogue/load-plugins.js';
import { packageRoot } from '../../files/package-files.js';
import { assembleServedCatalogue, type ServedCatalogue } from '../../operations/served-catalogue.js';
import { readServedDefinitions, type ServedDefinitions, type ServedSources } from '../../sources/served-definitions.js';
import type { RunnerLoader } from '../service-state.js';
import { runnerBeforeThePool } from './early-runner.js';
import type { PoolLog, PoolStart } from './pool.js';
import type { WorkerSetup } from './worker-setup.js';

/** The pool's module (and piscina), once a pool has been started. */
let poolModule: typeof import('./pool.js') | undefined;

export type { DefinitionFolder } from '../../sources/served-definitions.js';

/** What the service's worker pools are loaded from: where the definitions and the lockfile are, the plugins, the pool. */
export interface PoolSources extends ServedSources {
  /**
   * The definitions of this load, as already read (under the supervisor, which reads them once for
   * every process: docs/service.md "Processes and the supervisor"); without it, each load reads
   * the definitions and the lockfile of {@link ServedSources} itself.
   */
  read?: () => Promise<ServedDefinitions>;
  plugins: readonly PluginRef[];
  workers: number;
  workerMemoryMiB: number;
  /**
   * `--inline-max-bytes`: validations and builds with a body of at most this many bytes are
   * judged on the main thread, with a catalogue of its own built from the same bytes; 0 sends
   * every task to the pool. Only without plugins: a plugin's code runs in the workers alone.
   */
  inlineMaxBytes?: number;
  logger: PoolLog;
  /**
   * While the process does not take requests yet, a promise that settles once it does (or once
   * it gives up starting); undefined from then on. A load whose catalogue this thread builds
   * starts its workers only then, so that nothing competes with this thread for the cores until
   * it can judge (docs/service.md "During start"); any other load starts them at once.
   */
  workersWait?: () => Promise<void> | undefined;
  /** Called when a task needs a worker while the workers wait (`workersWait`), so that they start at once. */
  workersWanted?: () => void;
}

/**
 * A loader for `kurel serve`: at every call (start, a reload) it takes the definitions of the
 * load (`read`: under the supervisor, what it read once for every process; otherwise it reads the
 * folders and the lockfile on the main thread, reading only, no parsing, so probes keep
 * answering), then starts a new pool whose every worker imports the plugins and builds the
 * catalogue from those same bytes (and, with a lockfile, keeps only its locked versions), and
 * resolves once the first of them has loaded (the pool's `ready` tells when all have), or, when
 * small bodies are judged on the main thread, as soon as its own catalogue from the same bytes is
 * built and accepted (the tasks for the pool then wait for its first worker; at start, the
 * workers start only once the process takes requests, see `workersWait`). A folder
 * or lockfile that cannot be read, a refused plugin, a definition with an error, or definitions
 * that differ from the lockfile refuse the load.
 */
export function poolLoader(sources: PoolSources): RunnerLoader {
  return async () => {
    const read = await (sources.read ?? (() => readServedDefinitions(sources)))();
    if (!read.ok) return { ok: false, diagnostics: read.diagnostics };
    const { definitions, lockfile, diagnostics: gatheredDiagnostics } = read;
    const start = async (): Promise<PoolStart> => {
      // piscina and the pool load with the first pool started, not with the service; once loaded,
      // a pool starts in the same turn, before this thread builds its own catalogue.
      poolModule ??= await import('./pool.js');
      return poolModule.startPool({
        workers: sources.workers,
        workerMemoryMiB: sources.workerMemoryMiB,
        filename: workerEntry(),
        setup: { plugins: sources.plugins, cwd: sources.cwd, definitions, ...(lockfile ? { lockfile } : {}) },
        logger: sources.logger,
      });
    };
    const wait = inlineWanted(sources) ? sources.workersWait?.() : undefined;
    let starting = wait ? undefined : start();
    // Built here (while the first worker loads, unless the workers wait for this process to take
    // requests). Once it has checked the definitions as a worker would (no plugin runs here), the
    // process can judge small requests at once, and the rest wait for the first worker
    // (docs/service.md "During start"); refused, the first worker's report says why, as it would
    // without this path.
    const inline = await inlineCatalogue(sources, definitions, lockfile).catch(() => undefined);
    if (inline?.ok) {
      starting ??= (wait ?? Promise.resolve()).then(start);
      const runner = runnerBeforeThePool(starting, inline.catalogue, sources.inlineMaxBytes ?? 0, sources.logger, sources.workersWanted);
      return { ok: true, runner, diagnostics: [...gatheredDiagnostics, ...inline.diagnostics] };
    }
    starting ??= start();
    const started = await starting;
    const diagnostics = [...gatheredDiagnostics, ...started.diagnostics];
    if (!started.ok) return { ok: false, diagnostics };
    return { ok: true, runner: started.pool, diagnostics };
  };
}

/**
 * The main thread's catalogue for small validations and builds, when `inlineMaxBytes` allows
 * them and no plugin is loaded (a plugin could end or block the thread that runs it: it runs only
 * in workers, which the deadline can terminate); built from the bytes the workers were given.
 * Undefined when it is not wanted.
 */
async function inlineCatalogue(
  sources: PoolSources,
  definitions: readonly { file: string; content: Uint8Array }[],
  lockfile: WorkerSetup['lockfile'],
): Promise<ServedCatalogue | undefined> {
  if (!inlineWanted(sources)) return undefined;
  return assembleServedCatalogue(
    { definitionInputs: definitions.map((d) => ({ file: d.file, content: d.content, origin: 'definition' as const })), cwd: sources.cwd },
    lockfile,
  );
}

/** Whether small bodies are judged on the main thread: `inlineMaxBytes` allows them and no plugin is loaded. */
function inlineWanted(sources: PoolSources): boolean {
  return (sources.inlineMaxBytes ?? 0) > 0 && sources.plugins.length === 0;
}

/** The worker threads' entry module, built next to the CLI. */
export function workerEntry(): string {
  return join(packageRoot(), 'dist', 'serve-worker.cjs');
}
