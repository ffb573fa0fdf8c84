import { describe, expect, it } from 'vitest';
import { withBindings } from '../helpers/profile.js';
import { definition, errorAt, load, pinned, prop, warningAt } from './helpers.js';

const both = (first: [string, string], second: [string, string]) =>
  [
    ['in file order', [first, second]],
    ['in reverse order', [second, first]],
  ] as const;

const described = (specDescription: string, keyDescription: string) =>
  `${[
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    '  name: my-trait',
    'spec:',
    `  description: ${specDescription}`,
    '  rendering:',
    '    properties:',
    `      key: {type: string, description: ${keyDescription}}`,
  ].join('\n')}\n`;

describe('definitions with the same name and the same validation schema', () => {
  it.each(both(['defs/a.yaml', definition('key: {type: string}')], ['defs/b.yaml', definition('key: {type: string}')]))(
    'are de-duplicated silently when identical (%s), keeping the file that sorts first',
    (_order, files) => {
      const loaded = load([...files]);
      expect(pinned(loaded)).toEqual([]);
      expect(loaded.registry.definition('my-trait')?.file).toBe('defs/a.yaml');
    },
  );

  it.each([
    [
      'rendering: {} and no rendering',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering: {}\n',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\n',
    ],
    [
      'properties: null and properties: {}',
      definition(''),
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:\n    properties: {}\n',
    ],
    ['required: false and no required', definition('key: {type: string, required: false}'), definition('key: {type: string}')],
    [
      'additionalProperties: false and a closed object by default',
      definition('opts: {type: object, additionalProperties: false}'),
      definition('opts: {type: object}'),
    ],
    ['properties in another order', definition('a: {type: string}\nb: {type: integer}'), definition('b: {type: integer}\na: {type: string}')],
    [
      'labels and annotations that differ',
      definition('key: {type: string}').replace('  name: my-trait', '  name: my-trait\n  labels: {team: a}'),
      definition('key: {type: string}'),
    ],
  ])('treat %s as the same definition', (_name, first, second) => {
    expect(pinned(load({ 'defs/a.yaml': first, 'defs/b.yaml': second }))).toEqual([]);
  });

  it.each(both(['defs/a.yaml', described('first text', 'one')], ['defs/b.yaml', described('second text', 'two')]))(
    'warn definition-duplicate at the later file when only descriptions differ (%s), and use the earlier one',
    (_order, files) => {
      const loaded = load([...files]);
      expect(pinned(loaded)).toEqual([warningAt('defs/b.yaml', 'definition-duplicate', 4, 9, '/metadata/name')]);
      expect(loaded.report.diagnostics[0]?.message).toBe(
        'definition "my-trait" in defs/b.yaml repeats the one in defs/a.yaml with other descriptions; the one in defs/a.yaml is used',
      );
      expect(loaded.registry.definition('my-trait')).toMatchObject({ file: 'defs/a.yaml', description: 'first text' });
    },
  );
});

