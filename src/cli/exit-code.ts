import type { Diagnostic } from '../core/diagnostics.js';

/** Exit codes of every command (docs/cli.md). */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

/**
 * The exit code of a run: 2 for bad usage, an unreadable path, no input or a refused start
 * (it wins over everything); 1 for errors, or warnings too under `--strict`; else 0.
 */
export function exitCodeOf(diagnostics: readonly Diagnostic[], options: { fatal: boolean; strict?: boolean }): number {
  if (options.fatal) return EXIT.usage;
  // A problem a comment in the file suppressed never counts.
  const counted = diagnostics.filter((d) => d.suppressed === undefined);
  if (counted.some((d) => d.severity === 'error')) return EXIT.problems;
  if (options.strict && counted.length > 0) return EXIT.problems;
  return EXIT.ok;
}
