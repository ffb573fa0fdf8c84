import type { Diagnostic } from '../../core/diagnostics.js';
import { escapeControls } from './escape.js';

/**
 * Formats diagnostics as GitHub Actions workflow commands, one annotation per line:
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=<code>::<message>`. A clean run
 * prints no annotation.
 */
export function formatGithub(diagnostics: readonly Diagnostic[], positioned: (d: Diagnostic) => boolean = () => true): string {
  return diagnostics.map((d) => annotationOf(d, positioned(d))).join('\n');
}

function annotationOf(d: Diagnostic, positioned: boolean): string {
  // An annotation's columns must lie on one line, and GitHub's endColumn is the last column
  // marked; a span over several lines is pointed at by its start.
  const oneLine = d.endLine === d.line;
  const endColumn = oneLine ? Math.max(d.column, d.endColumn - 1) : d.column;
  // A problem with no place in a file (an unreadable path, the command line) names no line;
  // one with no file at all (`<command line>`) names no file.
  const file = ['file', escapeControls(d.file)];
  const unplaced = d.file.startsWith('<') ? [] : [file];
  const place = positioned
    ? [file, ['line', String(d.line)], ['col', String(d.column)], ['endLine', String(d.line)], ['endColumn', String(endColumn)]]
    : unplaced;
  const properties = [...place, ['title', d.code]].map(([name, value]) => `${name}=${escapeProperty(value!)}`).join(',');
  // Only the line between message and hint is a real line break; the input's are escaped.
  const message = d.hint ? `${escapeControls(d.message)}\n${escapeControls(d.hint)}` : escapeControls(d.message);
  return `::${d.severity} ${properties}::${escapeData(message)}`;
}

/** Escapes a workflow command's message as the runner expects. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command property value: also `:` and `,`, which delimit properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
