import { Kind } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { withBindings } from '../helpers/profile.js';
import { definition, errorAt, load, pinned } from './helpers.js';

const DB = definition(
  `
  size: {type: string, required: true, pattern: "^[1-9][0-9]*Gi$"}
  tier: {type: string, enum: [standard, premium], default: standard}
  replicas: {type: integer, minimum: 1, maximum: 5, default: 2}
  ratio: {type: number, minimum: 0, maximum: 1}
  name: {type: string, minLength: 3, maxLength: 8}
  zones: {type: array, minItems: 1, maxItems: 3, items: {type: string, enum: [a, b, c]}}
  backup:
    type: object
    properties:
      enabled: {type: boolean, default: true}
      window:
        type: object
        properties:
          start: {type: string, default: "02:00"}
  labels: {type: object, additionalProperties: {type: string}}
  extra: {type: object, additionalProperties: true}
  anything:
  listeners:
    type: array
    items:
      type: object
      properties:
        port: {type: integer, required: true}
        protocol: {type: string, default: TCP}
  `,
  'db',
);
const DEFS = { 'defs/db.yaml': DB };

// Binding text line n lands on profile line 6 + n, column c on column 4 + c (see withBindings):
// `db` is on line 7, `rendering` on line 8, `size` on line 9 and the line under test on line 10.
const binding = (...lines: string[]) => withBindings(['db:', '  rendering:', ...lines.map((l) => `    ${l}`)].join('\n'));
const at = (line: number, column: number, code: string, path: string) => errorAt('cluster.yaml', code, line, column, `/spec/capabilities/db/rendering${path}`);

function resolved(profile: string): Record<string, unknown> {
  const { report } = load(DEFS, profile);
  expect(pinned({ report })).toEqual([]);
  return report.files.find((f) => f.path === 'cluster.yaml')?.resolved?.capabilities ?? {};
}

describe('a definition validates the rendering of its bindings', () => {
  it.each([
    ['an undeclared key', 'sise: 20Gi', at(10, 9, 'unknown-field', '/sise')],
    ['a value outside the enum', 'tier: gold', at(10, 15, 'invalid-value', '/tier')],
    ['an integer under the minimum', 'replicas: 0', at(10, 19, 'invalid-value', '/replicas')],
    ['an integer over the maximum', 'replicas: 6', at(10, 19, 'invalid-value', '/replicas')],
    ['a fraction for an integer', 'replicas: 2.5', at(10, 19, 'wrong-type', '/replicas')],
    ['a quoted number for an integer', 'replicas: "3"', at(10, 19, 'wrong-type', '/replicas')],
    ['a number over the maximum', 'ratio: 1.5', at(10, 16, 'invalid-value', '/ratio')],
    ['a number under the minimum', 'ratio: -0.1', at(10, 16, 'invalid-value', '/ratio')],
    ['a string under minLength', 'name: ab', at(10, 15, 'invalid-value', '/name')],
    ['a string over maxLength', 'name: abcdefghi', at(10, 15, 'invalid-value', '/name')],
    ['a list under minItems', 'zones: []', at(10, 16, 'invalid-value', '/zones')],
    ['a list over maxItems', 'zones: [a, b, c, a]', at(10, 16, 'invalid-value', '/zones')],
    ['a list item outside the items enum', 'zones: [a, d]', at(10, 20, 'invalid-value', '/zones/1')],
    ['a nested value of the wrong type', 'backup: {enabled: "yes"}', at(10, 27, 'wrong-type', '/backup/enabled')],
    ['an undeclared key in a closed nested object', 'backup: {retain: 3}', at(10, 18, 'unknown-field', '/backup/retain')],
    ['an undeclared key two levels down', 'backup: {window: {end: "03:00"}}', at(10, 27, 'unknown-field', '/backup/window/end')],
    ['an additional key of the wrong type', 'labels: {team: 3}', at(10, 24, 'wrong-type', '/labels/team')],
    ['a list item missing a required key', 'listeners: [{protocol: UDP}]', at(10, 21, 'missing-required', '/listeners/0/port')],
  ])('reports %s at its position in the profile', (_name, line, expected) => {
    expect(pinned(load(DEFS, binding('size: 10Gi', line)))).toEqual([expected]);
  });

  it.each([
    ['a string that does not match the pattern', 'size: 10GB', at(9, 15, 'invalid-value', '/size')],
    ['a number for a string', 'size: 10', at(9, 15, 'wrong-type', '/size')],
  ])('reports %s at the value', (_name, line, expected) => {
    expect(pinned(load(DEFS, binding(line)))).toEqual([expected]);
  });

  it('reports a missing required key at the rendering key', () => {
    expect(pinned(load(DEFS, binding('tier: premium')))).toEqual([at(8, 7, 'missing-required', '/size')]);
  });

  it('reports a binding with no rendering as missing its required keys, at the binding key', () => {
    expect(pinned(load(DEFS, withBindings('db:')))).toEqual([errorAt('cluster.yaml', 'missing-required', 7, 5, '/spec/capabilities/db/rendering/size')]);
  });

  it('names the capability, the key, what was expected and what was found, with a hint', () => {
    const [d] = load(DEFS, binding('size: 10Gi', 'tier: premum')).report.diagnostics;
    expect(d).toMatchObject({ message: 'capability "db": tier must be one of standard, premium, found string "premum"', hint: 'did you mean premium?' });
  });

  it('accepts any value for a property declared with no value, and any key in an open object', () => {
    expect(resolved(binding('size: 10Gi', 'anything: [1, {a: b}]', 'extra: {whatever: [1]}'))).toEqual({
      db: { size: '10Gi', anything: [1, { a: 'b' }], extra: { whatever: [1] }, tier: 'standard', replicas: 2 },
    });
  });

  it('accepts a whole number written as a float for an integer', () => {
    expect(resolved(binding('size: 10Gi', 'replicas: 2.0'))).toMatchObject({ db: { replicas: 2 } });
  });
});

