import type { Diagnostic } from '../core/diagnostics.js';

/** Exit codes of every command (docs/cli.md). */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/**
 * The exit code of a run: 2 for bad usage, an unreadable path, no input or a refused start
 * (it wins over everything); 1 for errors, or warnings too under `--strict`; else 0.
 */
export function exitCodeOf(diagnostics: readonly Diagnostic[], options: { fatal: boolean; strict?: boolean }): number {
  // A problem a comment in the file suppressed never counts.
  const counted = diagnostics.filter((d) => d.suppressed === undefined);
  const errors = counted.filter((d) => d.severity === 'error').length;
  return exitCodeOfCounts({ errors, warnings: counted.length - errors }, options);
}

/** {@link exitCodeOf} from the counts of a run's problems that no comment suppressed (`reportProblems` gives them). */
export function exitCodeOfCounts(counts: { errors: number; warnings: number }, options: { fatal: boolean; strict?: boolean }): number {
  if (options.fatal) return EXIT.usage;
  if (counts.errors > 0) return EXIT.problems;
  if (options.strict && counts.warnings > 0) return EXIT.problems;
  return EXIT.ok;
}
