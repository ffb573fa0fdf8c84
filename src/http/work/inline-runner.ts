import type { Catalogue } from '../../catalogue/catalogue.js';
import { judgeAsText } from './judge-task.js';
import type { ServedAnswer, TaskRunner, WorkTask } from './task.js';

/**
 * The default largest body judged inline, in bytes (docs/service.md "Small requests judged
 * where they arrive"): above a typical profile of one or two KiB, and small enough that the
 * costliest bodies `bench/inline-worst.mjs` builds keep the probes answering within milliseconds.
 */
export const DEFAULT_INLINE_MAX_BYTES = 2 * 1024;

/**
 * A runner that judges a validation or a build whose body is at most `maxBytes` on the calling
 * thread, with `catalogue` (built from the same sources as the pool's workers), and hands every
 * other task to `pool`. A small body costs less to judge than to hand to a worker and back, and
 * its cost is bounded by its size (linear patterns, alias and depth budgets), so the work done
 * inline between two events is bounded too; larger bodies keep the pool's deadline and memory
 * isolation. `judgeInline` answers such a task at once, without a promise; `run` does the same
 * behind the runner's usual promise.
 */
export function inlineRunner(pool: TaskRunner, catalogue: Catalogue, maxBytes: number): TaskRunner {
  // Tasks judged inline whose answer is the pool's to give after all: `run` hands them on without judging them twice.
  const forThePool = new WeakSet<WorkTask>();
  const judgeInline = (task: WorkTask): ServedAnswer | undefined => {
    if (!judgedInline(task, maxBytes)) return undefined;
    let answer: ServedAnswer | undefined;
    try {
      answer = judgeAsText(catalogue, task);
    } catch {
      // An unexpected failure is the pool's to report, as it would have been without this path.
    }
    if (answer && !mayDependOnStack(answer)) return answer;
    forThePool.add(task);
    return undefined;
  };
  return {
    // The pool's, read when asked: a pool still starting may tell it only once it has started.
    get registry() {
      return pool.registry;
    },
    ready: pool.ready,
    judgeInline,
    async run(task, control) {
      if (forThePool.has(task) || !judgedInline(task, maxBytes)) return pool.run(task, control);
      control.signal.throwIfAborted();
      Atomics.store(control.started, 0, 1);
      const answer = judgeInline(task);
      if (answer) return answer;
      // Not begun as far as the deadline is concerned: it waits for a worker like any other task.
      Atomics.store(control.started, 0, 0);
      return pool.run(task, control);
    },
    close: () => pool.close(),
  };
}

/** Whether a task is judged on the calling thread: a validation or a build whose body is at most `maxBytes`. */
export function judgedInline(task: WorkTask, maxBytes: number): task is Extract<WorkTask, { kind: 'validate' | 'build' }> {
  return (task.kind === 'validate' || task.kind === 'build') && task.body.byteLength <= maxBytes;
}

// Nesting between the depth limit and the point the YAML parser is refused outright is parsed
// recursively, and where the call stack runs out depends on the thread (a worker's is larger):
// the `too-deep` diagnostic's path and end can differ. An answer that may hold one is judged
// again by a worker, so both paths give the same bytes; a body that merely contains the text
// costs a hand-off, nothing more.
const TOO_DEEP = '"too-deep"';

function mayDependOnStack(answer: ServedAnswer): boolean {
  if (!('body' in answer)) return false;
  const body = answer.body;
  return typeof body === 'string' ? body.includes(TOO_DEEP) : Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes(TOO_DEEP);
}
