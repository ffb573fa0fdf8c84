import type { Catalogue } from '../../catalogue/catalogue.js';
import { withinWorkBudget } from '../../schema/work-budget.js';
import { judgeAsText } from './judge-task.js';
import type { ServedAnswer, TaskRunner, WorkTask } from './task.js';

/**
 * The default largest body judged inline, in bytes (docs/service.md "Small requests judged
 * where they arrive"): above a typical profile of one or two KiB, and small enough that the
 * costliest bodies `bench/inline-worst.mjs` builds keep the probes answering within milliseconds.
 */
export const DEFAULT_INLINE_MAX_BYTES = 2 * 1024;

/**
 * The work a judgement on the serving thread may do, in steps of the RE2 matcher (see
 * `src/schema/work-budget.ts`), about 10 ms at the dearest step: a typical profile does a few
 * thousand. A judgement whose estimate passes it stops there and is done by a worker, where the
 * deadline can stop it (docs/service.md "Small requests judged where they arrive").
 */
export const INLINE_WORK_BUDGET = 200_000;

/**
 * A runner that judges a validation or a build whose body is at most `maxBytes` on the calling
 * thread, with `catalogue` (built from the same sources as the pool's workers), and hands every
 * other task to `pool`. A small body costs less to judge than to hand to a worker and back, and
 * its work is bounded by {@link INLINE_WORK_BUDGET}: its size bounds the parse (alias and depth
 * budgets), and every costlier step (patterns, the check's nodes) is estimated before it is
 * done, the judgement handed to the pool once the estimate passes the budget. Larger bodies,
 * and judgements past the budget, keep the pool's deadline and memory isolation. `judgeInline` answers such a task at once, without a promise; `run` does the same
 * behind the runner's usual promise.
 */
export function inlineRunner(pool: TaskRunner, catalogue: Catalogue, maxBytes: number): TaskRunner {
  // Tasks judged inline whose answer is the pool's to give after all: `run` hands them on without judging them twice.
  const forThePool = new WeakSet<WorkTask>();
  const judgeInline = (task: WorkTask): ServedAnswer | undefined => {
    if (!judgedInline(task, maxBytes)) return undefined;
    let answer: ServedAnswer | undefined;
    try {
      // Undefined when the work passes the budget: a small body can still bring a costly pattern.
      answer = withinWorkBudget(INLINE_WORK_BUDGET, () => judgeAsText(catalogue, task))?.value;
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
