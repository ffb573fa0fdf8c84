import type { Diagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { escapeControls } from './escape.js';

/**
 * Formats a lint run as JUnit XML: one test case per file (files that were read, and any other
 * file a diagnostic names, such as an unreadable path), a `<failure>` per diagnostic, a
 * `<skipped>` for a file that was not linted. A clean run is a suite of passing test cases.
 */
export function formatJunit(diagnostics: readonly Diagnostic[], files: readonly FileReport[]): string {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const skipped = new Map(files.filter((f) => f.status === 'skipped').map((f) => [f.path, f.reason ?? 'not linted']));
  const listed = new Set(files.map((f) => f.path));
  const names = [...listed, ...[...byFile.keys()].filter((file) => !listed.has(file)).sort()];

  const cases = names.map((name) => {
    const shown = escapeXmlAttribute(escapeControls(name));
    const open = `    <testcase name="${shown}" classname="kurel.lint" file="${shown}"`;
    const failures = byFile.get(name) ?? [];
    const reason = skipped.get(name);
    if (failures.length === 0 && reason === undefined) return `${open}/>`;
    const body = [
      ...(reason !== undefined && failures.length === 0 ? [`      <skipped message="${escapeXmlAttribute(escapeControls(reason))}"/>`] : []),
      ...failures.map(failureOf),
    ];
    return [`${open}>`, ...body, '    </testcase>'].join('\n');
  });
  const failureCount = names.filter((name) => byFile.has(name)).length;
  const skippedCount = names.filter((name) => skipped.has(name) && !byFile.has(name)).length;
  const counts = `tests="${names.length}" failures="${failureCount}" errors="0" skipped="${skippedCount}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="kurel lint" ${counts}>`,
    `  <testsuite name="kurel lint" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

// Its lines are the only line breaks of a failure; the input's are escaped, as its other controls.
function failureOf(d: Diagnostic): string {
  const message = escapeControls(d.message);
  const where = `${escapeControls(d.file)}:${d.line}:${d.column}`;
  const text = [
    `${where} ${d.severity} ${d.code} ${message}`,
    ...(d.path ? [`path: ${escapeControls(d.path)}`] : []),
    ...(d.hint ? [`hint: ${escapeControls(d.hint)}`] : []),
  ].join('\n');
  return `      <failure type="${d.code}" message="${escapeXmlAttribute(`${d.severity}: ${message}`)}">${escapeXml(text)}</failure>`;
}

/**
 * Escapes text for XML content; characters XML 1.0 cannot hold at all (most control
 * characters, lone surrogates) become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes text for an XML attribute value, keeping line breaks and tabs (which parsers turn into spaces). */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
