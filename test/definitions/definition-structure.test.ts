import { describe, expect, it } from 'vitest';
import { dedent } from '../helpers/profile.js';
import { definition, errorAt, load, pinned, prop } from './helpers.js';

const FILE = 'defs/cap.yaml';
const loadOne = (text: string) => load({ [FILE]: text });
const doc = (text: string) => `${dedent(text).join('\n')}\n`;

describe('CapabilityDefinition structure', () => {
  it('loads a valid definition with no diagnostics', () => {
    const loaded = loadOne(definition('timeout:\n  type: integer\n  required: true\nmode:\n  type: string\n  default: auto'));
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')).toMatchObject({ name: 'my-trait', file: FILE });
  });

  it.each([
    ['no spec', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}'],
    ['an empty spec', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec: {}'],
    ['a null rendering', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:'],
    [
      'null properties',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:\n    properties:',
    ],
  ])('loads a definition with %s as accepting no rendering keys', (_name, text) => {
    const loaded = loadOne(text);
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')?.schema).toMatchObject({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('accepts metadata namespace, labels and annotations', () => {
    const text = doc(`
      apiVersion: launcher.gokure.dev/v1alpha1
      kind: CapabilityDefinition
      metadata:
        name: my-trait
        namespace: platform
        labels: {team: data}
        annotations: {docs: "https://example.com"}
    `);
    expect(pinned(loadOne(text))).toEqual([]);
  });

  it.each([
    ['a wrong apiVersion', 'apiVersion: wrong.group/v1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}', 'invalid-value', 1, 13, '/apiVersion'],
    ['an empty name', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: ""', 'invalid-value', 4, 9, '/metadata/name'],
    [
      'a name that is not a DNS-1123 label',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: my.trait',
      'invalid-value',
      4,
      9,
      '/metadata/name',
    ],
    [
      'an upper-case name',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: MyTrait',
      'invalid-value',
      4,
      9,
      '/metadata/name',
    ],
    [
      'a missing name',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  namespace: x',
      'missing-required',
      3,
      1,
      '/metadata/name',
    ],
    [
      'an unknown metadata field',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: my-trait\n  owner: me',
      'unknown-field',
      5,
      3,
      '/metadata/owner',
    ],
    [
      'a label that is not a string',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: my-trait\n  labels: {tier: 1}',
      'wrong-type',
      5,
      18,
      '/metadata/labels/tier',
    ],
    [
      'an unknown spec field',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  renderings: {}',
      'unknown-field',
      5,
      3,
      '/spec/renderings',
    ],
    [
      'a description that is not a string',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  description: [a]',
      'wrong-type',
      5,
      16,
      '/spec/description',
    ],
    [
      'a key directly under rendering',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:\n    type: string',
      'unknown-field',
      6,
      5,
      '/spec/rendering/type',
    ],
    [
      'properties written as a list',
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:\n    properties: []',
      'wrong-type',
      6,
      17,
      '/spec/rendering/properties',
    ],
  ])('reports %s with a generic code at its position', (_name, text, code, line, column, path) => {
    expect(pinned(loadOne(`${text}\n`))).toEqual([errorAt(FILE, code, line, column, path)]);
  });

  it('names the keys allowed under rendering when another is written there', () => {
    const text = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: my-trait}\nspec:\n  rendering:\n    bogusfield: {}\n';
    expect(loadOne(text).report.diagnostics[0]?.message).toBe('unknown field "bogusfield" in spec.rendering (allowed: properties)');
  });
});

describe('property declarations', () => {
  it.each([
    ['a scalar declaration', 'mode: hello', 'wrong-type', 8, 13, prop('mode')],
    ['a list declaration', 'mode: [string]', 'wrong-type', 8, 13, prop('mode')],
    ['an unknown keyword', 'mode:\n  type: string\n  requird: true', 'unknown-field', 10, 9, prop('mode', 'requird')],
    ['an unknown type', 'mode:\n  type: strng', 'invalid-value', 9, 15, prop('mode', 'type')],
    ['a quoted boolean for required', 'mode:\n  type: string\n  required: "yes"', 'wrong-type', 10, 19, prop('mode', 'required')],
    ['a fractional minLength', 'mode:\n  type: string\n  minLength: 1.5', 'wrong-type', 10, 20, prop('mode', 'minLength')],
    ['a string minimum', 'mode:\n  type: integer\n  minimum: "1"', 'wrong-type', 10, 18, prop('mode', 'minimum')],
    ['an enum that is not a list', 'mode:\n  type: string\n  enum: a', 'wrong-type', 10, 15, prop('mode', 'enum')],
    ['a pattern that is not a string', 'mode:\n  type: string\n  pattern: 3', 'wrong-type', 10, 18, prop('mode', 'pattern')],
    ['items that are not a map', 'mode:\n  type: array\n  items: string', 'wrong-type', 10, 16, prop('mode', 'items')],
    [
      'additionalProperties that is neither a boolean nor a map',
      'mode:\n  type: object\n  additionalProperties: "yes"',
      'wrong-type',
      10,
      31,
      prop('mode', 'additionalProperties'),
    ],
    ['a nested scalar declaration', 'tls:\n  type: object\n  properties:\n    mode: strict', 'wrong-type', 11, 17, prop('tls', 'properties', 'mode')],
    ['a complex key', '? [a, b]\n: {type: string}', 'invalid-key', 8, 9, '/spec/rendering/properties'],
    ['a duplicate property', 'mode: {type: string}\nmode: {type: integer}', 'duplicate-key', 9, 7, prop('mode')],
  ])('reports %s', (_name, properties, code, line, column, path) => {
    const loaded = loadOne(definition(properties));
    expect(pinned(loaded)).toEqual([errorAt(FILE, code, line, column, path)]);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('hints at the keyword a typo was meant to be', () => {
    const [d] = loadOne(definition('mode:\n  type: string\n  requird: true')).report.diagnostics;
    expect(d).toMatchObject({
      message: expect.stringMatching(/^unknown field "requird" in mode \(allowed: type, required, default/),
      hint: 'did you mean required?',
    });
  });

  it('hints at the type a typo was meant to be', () => {
    const [d] = loadOne(definition('mode:\n  type: strng')).report.diagnostics;
    expect(d?.hint).toBe('did you mean string?');
  });

  it('reads a property declared through an alias like the one it copies', () => {
    const loaded = loadOne(definition('base: &scalar\n  type: string\ncopy: *scalar'));
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')?.schema.properties?.['copy']).toMatchObject({ type: 'string' });
  });

  it('expands a merge key into a declaration', () => {
    const loaded = loadOne(definition('base: &b\n  type: string\nmerged:\n  <<: *b\n  required: true'));
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')?.schema).toMatchObject({ required: ['merged'], properties: { merged: { type: 'string' } } });
  });

  it('reports a mistake reached through an alias at the alias, naming the anchor line', () => {
    const loaded = loadOne(definition('base: &bad\n  type: string\n  enum: []\ncopy: *bad'));
    expect(pinned(loaded)).toEqual([
      errorAt(FILE, 'definition-invalid', 10, 15, prop('base', 'enum')),
      errorAt(FILE, 'definition-invalid', 11, 13, prop('copy', 'enum')),
    ]);
    expect(loaded.report.diagnostics[1]?.message).toMatch(/\(value from the anchor on line 8\)$/);
  });
});

describe('definition files with several documents', () => {
  const two = [definition('a: {type: string}', 'first-trait'), definition('b: {type: integer}', 'second-trait')].join('---\n');

  it('loads every CapabilityDefinition of a multi-document file', () => {
    const loaded = loadOne(two);
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.listDefinitions().map((d) => d.name)).toEqual(['first-trait', 'second-trait']);
  });

  it('positions a mistake in the second document within the file', () => {
    const text = [definition('a: {type: string}', 'first-trait'), definition('b: {type: integer, enum: []}', 'second-trait')].join('---\n');
    expect(pinned(loadOne(text))).toEqual([errorAt(FILE, 'definition-invalid', 17, 32, '/spec/rendering/properties/b/enum')]);
  });

  it('skips documents of other kinds in a definitions file and loads the rest', () => {
    const profile = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: staging}\n';
    const loaded = loadOne([profile, definition('a: {type: string}')].join('---\n'));
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')).toBeDefined();
  });

  it('lists a definitions file with no CapabilityDefinition as skipped, with the reason', () => {
    const loaded = load({
      'defs/profile.yaml': 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: staging}\n',
      'defs/empty.yaml': '# nothing yet\n',
    });
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.report.files).toEqual([
      { path: 'defs/profile.yaml', kind: 'ClusterProfile', status: 'skipped', reason: 'kind ClusterProfile is not linted' },
      { path: 'defs/empty.yaml', kind: 'unknown', status: 'skipped', reason: 'the file holds no documents' },
    ]);
  });

  it('reports a definitions file that is not valid YAML at the syntax error', () => {
    const loaded = load({ 'defs/bad.yaml': 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: [unclosed\nspec: {}\n' });
    expect(pinned(loaded)).toEqual([errorAt('defs/bad.yaml', 'yaml-syntax', 4, 9, '')]);
    expect(loaded.report.files).toEqual([{ path: 'defs/bad.yaml', kind: 'unknown', status: 'checked' }]);
  });
});
