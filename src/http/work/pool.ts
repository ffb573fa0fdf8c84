import { Piscina } from 'piscina';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import type { EveryWorker, TaskControl, TaskRunner, WorkAnswer, WorkTask } from './task.js';
import { TaskSlots } from './task-slots.js';
import { type PostedTask, WORKER_REPORT, type WorkerReport, type WorkerSetup } from './worker-setup.js';

/** Where a pool reports what happens to its workers once in service (the service's logger). */
export interface PoolLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** How a pool is started. */
export interface PoolOptions {
  /**
   * Tasks run at once, each on a worker thread of its own. The pool keeps one thread more,
   * loaded, so that a worker terminated with its task (cancelled, or out of heap) is succeeded
   * at once, while its replacement loads.
   */
  workers: number;
  /** The heap limit of each worker (V8's old generation), in MiB. */
  workerMemoryMiB: number;
  /** The worker entry module (the package's `dist/serve-worker.cjs`). */
  filename: string;
  setup: WorkerSetup;
  logger: PoolLog;
  /** How long every worker may take to load before the pool is given up. */
  loadTimeoutMs?: number;
}

/** Why a pool could not be used. */
type LoadFailure = { ok: false; diagnostics: Diagnostic[] };

/** A pool whose first worker has loaded (the rest settle `pool.ready`), or why it could not be used. */
export type PoolStart = { ok: true; pool: TaskRunner; diagnostics: Diagnostic[] } | LoadFailure;

const DEFAULT_LOAD_TIMEOUT_MS = 60_000;

/**
 * Starts a pool of worker threads (piscina) that each import the plugins and build the catalogue
 * from `setup` while they start (docs/service.md). One worker loads first, alone, so that it checks
 * the definitions and plugins as fast as it can; the others wait at a gate until it has loaded,
 * so a refused set costs one worker's load. Resolves once that first worker has loaded, with the
 * pool and `ready`, which settles once every worker has loaded; a report that the definitions or
 * a plugin were refused, a worker that fails while loading, or the load timeout gives the pool
 * up. In service, at most `workers` tasks run at once, on workers that have loaded; a worker
 * whose task is cancelled or exceeds its heap limit is terminated, the spare thread takes the
 * next task at once, and a replacement loads to be the spare.
 */
