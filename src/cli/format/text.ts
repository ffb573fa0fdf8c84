import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { DEFINITION, PROFILE } from '../../documents/read-input.js';
import type { SourceText } from '../../yaml/source.js';
import { escapeControls, escapedIndent, escapedWidth } from './escape.js';

/** Terminal styling; all identity functions when colour is off. */
export interface Palette {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
  green(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** `--color`: `auto` (the default) decides by the environment and the stream. */
export const COLOR_CHOICES = ['auto', 'always', 'never'] as const;
/** One of {@link COLOR_CHOICES}. */
export type ColorChoice = (typeof COLOR_CHOICES)[number];

/** A palette without colour: what files always get. */
export const PLAIN: Palette = { red: plain, yellow: plain, dim: plain, bold: plain, cyan: plain, green: plain };

/**
 * A palette for a stream (docs/configuration.md): `--color always` or `never` first; then
 * `FORCE_COLOR` (which beats `NO_COLOR`; `0` or `false` turns colour off); then `NO_COLOR`;
 * else colour only on a terminal that is not `TERM=dumb`.
 */
export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env, choice: ColorChoice = 'auto'): Palette {
  return isColour(stream, env, choice)
    ? { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22), cyan: wrap(36, 39), green: wrap(32, 39) }
    : PLAIN;
}

function isColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, choice: ColorChoice): boolean {
  if (choice !== 'auto') return choice === 'always';
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
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
    // The command line is one line: its problems have the place every usage error is shown at.
    const where = source || d.file === COMMAND_LINE ? `${d.file}:${d.line}:${d.column}` : `${d.file}:`;
    lines.push(`${palette.bold(escapeControls(where))} ${severity} ${palette.dim(d.code)} ${escapeControls(d.message)}`);
    const excerpt = source ? sourceLine(source, d.line) : undefined;
    // A caret under a blank line (an empty file) shows nothing, nor a line of binary data
    // (bytes that are not UTF-8, a NUL): the message says where it is.
    if (excerpt !== undefined && excerpt.trim() !== '' && !isBinary(excerpt)) {
      lines.push(`  ${escapeControls(excerpt)}`);
      // The caret goes under the escaped text, and ends with the line shown (a long line is cut);
      // a column past the part of a long line shown gets none, one just past its end a single caret.
      const start = d.column - 1;
      if (start <= excerpt.length) {
        const end = d.endLine === d.line ? Math.max(d.endColumn - 1, start + 1) : Math.max(excerpt.length, start + 1);
        const width = start === excerpt.length ? 1 : escapedWidth(excerpt, start, Math.min(end, excerpt.length));
        const caret = d.severity === 'error' ? palette.red : palette.yellow;
        lines.push(`  ${escapedIndent(excerpt, start)}${caret('^'.repeat(Math.min(width, 200)))}`);
      }
    }
    if (d.hint) lines.push(`  ${palette.cyan('hint:')} ${escapeControls(d.hint)}`);
  }
  return lines.join('\n');
}

// What text decoded from bytes that are not UTF-8 (U+FFFD) or holding a NUL looks like.
const isBinary = (text: string): boolean => text.includes('\uFFFD') || text.includes('\u0000');

// The file name of problems of the command line (docs/codes/usage.md).
const COMMAND_LINE = '<command line>';

/** A usage error's text, as every usage error is shown: `<command line>:1:1 error usage MESSAGE`, then its `hint:` line if any. */
export function formatUsage(message: string, hint?: string): string {
  return formatText([fileDiagnostic(COMMAND_LINE, 'usage', message, hint ? { hint } : {})], new Map(), PLAIN);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A run's problems by severity, shown or not. */
export interface ProblemCounts {
  errors: number;
  warnings: number;
  /** Problems comments in the files suppressed, counted apart. */
  suppressed?: number;
}

/**
 * A one-line summary of every problem of a run, shown or not: what was checked (given the
 * file reports, profiles and definition files are counted apart: `1 profile and 4 definition
 * files checked`), then `2 errors, 1 warning` or `no problems`.
 */
export function summarize(problems: ProblemCounts, checked: number | readonly FileReport[]): string {
  const { errors, warnings } = problems;
  const what = `${typeof checked === 'number' ? plural(checked, 'file') : describeChecked(checked)} checked`;
  const suppressed = problems.suppressed ? ` (${problems.suppressed} suppressed)` : '';
  if (errors + warnings === 0) return `${what}: no problems${suppressed}`;
  return `${what}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${suppressed}`;
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
  let end = next === undefined ? source.text.length : next - 1;
  if (end > start && source.text.charCodeAt(end - 1) === 0x0d) end -= 1;
  // Only the shown part of the line is copied: a long line is not read once per diagnostic.
  return end - start > 300 ? `${source.text.slice(start, start + 300)}…` : source.text.slice(start, end);
}
