import { Type } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { capabilitySchema } from '../../src/operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../src/operations/cluster-profile-schema.js';
import { lintInputs } from '../../src/operations/lint.js';
import { checkSchema } from '../../src/schema/check.js';
import { LIFECYCLE_ANNOTATION } from '../../src/schema/keywords.js';
import { publishSchema } from '../../src/schema/publish.js';

const ajv = () => new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION);

function judgeWithAjv(schema: JsonSchema, value: unknown): boolean {
  return ajv().compile(publishSchema(schema))(value);
}

const Optional = Type.Object(
  { a: Type.Optional(Type.String()), b: Type.Optional(Type.String()) },
  { dependentRequired: { a: ['b'] }, additionalProperties: false },
);
const proto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}') as JsonSchema;

// Each row: a schema of the shapes handlers and definitions declare, a value, and the verdict
// both the engine and ajv (with the published schema) must reach.
const CASES: [string, JsonSchema, unknown, boolean][] = [
  ['a required untyped key set to null is missing', Type.Object({ k: Type.Unknown() }), { k: null }, false],
  ['a required untyped key accepts any other value', Type.Object({ k: Type.Unknown() }), { k: [1] }, true],
  ['an optional enum key set to null is absent', Type.Object({ e: Type.Optional(Type.String({ enum: ['a', 'b'] })) }), { e: null }, true],
  ['an optional enum key refuses other values', Type.Object({ e: Type.Optional(Type.String({ enum: ['a', 'b'] })) }), { e: 'c' }, false],
  ['an optional literal set to null is absent', Type.Object({ l: Type.Optional(Type.Literal('x')) }), { l: null }, true],
  ['an integer beyond 2^53 is refused', Type.Object({ n: Type.Integer() }), { n: 2 ** 53 + 2 }, false],
  ['an integer beyond -2^53 is refused', Type.Object({ n: Type.Integer() }), { n: -(2 ** 53) - 2 }, false],
  ['an integer at 2^53, which a double holds exactly, is kept', Type.Object({ n: Type.Integer() }), { n: 2 ** 53 }, true],
  ['an integer at 2^53 - 1 is kept', Type.Object({ n: Type.Integer() }), { n: 2 ** 53 - 1 }, true],
  ['a fraction is not an integer', Type.Object({ n: Type.Integer() }), { n: 2.5 }, false],
  ['a key that needs another is refused alone', Optional, { a: 'x' }, false],
  ['a key that needs another is refused when the other is null', Optional, { a: 'x', b: null }, false],
  ['a key set to null needs nothing', Optional, { a: null }, true],
  ['a key that needs another is accepted with it', Optional, { a: 'x', b: 'y' }, true],
  ['the needed key alone is fine', Optional, { b: 'y' }, true],
  ['oneOf refuses a value more than one branch matches', { oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] }, 'x', false],
  ['oneOf accepts a value exactly one branch matches', { oneOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] }, 'x', true],
  ["beside a union, the node's own keywords apply too", { type: 'integer', anyOf: [{ minimum: 5 }, { maximum: 1 }] }, 'x', false],
  ['beside a union, a value both allow is kept', { type: 'integer', anyOf: [{ minimum: 5 }, { maximum: 1 }] }, 7, true],
  ['an optional property whose schema is false may be null (absent)', { type: 'object', properties: { k: false } } as unknown as JsonSchema, { k: null }, true],
  ['an optional property whose schema is false refuses a value', { type: 'object', properties: { k: false } } as unknown as JsonSchema, { k: 1 }, false],
  [
    'an optional oneOf property set to null is absent',
    { type: 'object', properties: { k: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
    { k: null },
    true,
  ],
  ['items false refuses any item', { type: 'array', items: false } as unknown as JsonSchema, [1], false],
  ['a required key that is not declared must not be null', { type: 'object', required: ['k'] }, { k: null }, false],
  ['a required key that is not declared may hold a value', { type: 'object', required: ['k'] }, { k: 1 }, true],
  ['an optional object set to null is absent', Type.Object({ o: Type.Optional(Type.Object({ r: Type.String() })) }), { o: null }, true],
  ['a present optional object still needs its required keys', Type.Object({ o: Type.Optional(Type.Object({ r: Type.String() })) }), { o: {} }, false],
  ['null inside a list is not absent', Type.Object({ list: Type.Optional(Type.Array(Type.String())) }), { list: [null] }, false],
  ['a pattern is matched with the u flag', Type.Object({ d: Type.String({ pattern: '^\\p{Lu}$', 'x-expected': 'one capital letter' }) }), { d: 'É' }, true],
];

describe('publishSchema', () => {
  it.each(CASES)('%s: the engine and ajv agree', (_name, schema, value, valid) => {
    expect(checkSchema(schema, value).issues.length === 0).toBe(valid);
    expect(judgeWithAjv(schema, value)).toBe(valid);
  });

  it('drops kurel-only keywords, keeping what a pattern means in the description, and never mutates its input', () => {
    const schema = Type.Object({ d: Type.String({ pattern: '^x$', 'x-expected': 'an x' }) });
    const before = JSON.stringify(schema);
    const published = publishSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
    expect(JSON.stringify(published)).not.toContain('x-expected');
    expect(published.properties!['d']).toEqual({ description: 'expected an x', type: 'string', pattern: '^x$' });
  });

  it('publishes each keyword by the rule its table entry names, the additions in a fixed order', () => {
    const published = publishSchema({
      type: 'object',
      'x-expected': 'a map of a and b',
      introducedIn: '1.29',
      deprecatedIn: '1.31',
      deprecationNote: 'use c',
      properties: {
        a: { type: 'integer', minimum: 1 },
        b: { type: 'string', pattern: '^\\d$', enum: ['1', '2'], enumLifecycle: { '2': { introducedIn: '1.30' } } },
      },
      required: ['a', 'c'],
      dependentRequired: { b: ['a'] },
      additionalProperties: false,
      renamedFrom: 'old',
      'x-bare-number-unit': 's',
    });
    const notNull = { not: { type: 'null' } };
    expect(JSON.stringify(published)).toBe(
      JSON.stringify({
        description: 'expected a map of a and b; introduced in Kubernetes 1.29; deprecated in Kubernetes 1.31: use c',
        type: 'object',
        properties: {
          a: { type: 'integer', minimum: 1, maximum: 9007199254740992 },
          b: {
            description: 'value "2": introduced in Kubernetes 1.30',
            type: ['string', 'null'],
            enum: ['1', '2', null],
            pattern: '^\\d$',
            'x-kurel-lifecycle': { values: { '2': { introducedIn: '1.30' } } },
          },
        },
        additionalProperties: false,
        required: ['a', 'c'],
        'x-kurel-lifecycle': { introducedIn: '1.29', deprecatedIn: '1.31', deprecationNote: 'use c' },
        allOf: [{ properties: { c: notNull } }, { if: { required: ['b'], properties: { b: notNull } }, then: { required: ['a'], properties: { a: notNull } } }],
      }),
    );
  });

  it('keeps the lifecycle beside the description where an optional property becomes a choice with null', () => {
    const published = publishSchema({
      type: 'object',
      properties: { u: { anyOf: [{ type: 'string' }, { type: 'boolean' }], description: 'a name or a switch', removedIn: 'istio 1.20' } },
    });
    expect(published.properties!['u']).toEqual({
      description: 'a name or a switch; removed in istio 1.20',
      'x-kurel-lifecycle': { removedIn: 'istio 1.20' },
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }, { type: 'null' }],
    });
  });

  it('keeps a property named __proto__ as an ordinary own key, never touching a prototype', () => {
    const properties = publishSchema(proto).properties!;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({ type: ['string', 'null'] });
  });

  it.each(BUILTIN_HANDLERS.filter((h) => h.renderingSchema).map((h) => [h.type, h] as const))(
    'publishes the %s rendering as a valid draft 2020-12 schema under ajv strict mode',
    (_type, handler) => {
      const published = publishSchema(handler.renderingSchema!);
      const checker = ajv();
      expect(checker.validateSchema(published), checker.errorsText(checker.errors)).toBe(true);
      expect(() => checker.compile(published)).not.toThrow();
    },
  );
});

