import type { Diagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { DEFINITION, PROFILE } from '../../documents/read-input.js';
import type { SourceText } from '../../yaml/source.js';

/** Terminal styling; all identity functions when colour is off. */
export interface Palette {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** A palette for a stream: colour only on a terminal, never when `NO_COLOR` is set. */
export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  const colour = stream.isTTY === true && (env['NO_COLOR'] === undefined || env['NO_COLOR'] === '') && env['TERM'] !== 'dumb';
  if (!colour) return { red: plain, yellow: plain, dim: plain, bold: plain, cyan: plain };
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), cyan: wrap(36, 39) };
}

/**
 * Formats diagnostics as `file:line:col severity code message`, each followed by its source
 * line with a caret under the offending span, and a hint line when there is one.
 */
export function formatText(diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, SourceText>, palette: Palette): string {
  const lines: string[] = [];
  for (const d of diagnostics) {
    const severity = d.severity === 'error' ? palette.red('error') : palette.yellow('warning');
    const source = sources.get(d.file);
    // Without the file's text (an unreadable path, the command line, a plugin) there is no line to point at.
    const where = source ? `${d.file}:${d.line}:${d.column}` : `${d.file}:`;
    lines.push(`${palette.bold(where)} ${severity} ${palette.dim(d.code)} ${d.message}`);
    const excerpt = source ? sourceLine(source, d.line) : undefined;
    // A caret under a blank line (an empty file) shows nothing.
    if (excerpt !== undefined && excerpt.trim() !== '') {
      const width = d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, excerpt.length - d.column + 1);
      lines.push(`  ${excerpt}`);
      lines.push(`  ${' '.repeat(Math.max(0, d.column - 1))}${palette.red('^'.repeat(Math.min(width, 200)))}`);
    }
    if (d.hint) lines.push(`  ${palette.cyan('hint:')} ${d.hint}`);
  }
  return lines.join('\n');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A one-line summary: what was checked, profiles and definition files counted apart (`1
 * profile and 4 definition files checked`), then `2 errors, 1 warning` or `no problems`.
 */
export function summarize(diagnostics: readonly Diagnostic[], files: readonly FileReport[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const checked = `${describeChecked(files)} checked`;
  if (diagnostics.length === 0) return `${checked}: no problems`;
  return `${checked}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

// How checked files of each kind are counted in a summary; any other kind is a file.
const KIND_WORDS: Readonly<Record<string, string>> = { [PROFILE]: 'profile', [DEFINITION]: 'definition file', Application: 'application' };

function describeChecked(files: readonly FileReport[]): string {
  const counts = new Map<string, number>();
  for (const f of files) {
    if (f.status !== 'checked') continue;
    const word = KIND_WORDS[f.kind] ?? 'file';
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const known = Object.values(KIND_WORDS).filter((word) => counts.has(word));
  const parts = known.map((word) => plural(counts.get(word)!, word));
  const others = counts.get('file');
  if (others !== undefined) parts.push(plural(others, known.length > 0 ? 'other file' : 'file'));
  if (parts.length === 0) return '0 files';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function sourceLine(source: SourceText, line: number): string | undefined {
  const starts = source.lineCounter.lineStarts;
  const start = starts[line - 1];
  if (start === undefined) return undefined;
  const next = starts[line];
  const text = source.text.slice(start, next === undefined ? undefined : next - 1).replace(/\r$/, '');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