describe('a definition applies its defaults', () => {
  it('applies top-level defaults and creates no absent parent for a nested default', () => {
    expect(resolved(binding('size: 10Gi'))).toEqual({ db: { size: '10Gi', tier: 'standard', replicas: 2 } });
  });

  it('applies nested defaults inside an object that is present', () => {
    expect(resolved(binding('size: 10Gi', 'backup: {}'))).toEqual({ db: { size: '10Gi', backup: { enabled: true }, tier: 'standard', replicas: 2 } });
  });

  it('applies defaults two levels down when both levels are present', () => {
    expect(resolved(binding('size: 10Gi', 'backup: {window: {}}'))).toMatchObject({ db: { backup: { enabled: true, window: { start: '02:00' } } } });
  });

  it('applies item defaults to every list item', () => {
    expect(resolved(binding('size: 10Gi', 'listeners: [{port: 80}, {port: 53, protocol: UDP}]'))).toMatchObject({
      db: {
        listeners: [
          { port: 80, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      },
    });
  });

  it('keeps values the profile sets over defaults', () => {
    expect(resolved(binding('size: 10Gi', 'tier: premium', 'replicas: 5'))).toEqual({ db: { size: '10Gi', tier: 'premium', replicas: 5 } });
  });

  it('validates and defaults a scoped key <name>.<scope> like the bare one', () => {
    const profile = withBindings('db.analytics:\n  rendering:\n    size: 500Gi\ndb.eu.public:\n  rendering:\n    size: 1Gi\n    tier: gold');
    const { report } = load(DEFS, profile);
    expect(pinned({ report })).toEqual([errorAt('cluster.yaml', 'invalid-value', 13, 15, '/spec/capabilities/db.eu.public/rendering/tier')]);
    expect(report.diagnostics[0]?.message).toMatch(/^capability "db\.eu\.public": tier must be one of/);
  });
});

describe('prototype-named properties', () => {
  it('declares __proto__ and constructor as ordinary keys, validated and defaulted without touching a prototype', () => {
    const defs = {
      'defs/weird.yaml': definition('__proto__: {type: string, default: x}\nconstructor: {type: object, properties: {__proto__: {type: integer}}}', 'weird'),
    };
    const loaded = load(defs, withBindings('weird:\n  rendering:\n    constructor: {__proto__: "1"}'));
    expect(pinned(loaded)).toEqual([errorAt('cluster.yaml', 'wrong-type', 9, 34, '/spec/capabilities/weird/rendering/constructor/__proto__')]);
    const clean = load(defs, withBindings('weird:\n  rendering:\n    constructor: {__proto__: 1}'));
    const rendering = clean.report.files[0]?.resolved?.capabilities['weird'] as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(rendering, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(rendering)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('a definition that failed to load', () => {
  it('leaves its bindings unvalidated and quiet: the definition error explains them', () => {
    const broken = definition('size: {type: string, enum: []}', 'db');
    const profile = withBindings('db:\n  rendering:\n    anything: at all\ndb.eu:\n  rendering: {size: 3}');
    expect(pinned(load({ 'defs/db.yaml': broken }, profile))).toEqual([
      errorAt('defs/db.yaml', 'definition-invalid', 8, 34, '/spec/rendering/properties/size/enum'),
    ]);
  });
});

describe('the compiled schema', () => {
  it('is a TypeBox schema, published as plain JSON Schema', () => {
    const loaded = load({
      'defs/cap.yaml': definition(
        'mode: {type: string, enum: [a, b], default: a, description: the mode}\ncount: {type: integer, required: true, minimum: 1}\nopts: {type: object, additionalProperties: {type: string}}\nany:',
        'cap',
      ),
    });
    const schema = loaded.registry.definition('cap')!.schema;
    expect(schema[Kind as unknown as string]).toBe('Object');
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['count'],
      properties: {
        mode: { type: 'string', enum: ['a', 'b'], default: 'a', description: 'the mode' },
        count: { type: 'integer', minimum: 1 },
        opts: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        any: {},
      },
    });
  });

  it('carries the definition description', () => {
    const text = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: cap}\nspec:\n  description: Does a thing\n';
    expect(load({ 'defs/cap.yaml': text }).registry.definition('cap')).toMatchObject({ description: 'Does a thing', schema: { description: 'Does a thing' } });
  });
});
