import type { Catalogue } from '../../catalogue/catalogue.js';
import { performTask } from './perform.js';
import type { TaskRunner, WorkTask } from './task.js';

/**
 * The default largest body judged inline, in bytes (docs/service.md "Small requests judged
 * where they arrive"): above a typical profile of one or two KiB, and small enough that the
 * costliest bodies `bench/inline-worst.mjs` builds keep the probes answering within milliseconds.
 */
export const DEFAULT_INLINE_MAX_BYTES = 4 * 1024;

/**
 * A runner that judges a validation or a build whose body is at most `maxBytes` on the calling
 * thread, with `catalogue` (built from the same sources as the pool's workers), and hands every
 * other task to `pool`. A small body costs less to judge than to hand to a worker and back, and
 * its cost is bounded by its size (linear patterns, alias and depth budgets), so the work done
 * inline between two events is bounded too; larger bodies keep the pool's deadline and memory
 * isolation.
 */
export function inlineRunner(pool: TaskRunner, catalogue: Catalogue, maxBytes: number): TaskRunner {
  return {
    registry: pool.registry,
    ready: pool.ready,
    async run(task, control) {
      if (!judgedInline(task, maxBytes)) return pool.run(task, control);
      control.signal.throwIfAborted();
      Atomics.store(control.started, 0, 1);
      return performTask(catalogue, task);
    },
    close: () => pool.close(),
  };
}

/** Whether a task is judged on the calling thread: a validation or a build whose body is at most `maxBytes`. */
export function judgedInline(task: WorkTask, maxBytes: number): boolean {
  return (task.kind === 'validate' || task.kind === 'build') && task.body.byteLength <= maxBytes;
}
