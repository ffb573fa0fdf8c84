import { describe, expect, it } from 'vitest';
import { parseYamlStream, withoutEmptyRuns } from '../../src/yaml/source.js';
import { lintInFolder, PROFILE_HEAD, pinned } from './in-process.js';

// Issue 25, row 2: a file of `---\n` × 4,190,000 (16 MB) was 4.4 GB and an abort after 57 s:
// the reader kept a document object per `---`, about 360 bytes of memory per input byte. The
// verdicts below are the ones the reader always gave; only its cost changed.

const PROFILE = `${PROFILE_HEAD}  capabilities: {}\n`;
const definition = (name: string) =>
  `apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: ${name}\nspec:\n  rendering:\n    properties: {}\n`;

describe('millions of empty documents (issue 25, row 2)', () => {
  it('a 16 MB file of `---` lines is one empty-document at 1:1', async () => {
    const run = await lintInFolder({ 'dashes.yaml': '---\n'.repeat(4_190_000) }, ['dashes.yaml']);
    expect(run.code).toBe(1);
    expect(pinned(run.json)).toEqual([{ code: 'empty-document', file: 'dashes.yaml', line: 1, column: 1, path: '' }]);
  });

  it('a file of 65,536 `...` lines is one empty-document at 1:1', async () => {
    const run = await lintInFolder({ 'dots.yaml': '...\n'.repeat(65_536) }, ['dots.yaml']);
    expect(pinned(run.json)).toEqual([{ code: 'empty-document', file: 'dots.yaml', line: 1, column: 1, path: '' }]);
  });

  it('a profile followed by a million `---` lines is clean', async () => {
    const run = await lintInFolder({ 'prof.yaml': PROFILE + '---\n'.repeat(1_048_576) }, ['prof.yaml']);
    // Empty documents at the end of a stream are dropped: the profile is the file's only document.
    expect({ code: run.code, diagnostics: pinned(run.json) }).toEqual({ code: 0, diagnostics: [] });
  });

  it('a profile, a million `---` lines and a definition: multiple-documents at the first `---`', async () => {
    const run = await lintInFolder({ 'prof.yaml': `${PROFILE}${'---\n'.repeat(1_048_576)}${definition('cache')}` }, ['prof.yaml']);
    expect(pinned(run.json)).toEqual([{ code: 'multiple-documents', file: 'prof.yaml', line: 7, column: 1, path: '' }]);
  });

  it('definitions around a million empty documents all load, and a mistake after them is positioned on its line', async () => {
    const text = `${definition('cache')}${'---\n# nothing\n'.repeat(50_000)}---\n${definition('queue')}---\n${definition('Bad_Name')}`;
    const run = await lintInFolder({ 'defs.yaml': text }, ['defs.yaml']);
    expect(run.json.files.map((f) => [f.path, f.kind, f.status])).toEqual([['defs.yaml', 'CapabilityDefinition', 'checked']]);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['invalid-value', 100_020, 9, '/metadata/name']]);
  });

  it('a profile after a run of `---` lines is judged as the first document was', async () => {
    const run = await lintInFolder({ 'prof.yaml': `${'---\n'.repeat(1_048_576)}${PROFILE}` }, ['prof.yaml']);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['wrong-type', 1, 4, '']]);
  });
});

describe('the text the parser reads', () => {
  it('blanks the lines between the first and the last of a run of three or more `---` lines, keeping every offset', () => {
    expect(withoutEmptyRuns('a\n---\n---\n---\nb\n---\n---\n')).toBe('a\n---\n   \n---\nb\n---\n---\n');
    expect(withoutEmptyRuns('--- \r\n---\t\n---\n---\nx')).toBe('--- \r\n        \n---\nx');
    expect(withoutEmptyRuns('---\n---\n')).toBe('---\n---\n');
    expect(withoutEmptyRuns('x: |\n  ---\n  ---\n  ---\n')).toBe('x: |\n  ---\n  ---\n  ---\n');
  });

  it('keeps the lines and the documents the parser reports around a run', () => {
    const text = `a: 1\n${'---\n'.repeat(5)}b: 2\n`;
    const stream = parseYamlStream(text, 'x.yaml');
    expect(stream.documents.map((d) => [d.start, d.isEmpty, d.data])).toEqual([
      [0, false, { a: 1 }],
      [5, true, null],
      [21, false, { b: 2 }],
    ]);
    expect([stream.source.span(21, 22), stream.source.span(25, 26)]).toEqual([
      { line: 6, column: 1, endLine: 6, endColumn: 2 },
      { line: 7, column: 1, endLine: 7, endColumn: 2 },
    ]);
  });
});
