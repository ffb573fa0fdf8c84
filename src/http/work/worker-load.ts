// What a worker thread of `kurel serve` runs once its turn to load has come (worker.ts): it loads
// its catalogue before piscina has its task runner, so the pool gives it no task before it has
// loaded, and reports how the load went to the main thread.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { Catalogue } from '../../catalogue/catalogue.js';
import { keepCompiledCode } from '../../core/warm-start.js';
import { assembleServedCatalogue } from '../../operations/served-catalogue.js';
import { performTask } from './perform.js';
import { summaryOf } from './registry-summary.js';
import type { WorkAnswer } from './task.js';
import { type PostedTask, WORKER_REPORT, type WorkerReport, type WorkerSetup } from './worker-setup.js';

/** Runs one task: the answer's bytes are moved to the main thread, not copied. */
export type TaskRunner = (posted: PostedTask) => WorkAnswer | ReturnType<typeof move>;

/**
 * Loads this worker's catalogue and reports how the load went to the main thread; resolves to
 * what runs a task with it. A worker that cannot judge must take no task: the promise then never
 * settles, so piscina never counts the worker ready: a pool that is starting is given up on its
 * report, and a replacement that fails (a plugin file gone, say) stays parked without being
 * started again and again. Failing with an error instead would race the report to the main thread.
 */
export async function loadWorker(): Promise<TaskRunner> {
  const setup = workerData as WorkerSetup;
  // The one assembler (ARCHITECTURE.md "Catalogue assembly"), from the bytes the main thread read;
  // with a lockfile, only its locked versions are served (docs/versions.md).
  const served = await assembleServedCatalogue(
    {
      plugins: setup.plugins,
      cwd: setup.cwd,
      definitionInputs: setup.definitions.map((d) => ({ file: d.file, content: d.content, origin: 'definition' as const })),
    },
    setup.lockfile,
  );
  const catalogue: Catalogue | undefined = served.ok ? served.catalogue : undefined;
  // A refused start built nothing: its registry is empty; a refused set reports what it built.
  const built = served.catalogue;
  const report: WorkerReport = {
    threadId,
    ok: served.ok,
    registry: built ? summaryOf(built) : { handlers: 0, definitions: 0, digest: '' },
    diagnostics: served.diagnostics,
  };
  // What this worker's load compiled, for the next start (docs/performance.md, "Warm start"):
  // kept before the report, so a service ready on its workers' reports has their caches too.
  if (catalogue) keepCompiledCode();
  parentPort?.postMessage({ [WORKER_REPORT]: report });
  if (!catalogue) return new Promise<never>(() => undefined);
  return ({ task, started }) => {
    Atomics.store(started, 0, 1);
    const answer = performTask(catalogue, task);
    if (!('body' in answer)) return answer;
    return move({ [transferableSymbol]: answer.body.buffer, [valueSymbol]: answer });
  };
}
