/**
 * A budget of work for a judgement that must stay short because nothing can stop it once begun
 * (a request judged on the thread that read it, docs/service.md "Small requests judged where they
 * arrive"). The costly steps of a judgement estimate their work before they do it and charge it
 * here: matching a pattern (its program size × the length of the value), compiling one (its
 * program size), judging a new one (likewise), and each node the check engine visits (so schema
 * nodes × data nodes). The unit is one step of the RE2 matcher, the dearest of them per unit;
 * the weights below put the other steps in the same unit, from `bench/inline-worst.mjs`.
 *
 * Outside {@link withinWorkBudget} the budget is unlimited and a charge costs one subtraction.
 */

/** Steps of work charged for compiling a pattern, per instruction of its program. */
export const COMPILE_STEPS_PER_INSTRUCTION = 100;

/** Steps of work charged for judging a pattern not judged before, per instruction of its program. */
export const VERDICT_STEPS_PER_INSTRUCTION = 10;

/** Steps of work charged for each node the check engine visits. */
export const VISIT_STEPS = 10;

/** Thrown by a charge that passes the budget in force; the judgement it interrupts is to be done elsewhere. */
export class WorkBudgetExceeded extends Error {
  constructor() {
    super('the work of this judgement passes its budget');
    this.name = 'WorkBudgetExceeded';
  }
}

let remaining = Number.POSITIVE_INFINITY;
let exceeded = false;

/**
 * Charges `steps` of work to the budget in force, before the work is done; throws
 * {@link WorkBudgetExceeded} once they pass it, and at every charge after that, so code that
 * catches the first throw cannot go on working for long.
 */
export function chargeWork(steps: number): void {
  remaining -= steps;
  if (remaining < 0) {
    exceeded = true;
    throw new WorkBudgetExceeded();
  }
}

/**
 * Runs `work` (synchronous) with a budget of `steps`: its value, or `undefined` when its work
 * passed the budget, whether or not something in `work` caught the throw and carried on.
 */
export function withinWorkBudget<T>(steps: number, work: () => T): { value: T } | undefined {
  const outerRemaining = remaining;
  const outerExceeded = exceeded;
  remaining = steps;
  exceeded = false;
  try {
    const value = work();
    return exceeded ? undefined : { value };
  } catch (err) {
    if (exceeded) return undefined;
    throw err;
  } finally {
    remaining = outerRemaining;
    exceeded = outerExceeded;
  }
}
