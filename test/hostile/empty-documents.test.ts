import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintInputs } from '../../src/operations/lint.js';
import { withoutFastPath } from '../../src/yaml/read-yaml.js';
import { parseYamlStream, withoutEmptyRuns, withRunsAsWritten } from '../../src/yaml/source.js';
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

  // Each `...` line cost the parser about 10 µs: 16 MB of them took about 45 s.
  it('a 16 MB file of `...` lines is one empty-document at 1:1', async () => {
    const run = await lintInFolder({ 'dots.yaml': '...\n'.repeat(4_190_000) }, ['dots.yaml']);
    expect(pinned(run.json)).toEqual([{ code: 'empty-document', file: 'dots.yaml', line: 1, column: 1, path: '' }]);
  });

  // Issue 41, row 8: a run of either marker alone was collapsed, not an alternation of the two nor markers with comments.
  it.each([
    ['alternating `--- ` and `...` lines', '--- \n...\n', 9],
    ['`--- #c` lines', '--- #c\n', 7],
    ['`---` and comment lines', '---\n# nothing\n\n', 15],
  ])('a 16 MB file of %s is one empty-document at 1:1', async (_name, unit, bytes) => {
    const run = await lintInFolder({ 'mixed.yaml': unit.repeat(Math.floor((16 * 1024 * 1024 - 1) / bytes)) }, ['mixed.yaml']);
    expect(pinned(run.json)).toEqual([{ code: 'empty-document', file: 'mixed.yaml', line: 1, column: 1, path: '' }]);
  });

  it('a profile, a million `...` lines and a definition: multiple-documents at the second `...`', async () => {
    const run = await lintInFolder({ 'prof.yaml': `${PROFILE}${'...\n'.repeat(1_048_576)}${definition('cache')}` }, ['prof.yaml']);
    expect(pinned(run.json)).toEqual([{ code: 'multiple-documents', file: 'prof.yaml', line: 8, column: 1, path: '' }]);
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

  it('blanks the lines between the second and the last of a run of four or more `...` lines', () => {
    expect(withoutEmptyRuns('a\n...\n...\n...\n...\nb\n...\n...\n...\n')).toBe('a\n...\n...\n   \n...\nb\n...\n...\n...\n');
    expect(withoutEmptyRuns('... \r\n...\t\n...\n...\n...\nx')).toBe('... \r\n...\t\n       \n...\nx');
    expect(withoutEmptyRuns('---\n---\n...\n...\n')).toBe('---\n---\n...\n...\n');
  });

  // Issue 41, row 8: only runs of one marker were collapsed, so 4 MB of `--- \n...\n` or of `--- #c` lines took 5 s.
  it('blanks the lines between the third marker line and the last of a run that mixes markers, comments and blank lines', () => {
    expect(withoutEmptyRuns('---\n---\n---\n...\n...\n...\n...\n')).toBe('---\n---\n---\n           \n...\n');
    expect(withoutEmptyRuns(`${'--- \n...\n'.repeat(3)}x: 1\n`)).toBe('--- \n...\n--- \n        \n...\nx: 1\n');
    expect(withoutEmptyRuns('--- #c\n'.repeat(5))).toBe('--- #c\n--- #c\n--- #c\n      \n--- #c\n');
    expect(withoutEmptyRuns(`${'---\n# c\n\n'.repeat(4)}kind: X\n`)).toBe('---\n# c\n\n---\n# c\n\n---\n    \n---\n# c\n\nkind: X\n');
    // Three markers are kept as written: nothing to gain.
    expect(withoutEmptyRuns('---\n...\n---\n')).toBe('---\n...\n---\n');
  });

  it('ends a run at a suppression comment, so every one of them is read', () => {
    const text = '---\n...\n# kurel-disable-next-line\n---\n...\n--- # kurel-disable\n---\n...\n';
    expect(withoutEmptyRuns(text)).toBe(text);
  });

  // The rule is that no verdict changes: lint reports the same of any text, its runs collapsed or as written.
  it('lint reports the same of a text with runs of marker lines as of the text parsed as written (property)', () => {
    const catalogue = createCatalogue();
    const line = fc.constantFrom(
      'apiVersion: launcher.gokure.dev/v1alpha1',
      'kind: ClusterProfile',
      'kind: CapabilityDefinition',
      'metadata:',
      '  name: prod',
      'spec:',
      '  capabilities: {}',
      '  rendering:',
      '    properties: {}',
      'x: "quoted',
      'tail"',
      'y: [a,',
      ' b]',
      'z: |',
      '  text',
      '# a comment',
      '',
      '%YAML 1.2',
      '...',
      '---',
      '... # end',
      '--- # start',
      '--- #c',
      '# kurel-disable-next-line',
      '--- # kurel-disable',
    );
    const piece = fc.oneof(
      line.map((l) => [l]),
      fc.tuple(fc.constantFrom('---', '...', '...  '), fc.integer({ min: 1, max: 9 })).map(([marker, count]) => Array(count).fill(marker) as string[]),
      // Markers mixed with comments and blank lines, in any order.
      fc.array(fc.constantFrom('---', '...', '--- ', '--- #c', '... # e', '# c', '  # c', '', '# kurel-disable'), { minLength: 1, maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.boolean(), (pieces, isDefinition) => {
        const text = `${pieces.flat().join('\n')}\n`;
        const judge = () => {
          const report = lintInputs([{ file: 'f.yaml', content: text, origin: isDefinition ? 'definition' : 'argument' }], catalogue);
          return { diagnostics: report.diagnostics, files: report.files };
        };
        expect(withoutFastPath(judge)).toEqual(withRunsAsWritten(() => withoutFastPath(judge)));
      }),
      { numRuns: 400 },
    );
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
