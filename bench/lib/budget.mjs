// Budget lines shared by every bench script (docs/performance.md): each budget prints one line that
// says `within` or `OVER`, and a script that met any figure over its budget exits with
// OVER_BUDGET_EXIT, so `npm run bench` fails. A figure that could not be measured counts as over.

/** The exit code of a bench script that ran to the end with at least one figure over budget. */
export const OVER_BUDGET_EXIT = 3;

/** The word that starts every budget line over its budget; `run.mjs` collects these lines. */
export const OVER = 'OVER';

/** The word that starts every budget line within its budget. */
export const WITHIN = 'within';

const COMPARISONS = {
  atMost: { holds: (value, limit) => value <= limit, sign: '<=' },
  below: { holds: (value, limit) => value < limit, sign: '<' },
  atLeast: { holds: (value, limit) => value >= limit, sign: '>=' },
};

/** A ratio for a budget line, `1.42x`. */
export const asRatio = (value) => `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}x`;

/** Milliseconds for a budget line. */
export const asMs = (value) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

/** Mebibytes for a budget line. */
export const asMiB = (value) => `${value.toFixed(0)} MiB`;

/**
 * The budgets of one bench script. Each check prints its line at once (indented like the
 * script's tables) and is remembered; `finish()` prints the tally and sets the exit code.
 */
export class Budgets {
  #lines = [];

  /** `value` must be at most `limit`. */
  atMost(label, value, limit, format = asRatio) {
    return this.#check('atMost', label, value, limit, format);
  }

  /** `value` must be strictly below `limit`. */
  below(label, value, limit, format = asRatio) {
    return this.#check('below', label, value, limit, format);
  }

  /** `value` must be at least `limit`. */
  atLeast(label, value, limit, format = asRatio) {
    return this.#check('atLeast', label, value, limit, format);
  }

  /** A yes-or-no budget (the process stayed up, every request was answered): `detail` says what was found. */
  holds(label, ok, detail) {
    return this.#print(ok, `${label}: ${detail}`);
  }

  /** A budget whose figure could not be measured (a crash, no answer): it counts as over. */
  unmeasured(label, reason) {
    return this.#print(false, `${label}: not measured (${reason})`);
  }

  /** True when every budget so far is within. */
  get allWithin() {
    return this.#lines.every((line) => line.ok);
  }

  /** Prints how many budgets held and, when any is over, sets the exit code to OVER_BUDGET_EXIT. */
  finish() {
    const over = this.#lines.filter((line) => !line.ok).length;
    console.log(`budgets: ${this.#lines.length - over} ${WITHIN}, ${over} ${OVER}`);
    if (over > 0 && !process.exitCode) process.exitCode = OVER_BUDGET_EXIT;
  }

  #check(kind, label, value, limit, format) {
    const { holds, sign } = COMPARISONS[kind];
    if (!Number.isFinite(value)) return this.unmeasured(label, `the figure is ${value}`);
    const shownLimit = format === asRatio ? `${limit}x` : format(limit);
    let shown = format(value);
    // A ratio that rounds to its limit is shown to one more digit, so the verdict can be read from it.
    if (format === asRatio && shown === asRatio(limit) && value !== limit) shown = `${value.toFixed(3)}x`;
    return this.#print(holds(value, limit), `${label}: ${shown} (budget ${sign} ${shownLimit})`);
  }

  #print(ok, text) {
    this.#lines.push({ ok, text });
    console.log(`  ${(ok ? WITHIN : OVER).padEnd(6)}  ${text}`);
    return ok;
  }
}
