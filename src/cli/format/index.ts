import type { Diagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { stringifyJson } from '../../core/json-text.js';
import { envelopeOf } from '../../operations/envelopes.js';
import type { SourceText } from '../../yaml/source.js';
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
  /** The diagnostics to print: the run's problems as `reportProblems` cuts them. */
  diagnostics: readonly Diagnostic[];
  /** Every problem of the run, shown or not, for the summary line. */
  problems: ProblemCounts;
  files: readonly FileReport[];
  sources: ReadonlyMap<string, SourceText>;
  palette: Palette;
  /** `--strict`: warnings fail the run too. */
  strict?: boolean;
}

/** Renders a lint report in the chosen format (the text ends without a newline). */
export function renderReport(format: LintFormat, view: ReportView): string {
  // A diagnostic has a place in a file when kurel read that file's text.
  const positioned = (d: Diagnostic) => view.sources.has(d.file);
  switch (format) {
    case 'json':
      return stringifyJson(envelopeOf('run', view.valid, view.diagnostics, view.files));
    case 'text': {
      const body = formatText(view.diagnostics, view.sources, view.palette);
      const summary = summarize(view.problems, view.files);
      return body ? `${body}\n${summary}` : summary;
    }
    case 'sarif':
      return formatSarif(view.diagnostics, positioned);
    case 'github': {
      // Annotations for the runner, then the summary as plain log text (a clean run prints only it).
      const annotations = formatGithub(view.diagnostics, positioned);
      const summary = summarize(view.problems, view.files);
      return annotations ? `${annotations}\n${summary}` : summary;
    }
    case 'junit':
      return formatJunit(view.diagnostics, view.files, { strict: view.strict === true, positioned });
  }
}
