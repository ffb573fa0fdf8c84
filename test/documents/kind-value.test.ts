import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintInputs } from '../../src/operations/lint.js';

// A `kind` that is a map or a list is named in the message, never converted to text: a map with
// its own `toString` key made the conversion throw and the whole run crash.
describe('a kind that is not a string', () => {
  it.each([
    ['a map with a toString key', "kind:\n  toString: ''\n", 'found a map', [2, 3, 3, 1]],
    ['a list holding such a map', "kind:\n- toString: ''\n", 'found a list', [2, 1, 3, 1]],
    ['a map', 'kind: {a: 1}\n', 'found a map', [1, 7, 1, 13]],
  ])('is reported, not crashed on: %s', (_name, text, found, [line, column, endLine, endColumn]) => {
    const report = lintInputs([{ file: 'cluster.yaml', content: text, origin: 'argument' }], createCatalogue());
    expect(report.diagnostics.map((d) => [d.code, d.message, d.line, d.column, d.endLine, d.endColumn, d.path])).toEqual([
      ['invalid-value', `kind must be ClusterProfile or CapabilityDefinition, ${found}`, line, column, endLine, endColumn, '/kind'],
    ]);
  });
});
