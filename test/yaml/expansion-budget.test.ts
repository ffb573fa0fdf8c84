import { describe, expect, it } from 'vitest';
import { parseYamlStream } from '../../src/yaml/source.js';
import { expansionBudget } from '../../src/yaml/to-data.js';

// Issue #10, item 3 (docs/profiles.md): a document may produce at most max(10 x its source
// nodes, 10,000) values, and 1,000,000 at most, whatever its alias count.
const read = (text: string) => {
  const document = parseYamlStream(text, 'f.yaml').documents[0]!;
  return {
    data: document.data,
    diagnostics: document.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path, message: d.message })),
  };
};
const list = (n: number) => `[${Array(n).fill('x').join(', ')}]`;

describe('the expansion budget', () => {
  it.each([
    [0, 10_000],
    [1_000, 10_000],
    [1_001, 10_010],
    [100_000, 1_000_000],
    [5_000_000, 1_000_000],
  ])('allows a document of %i source nodes %i values', (nodes, budget) => {
    expect(expansionBudget(nodes)).toBe(budget);
  });

  it('counts an alias as its whole value each time it is used, and stops at the alias that crosses', () => {
    // Nodes: the root map, keys a and b, two lists, 2,000 items and 20 aliases: 2,025, so the
    // budget is 20,250. Before b's aliases the data holds 2,005 values; each *a adds 2,001,
    // and the tenth (column 41) takes the total to 22,015.
    const text = `a: &a ${list(2_000)}\nb: [${Array(20).fill('*a').join(', ')}]\n`;
    expect(read(text).diagnostics).toEqual([
      {
        code: 'alias-limit',
        line: 2,
        column: 41,
        path: '/b/9',
        message: 'alias *a expands the document beyond 20250 values, the limit for a document of 2025 nodes (anchor on line 1)',
      },
    ]);
  });

  it('reads the same aliases when they stay within the budget', () => {
    const { data, diagnostics } = read(`a: &a ${list(2_000)}\nb: [${Array(9).fill('*a').join(', ')}]\n`);
    expect(diagnostics).toEqual([]);
    expect((data as { b: unknown[][] }).b.map((item) => item.length)).toEqual(Array(9).fill(2_000));
  });

  it('allows small documents 10,000 values, more than their ten-fold', () => {
    // 254 nodes (a list of 200 items, 49 aliases): the floor of 10,000, not 2,540, decides. The
    // data holds 205 values before b's aliases and each adds 201, so the 49th crosses 10,000.
    const text = (aliases: number) => `a: &a ${list(200)}\nb: [${Array(aliases).fill('*a').join(', ')}]\n`;
    expect(read(text(49)).diagnostics.map((d) => [d.code, d.path])).toEqual([['alias-limit', '/b/48']]);
    expect(read(text(48)).diagnostics).toEqual([]);
  });

  it('counts the keys a merge copies, each key once', () => {
    // The base map is 2,003 values with the root and its key. Each merged map adds 2,002 (its key,
    // itself, 1,000 copied keys and values), whether it merges the base once or twice: nine fit a
    // budget of ten times 2,057 nodes (20,021 values of 20,570), a tenth crosses at its alias.
    const base = `base: &b {${Array.from({ length: 1_000 }, (_, i) => `k${i}: 1`).join(', ')}}\n`;
    const twice = Array.from({ length: 9 }, (_, i) => `m${i}: {<<: [*b, *b]}\n`).join('');
    expect(read(base + twice).diagnostics).toEqual([]);
    const once = Array.from({ length: 10 }, (_, i) => `m${i}: {<<: *b}\n`).join('');
    expect(read(base + once).diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['alias-limit', 11, 10, '/m9']]);
  });

  it('stops a chain of merges whose maps grow by a key at each link', () => {
    // 1,897 nodes: the root, l0 (102) and 6 per link. Link i adds 102 + 2i values (its key, map,
    // own key and value, and the 49 + i keys it copies with their values): 18,913 values after
    // link 95, so the 96th crosses the budget of 18,970.
    const links = Array.from({ length: 300 }, (_, i) =>
      i === 0 ? `l0: &l0 {${Array.from({ length: 50 }, (_, k) => `k${k}: 1`).join(', ')}}` : `l${i}: &l${i} {<<: *l${i - 1}, own${i}: 1}`,
    );
    expect(read(`${links.join('\n')}\n`).diagnostics.map((d) => [d.code, d.line, d.path, d.message])).toEqual([
      ['alias-limit', 97, '/l96', 'alias *l95 expands the document beyond 18970 values, the limit for a document of 1897 nodes (anchor on line 96)'],
    ]);
  });
});