describe('clusterProfileJsonSchema', () => {
  it('judges a capability with both a definition and a handler schema by both', () => {
    const handler = {
      type: 'sidecar',
      description: 'Adds a sidecar',
      capabilityAware: false,
      renderingSchema: Type.Object(
        { image: Type.Optional(Type.String({ minLength: 3 })), port: Type.Optional(Type.Integer()) },
        { additionalProperties: false },
      ),
    };
    const definition = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata: {name: sidecar}
spec:
  description: the sidecar definition
  rendering:
    properties:
      image: {type: string, required: true}
      port: {type: integer}
`;
    const withHandler = createCatalogue({ handlers: [{ handler, source: 'plugin:./sidecar.mjs' }] });
    const registry = lintInputs([{ file: 'definitions/sidecar.yaml', content: definition, origin: 'definition' }], withHandler).catalogue;
    const validate = ajv().compile(clusterProfileJsonSchema(registry));
    const profile = (rendering: unknown) => ({
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'p' },
      spec: { capabilities: { 'sidecar.a': { rendering } } },
    });
    const verdicts = [{ image: 'redis' }, {}, { image: 'r' }, { image: 'redis', port: 1.5 }].map((r) => validate(profile(r)));
    expect(verdicts).toEqual([true, false, false, false]);
    expect(capabilitySchema(registry, 'sidecar')?.schema.allOf).toHaveLength(2);
  });

  it('keeps a binding of a type no one knows open, and refuses a key that is not a capability key', () => {
    const validate = ajv().compile(clusterProfileJsonSchema(createCatalogue()));
    const profile = (capabilities: unknown) => ({
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'p' },
      spec: { capabilities },
    });
    expect(validate(profile({ mesh: { rendering: { anything: [1, { deep: true }] } } }))).toBe(true);
    expect(validate(profile({ 'mesh.eu.west': null }))).toBe(true);
    expect(validate(profile({ mesh: { settings: {} } }))).toBe(false);
    expect(validate(profile({ 'mesh.': null }))).toBe(false);
  });
});
