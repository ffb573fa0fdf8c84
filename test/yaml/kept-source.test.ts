import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexedSourceText, parseYamlStream, type SourceText } from '../../src/yaml/source.js';
import { mutatedYamlText, yamlText } from './yaml-text-arbitraries.js';

// A lint run keeps the text of a file with diagnostics until it prints it (SourceText.kept):
// without its line index where the index is built again the same when the file's lines are
// printed. A printed source line or a suppression comment's line must never move.
const asParsed = (text: string) => parseYamlStream(text, 'f.yaml').source;

function expectSameLines(kept: SourceText, original: SourceText): void {
  expect(kept.file).toBe(original.file);
  expect(kept.text).toBe(original.text);
  expect(kept.lineCounter.lineStarts).toEqual(original.lineCounter.lineStarts);
  for (let offset = 0; offset <= original.text.length; offset += 5) expect(kept.span(offset, offset + 3)).toEqual(original.span(offset, offset + 3));
}

describe('SourceText.kept', () => {
  it('keeps the line index a parse filled, for every text', () => {
    fc.assert(
      fc.property(fc.oneof(yamlText, mutatedYamlText), (text) => {
        const parsed = asParsed(text);
        expectSameLines(parsed.kept(), parsed);
      }),
      { numRuns: 300 },
    );
  });

  it('builds the index of a text indexed without a parse again the same, for every text', () => {
    fc.assert(
      fc.property(fc.oneof(yamlText, mutatedYamlText, fc.string()), (text) => {
        const indexed = indexedSourceText('f.yaml', text);
        const kept = indexed.kept();
        expect(kept).not.toBe(indexed);
        expectSameLines(kept, indexed);
      }),
      { numRuns: 300 },
    );
  });

  // The parser counted the lines it read: a parse that stopped at a syntax error left out the
  // lines after it, and a diagnostic placed there got the last line it counted.
  it('indexes every line of a text whose parse stopped, from the text, and keeps it without its index', () => {
    const parsed = asParsed('a: ]\n"a\n  b": ""');
    expect(parsed.lineCounter.lineStarts).toEqual([0, 5, 8]);
    expect(parsed.span(10, 11)).toEqual({ line: 3, column: 3, endLine: 3, endColumn: 4 });
    expect(parsed.kept()).not.toBe(parsed);
    expectSameLines(parsed.kept(), parsed);
  });

  it('indexes CRLF and LF line ends and a last line without a line end, from the text', () => {
    const kept = indexedSourceText('f.yaml', 'a: 1\r\nb:\n  - x\r\nc: 3').kept();
    expect(kept.lineCounter.lineStarts).toEqual([0, 6, 9, 16]);
    expect(kept.span(18, 19)).toEqual({ line: 4, column: 3, endLine: 4, endColumn: 4 });
  });
});
