import type { Diagnostic } from '../core/diagnostics.js';
import { stringifyJson } from '../core/json-text.js';
import { type ReportedProblems, reportProblems } from '../operations/report-problems.js';
import type { SourceText } from '../yaml/source.js';
import { EXIT, exitCodeOf } from './exit-code.js';
import { type ColorChoice, formatText, type Palette, paletteFor } from './format/text.js';
import type { CommandIo } from './io.js';

/** What a command found, for {@link printResult} to judge and print. */
export interface CommandResult {
  /** Every problem of the run; what is shown is cut by `reportProblems`, the exit code counts them all. */
  diagnostics: readonly Diagnostic[];
  /** True when the run could not go on: bad usage, an unreadable path, a refused start (exit 2). */
  fatal: boolean;
  /** Exit 1 though no problem is an error: `--check` found a change, a pair lacks the bump it needs. */
  failed?: boolean;
  /** The texts of the files with problems, for the source lines under them. */
  sources?: Map<string, SourceText>;
}

/** The run as a command's printer sees it: its verdict and the problems as shown. */
export interface PrintedResult {
  code: number;
  /** True exactly when the exit code is 0 (the `valid` of every envelope). */
  valid: boolean;
  reported: ReportedProblems;
  /** The colours for a stream: only on a terminal, and as `NO_COLOR`, `FORCE_COLOR` and `--color` say. */
  palette(stream: 'stdout' | 'stderr'): Palette;
  /** Problems (the ones shown unless others are given) as text with their source lines, coloured for a stream. */
  problemsText(stream: 'stdout' | 'stderr', diagnostics?: readonly Diagnostic[]): string;
}

/** How one command prints its result: the JSON envelope, or its text. */
export interface ResultPrinter {
  /** True for `--format json`: the envelope alone, on standard output. */
  json: boolean;
  /** `--color`, for the commands that take it. */
  color?: ColorChoice | undefined;
  /** The command's JSON envelope. */
  envelope(result: PrintedResult): unknown;
  /** Prints the command's text output. */
  text(result: PrintedResult): void;
}

/**
 * The one place a command's result becomes its output and exit code (docs/cli.md "Exit codes"):
 * 2 when fatal, 1 for errors or a failed check, else 0; the problems cut for reporting once;
 * `--format json` prints the envelope on standard output, any other format the command's text.
 */
export function printResult(io: CommandIo, result: CommandResult, printer: ResultPrinter): number {
  let code = exitCodeOf(result.diagnostics, { fatal: result.fatal });
  if (code === EXIT.ok && result.failed) code = EXIT.problems;
  const reported = reportProblems(result.diagnostics);
  const palette = (stream: 'stdout' | 'stderr') => paletteFor({ isTTY: stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY }, io.env, printer.color);
  const printed: PrintedResult = {
    code,
    valid: code === EXIT.ok,
    reported,
    palette,
    problemsText: (stream, diagnostics = reported.diagnostics) => formatText(diagnostics, result.sources ?? new Map(), palette(stream)),
  };
  if (printer.json) io.stdout(`${stringifyJson(printer.envelope(printed))}\n`);
  else printer.text(printed);
  return code;
}
