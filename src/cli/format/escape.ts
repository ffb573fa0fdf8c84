// C0 controls but tab, DEL, C1 controls, the line and paragraph separators, and the
// bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
const UNSAFE_CLASS = '[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';
const UNSAFE = new RegExp(UNSAFE_CLASS, 'g');
const UNSAFE_CHARACTER = new RegExp(`^${UNSAFE_CLASS}$`);
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' };

/**
 * Text from the input (keys, values, source lines, file paths) made safe to print: control
 * characters and bidirectional controls are written as escapes (`\u001b`, `\n`, `\u202e`), so
 * no input can move a terminal's cursor, reorder what is shown, or start a line of its own (a
 * CI workflow command). Tabs are kept, so source lines stay aligned (docs/profiles.md).
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/** The width of `text`'s code units from `start` to `end` once escaped. */
export function escapedWidth(text: string, start: number, end: number): number {
  let width = 0;
  for (let i = start; i < end; i++) width += escapeCharacter(text.charAt(i)).length;
  return width;
}

/**
 * White space as wide as `text`'s first `end` code units once escaped, its tabs kept as tabs:
 * what puts a caret under a column of the escaped line.
 */
export function escapedIndent(text: string, end: number): string {
  let indent = '';
  for (let i = 0; i < end; i++) {
    const c = text.charAt(i);
    indent += c === '\t' ? '\t' : ' '.repeat(escapeCharacter(c).length);
  }
  return indent;
}

function escapeCharacter(c: string): string {
  if (!UNSAFE_CHARACTER.test(c)) return c;
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
