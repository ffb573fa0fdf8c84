// What a worker thread of `kurel serve` runs once its turn to load has come (worker.ts): it loads
// its catalogue while it is imported, so the pool gives it no task before it has loaded, and
// reports how the load went to the main thread.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { Catalogue } from '../../catalogue/catalogue.js';
import { assembleServedCatalogue } from '../../operations/served-catalogue.js';
import { performTask } from './perform.js';
import { summaryOf } from './registry-summary.js';
import type { WorkAnswer } from './task.js';
import { type PostedTask, WORKER_REPORT, type WorkerReport, type WorkerSetup } from './worker-setup.js';

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
parentPort?.postMessage({ [WORKER_REPORT]: report });
// A worker that cannot judge must take no task. Its module never finishes loading, so piscina
// never counts it ready: a pool that is starting is given up on its report, and a replacement
// that fails (a plugin file gone, say) stays parked without being started again and again.
// Failing with an error instead would race the report to the main thread.
if (!catalogue) await new Promise<never>(() => undefined);

const loadedCatalogue = catalogue as Catalogue;

/** Does one task with this worker's catalogue; the answer's bytes are moved to the main thread, not copied. */
export function run({ task, started }: PostedTask): WorkAnswer | ReturnType<typeof move> {
  Atomics.store(started, 0, 1);
  const answer = performTask(loadedCatalogue, task);
  if (!('body' in answer)) return answer;
  return move({ [transferableSymbol]: answer.body.buffer, [valueSymbol]: answer });
}
