import { describe, expect, it } from 'vitest';
import { withBindings } from '../helpers/profile.js';
import { definition, errorAt, load, pinned, prop, warningAt } from './helpers.js';

// Property text line n lands on definition line 7 + n, column c on column 6 + c (see definition()).
const FILE = 'defs/cap.yaml';
const loadOne = (properties: string, name?: string) => load({ [FILE]: definition(properties, name) });

describe('definition-invalid: a keyword that does not fit the declared type', () => {
  it.each([
    ['items on a string', 'mode:\n  type: string\n  items: {type: string}', 'items'],
    ['items: null on a string', 'mode:\n  type: string\n  items: null', 'items'],
    ['properties on an integer', 'mode:\n  type: integer\n  properties: {}', 'properties'],
    ['additionalProperties: false on a string', 'mode:\n  type: string\n  additionalProperties: false', 'additionalProperties'],
    ['additionalProperties: true on a string', 'mode:\n  type: string\n  additionalProperties: true', 'additionalProperties'],
    ['pattern on an integer', 'mode:\n  type: integer\n  pattern: "^[0-9]+$"', 'pattern'],
    ['minimum on a string', 'mode:\n  type: string\n  minimum: 1', 'minimum'],
    ['maxLength on an array', 'mode:\n  type: array\n  maxLength: 3', 'maxLength'],
    ['minItems on an object', 'mode:\n  type: object\n  minItems: 1', 'minItems'],
    ['enum on an object', 'mode:\n  type: object\n  enum: [a]', 'enum'],
  ])('reports %s at the keyword', (_name, properties, keyword) => {
    const loaded = loadOne(properties);
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', 10, 9, prop('mode', keyword))]);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('names the type the keyword applies to', () => {
    const [d] = loadOne('mode:\n  type: string\n  items: {type: string}').report.diagnostics;
    expect(d?.message).toBe('items does not fit mode of type string: it applies to array');
  });

  it.each([
    ['minLength', 'mode:\n  minLength: 1', 'minLength'],
    ['items', 'mode:\n  items: {type: string}', 'items'],
    ['enum', 'mode:\n  enum: [a, b]', 'enum'],
    ['properties', 'mode:\n  description: any value\n  properties: {}', 'properties'],
  ])('reports %s on a property with no type as needing a type', (_name, properties, keyword) => {
    const loaded = loadOne(properties);
    const line = properties.split('\n').length + 7;
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', line, 9, prop('mode', keyword))]);
    expect(loaded.report.diagnostics[0]?.message).toMatch(new RegExp(`^${keyword} on mode needs a type`));
  });

  it.each([
    ['required in items', 'ports:\n  type: array\n  items:\n    type: integer\n    required: true', prop('ports', 'items', 'required')],
    ['default in items', 'ports:\n  type: array\n  items:\n    type: integer\n    default: 80', prop('ports', 'items', 'default')],
    [
      'required in additionalProperties',
      'labels:\n  type: object\n  additionalProperties:\n    type: string\n    required: true',
      prop('labels', 'additionalProperties', 'required'),
    ],
  ])('reports %s, which has no meaning there, at the keyword', (_name, properties, path) => {
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 12, 11, path)]);
  });
});