export async function startPool(options: PoolOptions): Promise<PoolStart> {
  const { workers, logger } = options;
  // Every thread loads a catalogue; one more than the tasks that may run, as the spare.
  const threads = workers + 1;
  // Threads whose worker has reported that it loaded. piscina would hand a queued task to a
  // worker still loading (the task then waits there, and cancelling it would kill that worker):
  // tasks go only to loaded, idle workers.
  const loadedThreads = new Set<number>();
  const startGate = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const piscina = new Piscina<PostedTask, WorkAnswer>({
    filename: options.filename,
    workerData: { ...options.setup, startGate } satisfies WorkerSetup,
    minThreads: threads,
    maxThreads: threads,
    // Every worker holds a built catalogue: none is let go for being idle.
    idleTimeout: Number.POSITIVE_INFINITY,
    // The service's admission limit bounds the queue.
    maxQueue: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
    resourceLimits: { maxOldGenerationSizeMb: options.workerMemoryMiB },
    recordTiming: false,
    loadBalancer: (_task, candidates) =>
      candidates.find((worker) => worker.currentUsage === 0 && loadedThreads.has(worker.id) && !worker.terminating && !worker.destroyed) ?? null,
  });
  piscina.on('workerDestroy', (worker: { id: number }) => loadedThreads.delete(worker.id));

  let settleFirst: (outcome: { ok: true; report: WorkerReport } | LoadFailure) => void = () => undefined;
  const first = new Promise<{ ok: true; report: WorkerReport } | LoadFailure>((resolve) => {
    settleFirst = resolve;
  });
  let settleEvery: (outcome: EveryWorker) => void = () => undefined;
  const every = new Promise<EveryWorker>((resolve) => {
    settleEvery = resolve;
  });
  let loading = true;
  // Once the pool closes, a worker that finishes loading is neither counted nor a replacement:
  // closing while workers still load settles the load, and their reports come after.
  let closed = false;
  const reports = new Map<number, WorkerReport>();
  const timeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const timer = setTimeout(() => fail([fileDiagnostic('<worker>', 'usage', `the worker threads did not all load within ${timeoutMs} ms`)]), timeoutMs);
  function fail(diagnostics: Diagnostic[]): void {
    if (!loading) return;
    loading = false;
    clearTimeout(timer);
    const failure: LoadFailure = { ok: false, diagnostics };
    settleFirst(failure);
    settleEvery(failure);
  }
  // One listener each for the pool's life: a worker can report or fail at any time, and an
  // 'error' event without a listener would end the process.
  piscina.on('message', (message: unknown) => {
    const report = reportIn(message);
    if (!report || closed) return;
    if (report.ok) loadedThreads.add(report.threadId);
    if (loading) {
      if (!report.ok) return fail(report.diagnostics);
      reports.set(report.threadId, report);
      if (reports.size === 1) {
        // The definitions and plugins are good: the other workers may load now.
        Atomics.store(startGate, 1, 1);
        Atomics.notify(startGate, 1);
        settleFirst({ ok: true, report });
      }
      if (reports.size >= threads) {
        loading = false;
        clearTimeout(timer);
        settleEvery({ ok: true });
      }
    } else if (report.ok) {
      logger.info({ threadId: report.threadId }, 'worker replaced: the new worker has loaded');
    } else {
      logger.error(
        { threadId: report.threadId, errors: report.diagnostics.map((d) => d.message) },
        'a replacement worker could not load: it takes no request, and the pool goes on with fewer workers',
      );
    }
  });
  piscina.on('error', (err: unknown) => {
    if (loading) fail([workerFailure(err, options.workerMemoryMiB)]);
    else logger.error({ err }, 'a worker thread failed outside any request');
  });

  const loaded = await first;
  if (!loaded.ok) {
    await piscina.destroy();
    return loaded;
  }
  const { registry, diagnostics } = loaded.report;
  let closing: Promise<void> | undefined;
  // Tasks wait here rather than in piscina's queue: a slot freed by a terminated worker goes at
  // once to the next task, which finds the spare idle (piscina hands its own queue out only as
  // tasks end or workers finish loading).
  const slots = new TaskSlots(workers);
  const pool: TaskRunner = {
    registry,
    ready: every,
    run(task: WorkTask, control: TaskControl): Promise<WorkAnswer> {
      const body = 'body' in task ? task.body : undefined;
      return slots.run(control.signal, () =>
        piscina.run({ task, started: control.started }, { signal: control.signal, transferList: body && ownsItsBuffer(body) ? [body.buffer] : [] }),
      );
    },
    close() {
      closed = true;
      // A pool closed while workers still load settles `ready` and stops its load timer, which
      // would otherwise keep the process alive.
      fail([fileDiagnostic('<worker>', 'usage', 'the worker pool was closed before every worker had loaded')]);
      // The tasks still waiting for a slot run first: piscina refuses tasks once it closes.
      closing ??= slots.idle().then(() => piscina.close());
      return closing;
    },
  };
  return { ok: true, pool, diagnostics };
}

function reportIn(message: unknown): WorkerReport | undefined {
  if (typeof message !== 'object' || message === null || !(WORKER_REPORT in message)) return undefined;
  return (message as Record<typeof WORKER_REPORT, WorkerReport>)[WORKER_REPORT];
}

function workerFailure(err: unknown, workerMemoryMiB: number): Diagnostic {
  const code = (err as { code?: unknown } | null)?.code;
  const reason =
    code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? `a worker thread ran out of memory while loading (--worker-memory ${workerMemoryMiB} MiB)`
      : `a worker thread failed while loading: ${err instanceof Error ? err.message : String(err)}`;
  return fileDiagnostic('<worker>', 'usage', reason);
}

// Bytes that own the whole of their buffer can be moved to the worker instead of copied; a
// small Buffer shares Node's pool with others and must be copied.
function ownsItsBuffer(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}