describe('definitions with the same name and differing schemas', () => {
  const a = definition('key:\n  type: string');
  const b = definition('key:\n  type: integer');

  it.each(both(['defs/a.yaml', a], ['defs/b.yaml', b]))('report definition-conflict at the file that sorts later (%s)', (_order, files) => {
    const loaded = load([...files]);
    expect(pinned(loaded)).toEqual([errorAt('defs/b.yaml', 'definition-conflict', 9, 9, prop('key', 'type'))]);
    expect(loaded.report.diagnostics[0]?.message).toBe(
      'definition "my-trait" in defs/b.yaml conflicts with the one in defs/a.yaml: they first differ at spec.rendering.properties.key.type ("integer" in defs/b.yaml, "string" in defs/a.yaml); neither is used',
    );
  });

  it('load neither definition and leave the bindings of that name quiet', () => {
    const profile = withBindings('my-trait:\n  rendering:\n    key: [anything]\n    other: 1');
    const loaded = load({ 'defs/a.yaml': a, 'defs/b.yaml': b }, profile);
    expect(pinned(loaded)).toEqual([errorAt('defs/b.yaml', 'definition-conflict', 9, 9, prop('key', 'type'))]);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it.each([
    ['required added', 'key: {type: string}', 'key:\n  type: string\n  required: true', 10, 9, prop('key', 'required')],
    ['required dropped (the later file does not write it)', 'key: {type: string, required: true}', 'key:\n  type: string', 8, 7, prop('key', 'required')],
    ['a different default', 'key: {type: integer, default: 1}', 'key:\n  type: integer\n  default: 2', 10, 9, prop('key', 'default')],
    ['a different enum', 'key: {type: string, enum: [a, b]}', 'key:\n  type: string\n  enum: [a, c]', 10, 9, prop('key', 'enum')],
    ['a different pattern', 'key: {type: string, pattern: "^a$"}', 'key:\n  type: string\n  pattern: "^b$"', 10, 9, prop('key', 'pattern')],
    ['a property only the later file declares', 'key: {type: string}', 'key: {type: string}\nextra: {type: string}', 9, 7, prop('extra')],
    ['a property only the earlier file declares', 'key: {type: string}\nextra: {type: string}', 'key: {type: string}', 7, 5, prop('extra')],
    ['an object opened to any key', 'opts: {type: object}', 'opts:\n  type: object\n  additionalProperties: true', 10, 9, prop('opts', 'additionalProperties')],
    [
      'a difference in a nested declaration',
      'tls: {type: object, properties: {mode: {type: string, enum: [a]}}}',
      'tls:\n  type: object\n  properties:\n    mode: {type: string, enum: [b]}',
      11,
      32,
      prop('tls', 'properties', 'mode', 'enum'),
    ],
    [
      'a difference in list items',
      'ports: {type: array, items: {type: integer}}',
      'ports:\n  type: array\n  items:\n    type: integer\n    maximum: 10',
      12,
      11,
      prop('ports', 'items', 'maximum'),
    ],
  ])('name the first differing path: %s', (_name, earlier, later, line, column, path) => {
    const loaded = load({ 'defs/a.yaml': definition(earlier), 'defs/b.yaml': definition(later) });
    expect(pinned(loaded)).toEqual([errorAt('defs/b.yaml', 'definition-conflict', line, column, path)]);
  });

  it('orders paths byte-wise, so an upper-case name sorts before a lower-case one', () => {
    const loaded = load({ 'defs/a.yaml': b, 'defs/Z.yaml': a });
    expect(pinned(loaded)).toEqual([errorAt('defs/a.yaml', 'definition-conflict', 9, 9, prop('key', 'type'))]);
  });

  it('orders paths by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF21 is EF BC A1 in UTF-8 and U+1F600 is F0 9F 98 80, though its UTF-16 form (D83D…) sorts first.
    const fullwidth = 'defs/\uFF21.yaml';
    const emoji = 'defs/\u{1F600}.yaml';
    for (const files of [
      { [fullwidth]: a, [emoji]: b },
      { [emoji]: b, [fullwidth]: a },
    ]) {
      expect(pinned(load(files))).toEqual([errorAt(emoji, 'definition-conflict', 9, 9, prop('key', 'type'))]);
    }
  });

  it('compares every later file with the first, reporting only those that differ', () => {
    const loaded = load({ 'defs/c.yaml': b, 'defs/b.yaml': a, 'defs/a.yaml': a });
    expect(pinned(loaded)).toEqual([errorAt('defs/c.yaml', 'definition-conflict', 9, 9, prop('key', 'type'))]);
  });

  it('reports a conflict between two documents of one file at the second, telling them apart by line', () => {
    const loaded = load({ 'defs/all.yaml': [a, b].join('---\n') });
    expect(pinned(loaded)).toEqual([errorAt('defs/all.yaml', 'definition-conflict', 19, 9, prop('key', 'type'))]);
    expect(loaded.report.diagnostics[0]?.message).toMatch(
      /^definition "my-trait" in defs\/all\.yaml \(document on line 10\) conflicts with the one in defs\/all\.yaml \(document on line 1\):/,
    );
  });

  it('compares the type before the other keywords of a property', () => {
    const loaded = load({
      'defs/a.yaml': definition('port: {type: integer, default: 6379}'),
      'defs/b.yaml': definition('port: {default: "6379", type: string}'),
    });
    expect(pinned(loaded)).toEqual([errorAt('defs/b.yaml', 'definition-conflict', 8, 31, prop('port', 'type'))]);
    expect(loaded.report.diagnostics[0]?.message).toContain(
      'they first differ at spec.rendering.properties.port.type ("string" in defs/b.yaml, "integer" in defs/a.yaml)',
    );
  });

  it('does not compare a definition that has errors of its own: its error explains the name', () => {
    const broken = definition('key: {type: string, enum: []}');
    const loaded = load({ 'defs/a.yaml': broken, 'defs/b.yaml': b }, withBindings('my-trait:\n  rendering: {key: x}'));
    expect(pinned(loaded)).toEqual([errorAt('defs/a.yaml', 'definition-invalid', 8, 33, prop('key', 'enum'))]);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });
});
