import { compareDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { LIMITS } from '../core/input-limits.js';
import type { LeftOutProblems } from './kept-problems.js';

/** The problems of a run as reported: what is shown, and how many there are in all. */
export interface ReportedProblems {
  /** Sorted: the first problems of the run, and past the limit one `too-many-problems` summary. */
  diagnostics: Diagnostic[];
  /** Every problem of the run, shown or not, that no comment in a file suppressed: the exit code and summaries count these. */
  errors: number;
  warnings: number;
  /** The problems comments in the files suppressed (docs/configuration.md): counted apart, never against the limit. */
  suppressed: number;
}

/** Options of {@link reportProblems}. */
export interface ReportOptions {
  /** Whether a problem counts against the limit; one that does not is always shown (default: all but suppressed ones count). */
  countsAgainstLimit?: (diagnostic: Diagnostic) => boolean;
  /**
   * Problems of the run a `KeptProblems` counted but did not keep: each sorts after every
   * problem passed in that the report could show, so they are counted and never shown.
   */
  leftOut?: LeftOutProblems | undefined;
  /** How many problems that count are shown: {@link LIMITS.maxReportedProblems} unless a test says otherwise. */
  limit?: number;
}

/**
 * The one place a run's problems are cut for reporting (docs/profiles.md), used by every
 * command and route: the first {@link LIMITS.maxReportedProblems} in sorted order are shown;
 * the rest are counted by severity in one `too-many-problems` warning at 1:1 of the file of
 * the first one hidden. The verdict and exit code come from all of them, so callers judge the
 * problems they passed in, never the ones returned, or the counts returned when a
 * `KeptProblems` kept only some of them. Never changes its input.
 */
export function reportProblems(problems: readonly Diagnostic[], options: ReportOptions = {}): ReportedProblems {
  const counts = options.countsAgainstLimit ?? ((d: Diagnostic) => d.suppressed === undefined);
  const limit = options.limit ?? LIMITS.maxReportedProblems;
  const sorted = [...problems].sort(compareDiagnostics);
  const shown: Diagnostic[] = [];
  let counted = 0;
  let errors = 0;
  let warnings = 0;
  let suppressed = 0;
  let hiddenErrors = 0;
  let hiddenWarnings = 0;
  let firstHidden: Diagnostic | undefined;
  for (const problem of sorted) {
    if (problem.suppressed !== undefined) suppressed += 1;
    else if (problem.severity === 'error') errors += 1;
    else warnings += 1;
    if (!counts(problem)) {
      shown.push(problem);
      continue;
    }
    counted += 1;
    if (counted <= limit) {
      shown.push(problem);
      continue;
    }
    firstHidden ??= problem;
    if (problem.severity === 'error') hiddenErrors += 1;
    else hiddenWarnings += 1;
  }
  const { leftOut } = options;
  if (leftOut) {
    if (!firstHidden || compareDiagnostics(leftOut.first, firstHidden) < 0) firstHidden = leftOut.first;
    hiddenErrors += leftOut.errors;
    hiddenWarnings += leftOut.warnings;
    errors += leftOut.errors;
    warnings += leftOut.warnings;
  }
  if (firstHidden) {
    shown.push(summaryOf(firstHidden.file, hiddenErrors, hiddenWarnings, limit));
    shown.sort(compareDiagnostics);
  }
  return { diagnostics: shown, errors, warnings, suppressed };
}

function summaryOf(file: string, errors: number, warnings: number, limit: number): Diagnostic {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const message = `${plural(errors + warnings, 'more problem')} not shown (${plural(errors, 'error')}, ${plural(warnings, 'warning')}): a run reports its first ${limit}`;
  return { code: 'too-many-problems', severity: 'warning', message, file, line: 1, column: 1, endLine: 1, endColumn: 1, path: '' };
}
