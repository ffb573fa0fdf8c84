import type { Diagnostic } from '../../core/diagnostics.js';
import type { FileReport } from '../../core/input.js';
import { escapeControls } from './escape.js';

/**
 * Formats a lint run as JUnit XML: one test case per file (files that were read, and any other
 * file a diagnostic names, such as an unreadable path), a `<failure>` per diagnostic that fails
 * the run (errors; warnings too under `strict`), the other warnings in the case's
 * `<system-out>`, a `<skipped>` for a file that was not linted. A run that exits 0 is a suite
 * of passing test cases.
 */
export function formatJunit(
  diagnostics: readonly Diagnostic[],
  files: readonly FileReport[],
  options: { strict?: boolean; positioned?: (d: Diagnostic) => boolean } = {},
): string {
  const positioned = options.positioned ?? (() => true);
  const failureOf = (d: Diagnostic) =>
    `      <failure type="${d.code}" message="${escapeXmlAttribute(`${d.severity}: ${escapeControls(d.message)}`)}">${escapeXml(describe(d, positioned(d)))}</failure>`;
  const fails = (d: Diagnostic) => d.severity === 'error' || options.strict === true;
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
    // Jenkins' xunit junit-10.xsd allows a test case name, classname, time and group only: the file is its name.
    const open = `    <testcase name="${shown}" classname="kurel.lint"`;
    const found = byFile.get(name) ?? [];
    const failures = found.filter(fails);
    const notes = found.filter((d) => !fails(d));
    const reason = skipped.get(name);
    if (found.length === 0 && reason === undefined) return `${open}/>`;
    const body = [
      ...(reason !== undefined && found.length === 0 ? [`      <skipped message="${escapeXmlAttribute(escapeControls(reason))}"/>`] : []),
      ...failures.map(failureOf),
      ...(notes.length > 0 ? [`      <system-out>${escapeXml(notes.map((d) => describe(d, positioned(d))).join('\n'))}</system-out>`] : []),
    ];
    return [`${open}>`, ...body, '    </testcase>'].join('\n');
  });
  const failureCount = names.filter((name) => (byFile.get(name) ?? []).some(fails)).length;
  const skippedCount = names.filter((name) => skipped.has(name) && !byFile.has(name)).length;
  const counts = `tests="${names.length}" failures="${failureCount}" errors="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // `skipped` is counted on the suite only: junit-10.xsd has no such attribute on testsuites.
    `<testsuites name="kurel lint" ${counts}>`,
    `  <testsuite name="kurel lint" ${counts} skipped="${skippedCount}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

// Its lines are the only line breaks of a failure or a note; the input's are escaped, as its other controls.
function describe(d: Diagnostic, positioned: boolean): string {
  const where = positioned ? `${escapeControls(d.file)}:${d.line}:${d.column}` : `${escapeControls(d.file)}:`;
  return [
    `${where} ${d.severity} ${d.code} ${escapeControls(d.message)}`,
    ...(d.path ? [`path: ${escapeControls(d.path)}`] : []),
    ...(d.hint ? [`hint: ${escapeControls(d.hint)}`] : []),
  ].join('\n');
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