describe('definition-invalid: constraints that no value could pass', () => {
  it('reports an empty enum at its value', () => {
    expect(pinned(loadOne('mode:\n  type: string\n  enum: []'))).toEqual([errorAt(FILE, 'definition-invalid', 10, 15, prop('mode', 'enum'))]);
  });

  it.each([
    ['a number in a string enum', 'type: string', 'enum: [a, 3]', 19],
    ['a fraction in an integer enum', 'type: integer', 'enum: [1, 2.5]', 19],
    ['a string in a number enum', 'type: number', 'enum: [1, "2"]', 19],
    ['a string in a boolean enum', 'type: boolean', 'enum: [true, "no"]', 22],
  ])('reports %s at the offending value', (_name, type, enumLine, column) => {
    expect(pinned(loadOne(`mode:\n  ${type}\n  ${enumLine}`))).toEqual([errorAt(FILE, 'definition-invalid', 10, column, prop('mode', 'enum', 1))]);
  });

  it.each([
    ['minimum above maximum', 'type: integer', 'minimum: 10', 'maximum: 5', 18, 'minimum'],
    ['minLength above maxLength', 'type: string', 'minLength: 5', 'maxLength: 2', 20, 'minLength'],
    ['minItems above maxItems', 'type: array', 'minItems: 3', 'maxItems: 1', 19, 'minItems'],
  ])('reports %s at the lower bound', (_name, type, low, high, column, keyword) => {
    expect(pinned(loadOne(`mode:\n  ${type}\n  ${low}\n  ${high}`))).toEqual([errorAt(FILE, 'definition-invalid', 10, column, prop('mode', keyword))]);
  });

  it('accepts equal bounds', () => {
    expect(pinned(loadOne('mode:\n  type: number\n  minimum: 1.5\n  maximum: 1.5'))).toEqual([]);
  });

  it.each([
    ['minLength', 'type: string', 20],
    ['maxLength', 'type: string', 20],
    ['minItems', 'type: array', 19],
    ['maxItems', 'type: array', 19],
  ])('reports a negative %s at its value', (keyword, type, column) => {
    expect(pinned(loadOne(`mode:\n  ${type}\n  ${keyword}: -1`))).toEqual([errorAt(FILE, 'definition-invalid', 10, column, prop('mode', keyword))]);
  });
});

describe('definition-invalid: a default that fails its own schema', () => {
  it.each([
    ['of the wrong type', 'type: integer', 'default: "80"', 18],
    ['outside the enum', 'type: string\n  enum: [a, b]', 'default: c', 18],
    ['not matching the pattern', 'type: string\n  pattern: "^[a-z]+$"', 'default: ABC', 18],
    ['shorter than minLength', 'type: string\n  minLength: 3', 'default: ab', 18],
    ['above the maximum', 'type: number\n  maximum: 1.5', 'default: 2', 18],
    ['with too few items', 'type: array\n  minItems: 2\n  items: {type: string}', 'default: [a]', 18],
  ])('reports a default %s at the default value', (_name, keywords, defaultLine, column) => {
    const properties = `mode:\n  ${keywords}\n  ${defaultLine}`;
    const line = properties.split('\n').length + 7;
    const loaded = loadOne(properties);
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-invalid', line, column, prop('mode', 'default'))]);
    expect(loaded.registry.definition('my-trait')).toBeUndefined();
  });

  it('says which default failed and how', () => {
    const [d] = loadOne('mode:\n  type: string\n  enum: [a, b]\n  default: c').report.diagnostics;
    expect(d?.message).toBe('mode.default must be one of a, b, found string "c"');
  });

  it('reports a key a closed object default does not declare at that key', () => {
    const properties = 'server:\n  type: object\n  properties:\n    port: {type: integer}\n  default: {host: x}';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 12, 19, prop('server', 'default', 'host'))]);
  });

  it('reports a wrong nested value in an object default at that value', () => {
    const properties = 'server:\n  type: object\n  properties:\n    port: {type: integer}\n  default: {port: "80"}';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 12, 25, prop('server', 'default', 'port'))]);
  });

  it('reports a required nested key missing from an object default at the default key', () => {
    const properties = 'server:\n  type: object\n  properties:\n    host: {type: string, required: true}\n  default: {}';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 12, 9, prop('server', 'default', 'host'))]);
  });

  it('reports a list default item of the wrong type at that item', () => {
    const properties = 'ports:\n  type: array\n  items: {type: integer}\n  default: [80, http]';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 11, 23, prop('ports', 'default', 1))]);
  });

  it('accepts a default that satisfies every constraint', () => {
    const properties = 'mode:\n  type: string\n  enum: [fast, safe]\n  pattern: "^[a-z]+$"\n  minLength: 4\n  default: safe';
    const loaded = loadOne(properties);
    expect(pinned(loaded)).toEqual([]);
    expect(loaded.registry.definition('my-trait')).toBeDefined();
  });
});

