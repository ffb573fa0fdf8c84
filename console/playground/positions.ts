/**
 * Maps the service's diagnostic positions onto editor offsets. Pure (no DOM), so the rules are
 * tested without a browser.
 */

/** What the mapping needs of a document: CodeMirror's `Text` has this shape. */
export interface LineIndex {
  /** The number of lines (at least 1). */
  readonly lines: number;
  /** The total length in UTF-16 code units. */
  readonly length: number;
  /** The line with a 1-based number: its start offset and its length without the line break. */
  line(number: number): { readonly from: number; readonly length: number };
}

/** A range of the document, as offsets in UTF-16 code units; `to` is exclusive and never before `from`. */
export interface OffsetRange {
  from: number;
  to: number;
}

/** A position as the service gives it: 1-based line and column, the column in UTF-16 code units (as JavaScript counts). */
export interface ServicePosition {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/**
 * The document range of a diagnostic; a position past the end of its line or of the document
 * (the text changed while the service was checking it) is clamped into the document.
 */
export function rangeOf(doc: LineIndex, position: ServicePosition): OffsetRange {
  const from = offsetOf(doc, position.line, position.column);
  const to = offsetOf(doc, position.endLine, position.endColumn);
  return { from, to: Math.max(from, to) };
}

/** The offset of a 1-based line and column, clamped into the document. */
export function offsetOf(doc: LineIndex, line: number, column: number): number {
  if (!Number.isInteger(line) || line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const target = doc.line(line);
  const within = Number.isInteger(column) && column > 1 ? column - 1 : 0;
  return target.from + Math.min(within, target.length);
}
