import { describe, expect, it } from 'vitest';
import { parseYamlStream } from '../../src/yaml/source.js';

// Issue #10, item 10: a text nesting far beyond the limit (more than a thousand collections
// past it) is refused while it is lexed, before the parser holds it level by level; only what
// is certain counts, and the position is where the limit is passed.
const read = (text: string) => {
  const stream = parseYamlStream(text, 'f.yaml');
  return [...stream.diagnostics, ...stream.documents.flatMap((d) => d.diagnostics)].map((d) => ({
    code: d.code,
    line: d.line,
    column: d.column,
    path: d.path,
  }));
};
const MANY = 5_000;

describe('nesting far beyond the limit', () => {
  it('is too-deep at the flow collection that passes the limit', () => {
    expect(read(`a: ${'['.repeat(MANY)}${']'.repeat(MANY)}\n`)).toEqual([{ code: 'too-deep', line: 1, column: 131, path: '' }]);
  });

  it('is too-deep at the flow collection that passes the limit, counting the block levels by indentation', () => {
    // Four block maps, then the 125th "[" (from column 10 of line 4) is level 129.
    expect(read(`a:\n  b:\n    c:\n      d: ${'['.repeat(MANY)}${']'.repeat(MANY)}\n`)).toEqual([{ code: 'too-deep', line: 4, column: 134, path: '' }]);
  });

  it('is too-deep in compact block sequences, and in flows they hold', () => {
    expect(read(`${'- '.repeat(MANY)}x\n`)).toEqual([{ code: 'too-deep', line: 1, column: 257, path: '' }]);
    expect(read(`${'- '.repeat(100)}${'{a: '.repeat(MANY)}${'}'.repeat(MANY)}\n`)).toEqual([{ code: 'too-deep', line: 1, column: 201 + 4 * 28, path: '' }]);
  });

  it('is too-deep in the document that nests, after the documents before it', () => {
    expect(read(`a: [1]\n---\nb: ${'{c: '.repeat(MANY)}1${'}'.repeat(MANY)}\n`)).toEqual([{ code: 'too-deep', line: 3, column: 4 + 4 * 127, path: '' }]);
  });

  it('is too-deep when the collections are never closed', () => {
    expect(read(`a: ${'['.repeat(MANY)}\n`)).toEqual([{ code: 'too-deep', line: 1, column: 131, path: '' }]);
  });
});

describe('characters that open collections elsewhere', () => {
  const openers = '[{'.repeat(MANY);
  it.each([
    ['a plain scalar', `a: x${openers}\n`],
    ['a double-quoted scalar', `a: "${openers}"\n`],
    ['a single-quoted scalar over lines', `a: '${'[\n  '.repeat(MANY)}'\n`],
    ['a comment', `a: 1 # ${openers}\n`],
    ['a literal block scalar', `a: |\n  ${openers}\n  - - - - ${'- '.repeat(MANY)}\n`],
    ['a folded block scalar in a list', `- >\n  ${openers}\n`],
    ['list items each on its own line', `${'- |\n  text\n'.repeat(MANY)}`],
    ['dashes after a key', `a: ${'- '.repeat(MANY)}\n`],
    ['many shallow flow collections', `${'- [[1], {a: [2]}]\n'.repeat(MANY)}`],
  ])('is read as the text it is in %s', (_name, text) => {
    expect(read(text).filter((d) => d.code === 'too-deep')).toEqual([]);
  });

  it('leaves nesting a little beyond the limit to the reader, which names the path', () => {
    // 130 levels: two collections past the limit, not a thousand.
    expect(read(`a: ${'['.repeat(130)}${']'.repeat(130)}\n`)).toEqual([{ code: 'too-deep', line: 1, column: 131, path: `/a${'/0'.repeat(127)}` }]);
  });
});
