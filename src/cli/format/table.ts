/**
 * A plain-text table: a header row, then one row per entry, columns padded to their widest
 * cell and separated by two spaces; the last column is not padded. Cells are one line each,
 * with control and bidirectional characters escaped, so no input moves a terminal's cursor.
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [[...headers], ...rows.map((row) => row.map(escapeCell))];
  const widths = headers.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

function escapeCell(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