describe('required-with-default', () => {
  it('warns at the default of a required property and still loads the definition', () => {
    const loaded = loadOne('image:\n  type: string\n  required: true\n  default: redis:7');
    expect(pinned(loaded)).toEqual([warningAt(FILE, 'required-with-default', 11, 9, prop('image', 'default'))]);
    expect(loaded.registry.definition('my-trait')).toBeDefined();
  });

  it('still requires the key in a profile: the default never applies', () => {
    const profile = withBindings('my-trait:\n  rendering: {}');
    const loaded = load({ [FILE]: definition('image:\n  type: string\n  required: true\n  default: redis:7') }, profile);
    expect(pinned(loaded)).toEqual([
      { code: 'missing-required', severity: 'error', file: 'cluster.yaml', line: 8, column: 7, path: '/spec/capabilities/my-trait/rendering/image' },
      warningAt(FILE, 'required-with-default', 11, 9, prop('image', 'default')),
    ]);
  });

  it('does not warn about an optional property with a default', () => {
    expect(pinned(loadOne('image:\n  type: string\n  required: false\n  default: redis:7'))).toEqual([]);
  });
});

describe('definition-shadows-builtin', () => {
  it.each(['expose', 'certificate', 'configmap', 'rbac'])('reports a definition named %s at metadata.name', (name) => {
    const loaded = load({ [FILE]: definition('key: {type: string}', name) });
    expect(pinned(loaded)).toEqual([errorAt(FILE, 'definition-shadows-builtin', 4, 9, '/metadata/name')]);
    expect(loaded.registry.definition(name)).toBeUndefined();
  });

  it('leaves the built-in handler validating the bindings of that type', () => {
    const profile = withBindings('expose:\n  rendering:\n    key: value');
    const loaded = load({ [FILE]: definition('key: {type: string}', 'expose') }, profile);
    expect(pinned(loaded)).toEqual([
      { code: 'missing-required', severity: 'error', file: 'cluster.yaml', line: 8, column: 7, path: '/spec/capabilities/expose/rendering/controllerType' },
      { code: 'unknown-field', severity: 'error', file: 'cluster.yaml', line: 9, column: 9, path: '/spec/capabilities/expose/rendering/key' },
      errorAt(FILE, 'definition-shadows-builtin', 4, 9, '/metadata/name'),
    ]);
  });
});

describe('positions inside nested declarations', () => {
  it('reports a mistake in a nested property at its own line', () => {
    const properties = 'tls:\n  type: object\n  properties:\n    mode:\n      type: string\n      enum: []';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 13, 19, prop('tls', 'properties', 'mode', 'enum'))]);
  });

  it('reports a mistake in an items declaration at its own line', () => {
    const properties = 'ports:\n  type: array\n  items:\n    type: integer\n    minimum: 70000\n    maximum: 1';
    expect(pinned(loadOne(properties))).toEqual([errorAt(FILE, 'definition-invalid', 12, 20, prop('ports', 'items', 'minimum'))]);
  });

  it('reports every mistake of a definition, not only the first', () => {
    const properties = 'a:\n  type: string\n  enum: []\nb:\n  type: integer\n  pattern: x\nc:\n  minLength: -1';
    expect(pinned(loadOne(properties))).toEqual([
      errorAt(FILE, 'definition-invalid', 10, 15, prop('a', 'enum')),
      errorAt(FILE, 'definition-invalid', 13, 9, prop('b', 'pattern')),
      errorAt(FILE, 'definition-invalid', 15, 9, prop('c', 'minLength')),
    ]);
  });
});
