import type { Diagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { stringifyJson } from '../../core/json-text.js';
import { envelopeOf } from '../../operations/envelopes.js';
import type { SourceText } from '../../yaml/source.js';
import { escapeControls } from './escape.js';
import { formatGithub } from './github.js';
import { formatJunit } from './junit.js';
import { formatSarif } from './sarif.js';
import { formatText, type Palette, type ProblemCounts, summarize } from './text.js';

/** The output formats of `kurel lint`. */
export const LINT_FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;
/** One of {@link LINT_FORMATS}. */
export type LintFormat = (typeof LINT_FORMATS)[number];

/** Everything a formatter may print. */
export interface ReportView {
  valid: boolean;
  /** The diagnostics to print: the run's problems as `reportProblems` cuts them, suppressed ones included. */
  diagnostics: readonly Diagnostic[];
  /** Every problem of the run, shown or not, for the summary line. */
  problems: ProblemCounts;
  files: readonly FileReport[];
  sources: ReadonlyMap<string, SourceText>;
  palette: Palette;
  /** `--strict`: warnings fail the run too. */
  strict?: boolean;
  /** `--quiet`: text and GitHub output leave out the warnings that do not fail the run. */
  quiet?: boolean;
  /** `--paths-relative-to`: the absolute folder the files' names are relative to (SARIF's `%SRCROOT%`). */
  root?: string;
}

/** Renders a lint report in the chosen format (the text ends without a newline). */
export function renderReport(format: LintFormat, view: ReportView): string {
  // A diagnostic has a place in a file when kurel read that file's text.
  const positioned = (d: Diagnostic) => view.sources.has(d.file);
  // Suppressed problems stay in JSON and SARIF, which say so; the other formats leave them out.
  const unsuppressed = view.diagnostics.filter((d) => d.suppressed === undefined);
  const fails = (d: Diagnostic) => d.severity === 'error' || view.strict === true;
  const shown = view.quiet ? unsuppressed.filter(fails) : unsuppressed;
  switch (format) {
    case 'json':
      return stringifyJson(envelopeOf('run', view.valid, view.diagnostics, view.files));
    case 'text': {
      const body = formatText(shown, view.sources, view.palette);
      const lines = [...(body ? [body] : []), summarize(view.problems, view.files), ...skippedLines(view.files, view.quiet === true)];
      // One pointer to the explanations per run, naming the first error shown (a warning only when there is none).
      const first = shown.find((d) => d.severity === 'error') ?? shown[0];
      if (first) lines.push(view.palette.dim(`run kurel explain ${first.code} for details`));
      return lines.join('\n');
    }
    case 'sarif':
      return formatSarif(view.diagnostics, positioned, view.root);
    case 'github': {
      // Annotations for the runner, then the summary as plain log text (a clean run prints only it).
      const annotations = formatGithub(shown, positioned);
      const summary = summarize(view.problems, view.files);
      return annotations ? `${annotations}\n${summary}` : summary;
    }
    case 'junit':
      return formatJunit(unsuppressed, view.files, { strict: view.strict === true, positioned });
  }
}

/** The most skipped files text output names one by one; JSON lists every one. */
export const MAX_SKIPPED_LISTED = 20;

/**
 * The files a run read but did not lint (docs/configuration.md: never passed over in silence):
 * each with why, up to {@link MAX_SKIPPED_LISTED} and a count of the rest; with `--quiet`, one line.
 */
function skippedLines(files: readonly FileReport[], quiet: boolean): string[] {
  const skipped = files.filter((f) => f.status === 'skipped');
  if (skipped.length === 0) return [];
  const count = `skipped ${skipped.length} file${skipped.length === 1 ? '' : 's'}`;
  if (quiet) return [`${count} (--format json lists them)`];
  const listed = skipped.slice(0, MAX_SKIPPED_LISTED).map((f) => `  ${escapeControls(f.path)}: ${escapeControls(f.reason ?? 'not linted')}`);
  const rest = skipped.length - listed.length;
  return [`${count}:`, ...listed, ...(rest > 0 ? [`  and ${rest} more (--format json lists every file)`] : [])];
}
