import { describe, expect, it } from 'vitest';
import { error } from '../../src/core/diagnostics.js';
import { parseYamlStream } from '../../src/yaml/source.js';

// Issue #10, item 6: positioning is linear in the size of the document (docs/profiles.md). Each document
// here made the old code rescan a map or a list once per diagnostic, billions of steps for about
// 1 MB of text, so each test would run for minutes; now each is a parse and a pass.

describe('positioning many diagnostics', () => {
  it('names the first occurrence of a key repeated 60,000 times after 60,000 keys', () => {
    const keys = Array.from({ length: 60_000 }, (_, i) => `  k${i}: v\n`).join('');
    const document = parseYamlStream(`map:\n${keys}${'  k59999: v\n'.repeat(60_000)}`, 'f.yaml').documents[0]!;
    expect(document.diagnostics).toHaveLength(60_000);
    // k59999 is on line 60001, its repeats on the lines after it.
    expect([document.diagnostics[0], document.diagnostics[59_999]].map((d) => [d?.code, d?.line, d?.column, d?.path, d?.message])).toEqual([
      ['duplicate-key', 60_002, 3, '/map/k59999', 'duplicate key "k59999" (first defined on line 60001)'],
      ['duplicate-key', 120_001, 3, '/map/k59999', 'duplicate key "k59999" (first defined on line 60001)'],
    ]);
  });

  it('points 60,000 aliases of an anchor name defined 60,000 times at each alias and its own anchor', () => {
    // Each alias means the anchor of the same name just before it.
    const pairs = Array.from({ length: 60_000 }, (_, i) => `  - &a x${i}\n  - *a\n`).join('');
    const document = parseYamlStream(`list:\n${pairs}`, 'f.yaml').documents[0]!;
    const positions = Array.from({ length: 60_000 }, (_, i) => document.toDiagnostic(error('wrong-type', ['list', 2 * i + 1], 'bad')));
    expect([positions[0], positions[59_999]].map((d) => [d?.line, d?.column, d?.path, d?.message])).toEqual([
      [3, 5, '/list/1', 'bad (value from the anchor on line 2)'],
      [120_001, 5, '/list/119999', 'bad (value from the anchor on line 120000)'],
    ]);
  });

  it('points 40,000 keys merged into a map of 50,000 keys at the merged alias', () => {
    const merged = Array.from({ length: 40_000 }, (_, i) => `m${i}: 1`).join(', ');
    const own = Array.from({ length: 50_000 }, (_, i) => `k${i}: 1`).join(', ');
    const document = parseYamlStream(`base: &b {${merged}}\nmap: {<<: *b, ${own}}\n`, 'f.yaml').documents[0]!;
    expect(document.diagnostics).toEqual([]);
    const positions = Array.from({ length: 40_000 }, (_, i) => document.toDiagnostic(error('unknown-field', ['map', `m${i}`], 'unknown')));
    expect(new Set(positions.map((d) => `${d.line}:${d.column}:${d.endColumn} ${d.message}`))).toEqual(
      new Set(['2:11:13 unknown (value from the anchor on line 1)']),
    );
  });
});
