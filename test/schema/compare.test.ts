import { describe, expect, it } from 'vitest';
import { toPointer } from '../../src/core/diagnostics.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { bumpCovers, checkRenames, compareSchemas, declaredBump, neededBump } from '../../src/schema/compare.js';
import { CHANGE_CLASSES } from '../../src/schema/compare-rules.js';
import { KEYWORDS } from '../../src/schema/keywords.js';

const brief = (before: JsonSchema, after: JsonSchema) =>
  compareSchemas(before, after).map((c) => ({ class: c.class, kind: c.kind, path: toPointer(c.path), side: c.side }));

const obj = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

/**
 * For every keyword of the table, two schemas that differ in it alone and the class that
 * difference has: a keyword added to the table without a rule, or without an example here,
 * fails the first test below.
 */
const EXAMPLES: Record<string, { before: JsonSchema; after: JsonSchema; class: 'breaking' | 'compatible' | 'patch' }> = {
  type: { before: { type: 'integer' }, after: { type: 'number' }, class: 'compatible' },
  properties: { before: obj({ a: {} }), after: obj({}), class: 'breaking' },
  required: { before: obj({ a: {} }, { required: ['a'] }), after: obj({ a: {} }), class: 'compatible' },
  additionalProperties: { before: obj({}), after: obj({}, { additionalProperties: true }), class: 'compatible' },
  propertyNames: { before: { type: 'object' }, after: { type: 'object', propertyNames: { pattern: '^a' } }, class: 'breaking' },
  dependentRequired: { before: obj({ a: {}, b: {} }), after: obj({ a: {}, b: {} }, { dependentRequired: { a: ['b'] } }), class: 'breaking' },
  items: { before: { type: 'array', items: { type: 'string' } }, after: { type: 'array' }, class: 'compatible' },
  enum: { before: { enum: ['a'] }, after: { enum: ['a', 'b'] }, class: 'compatible' },
  const: { before: {}, after: { const: 'a' }, class: 'breaking' },
  anyOf: { before: { anyOf: [{ type: 'string' }] }, after: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, class: 'compatible' },
  oneOf: { before: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, after: { oneOf: [{ type: 'string' }] }, class: 'breaking' },
  allOf: { before: { allOf: [{ type: 'string' }] }, after: { allOf: [{ type: 'string' }, { minLength: 1 }] }, class: 'breaking' },
  default: { before: { type: 'string' }, after: { type: 'string', default: 'a' }, class: 'breaking' },
  minLength: { before: { minLength: 2 }, after: { minLength: 1 }, class: 'compatible' },
  maxLength: { before: { maxLength: 2 }, after: { maxLength: 1 }, class: 'breaking' },
  pattern: { before: { pattern: '^a' }, after: {}, class: 'compatible' },
  minimum: { before: { minimum: 1 }, after: { minimum: 2 }, class: 'breaking' },
  maximum: { before: { maximum: 1 }, after: { maximum: 2 }, class: 'compatible' },
  exclusiveMinimum: { before: { exclusiveMinimum: 0 }, after: { exclusiveMinimum: 1 }, class: 'breaking' },
  exclusiveMaximum: { before: { exclusiveMaximum: 10 }, after: { exclusiveMaximum: 11 }, class: 'compatible' },
  multipleOf: { before: { multipleOf: 4 }, after: { multipleOf: 2 }, class: 'compatible' },
  minItems: { before: { minItems: 0 }, after: { minItems: 1 }, class: 'breaking' },
  maxItems: { before: { maxItems: 3 }, after: {}, class: 'compatible' },
  uniqueItems: { before: {}, after: { uniqueItems: true }, class: 'breaking' },
  minProperties: { before: { minProperties: 1 }, after: { minProperties: 2 }, class: 'breaking' },
  maxProperties: { before: { maxProperties: 1 }, after: { maxProperties: 2 }, class: 'compatible' },
  description: { before: { description: 'a' }, after: { description: 'b' }, class: 'patch' },
  title: { before: {}, after: { title: 'a' }, class: 'patch' },
  examples: { before: { examples: ['a'] }, after: { examples: ['b'] }, class: 'patch' },
  deprecated: { before: {}, after: { deprecated: true }, class: 'compatible' },
  readOnly: { before: {}, after: { readOnly: true }, class: 'patch' },
  writeOnly: { before: {}, after: { writeOnly: true }, class: 'patch' },
  $comment: { before: { $comment: 'a' }, after: { $comment: 'b' }, class: 'patch' },
  $schema: { before: {}, after: { $schema: 'https://json-schema.org/draft/2020-12/schema' }, class: 'patch' },
  $id: { before: {}, after: { $id: 'https://example.com/a' }, class: 'patch' },
  'x-expected': { before: { 'x-expected': 'a name' }, after: { 'x-expected': 'a DNS name' }, class: 'patch' },
  'x-bare-number-unit': { before: { 'x-bare-number-unit': 's' }, after: { 'x-bare-number-unit': 'm' }, class: 'patch' },
  introducedIn: { before: { introducedIn: '1.29' }, after: { introducedIn: '1.30' }, class: 'breaking' },
  deprecatedIn: { before: {}, after: { deprecatedIn: '1.30' }, class: 'compatible' },
  removedIn: { before: {}, after: { removedIn: '1.30' }, class: 'breaking' },
  deprecationNote: { before: { deprecatedIn: '1.30', deprecationNote: 'a' }, after: { deprecatedIn: '1.30', deprecationNote: 'b' }, class: 'patch' },
  enumLifecycle: {
    before: { type: 'string', enum: ['a'], enumLifecycle: { a: { removedIn: '1.30' } } },
    after: { type: 'string', enum: ['a'] },
    class: 'compatible',
  },
  renamedFrom: { before: { renamedFrom: 'a' }, after: {}, class: 'patch' },
  // Only the publisher writes it; what it says is compared in the lifecycle keywords it comes from.
  'x-kurel-lifecycle': { before: { 'x-kurel-lifecycle': { introducedIn: '1.29' } }, after: {}, class: 'patch' },
};

describe('the keyword table: every keyword has a comparison rule', () => {
  it('has an example here for every keyword of the table, and a rule for each', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(KEYWORDS.map((k) => k.name).sort());
    for (const keyword of KEYWORDS) expect(typeof keyword.compare, keyword.name).toBe('function');
  });

  it.each(Object.entries(EXAMPLES))('%s: a difference in it alone has its class', (keyword, { before, after, class: expected }) => {
    const changes = compareSchemas(before, after);
    if (keyword === 'renamedFrom') {
      // It only pairs a renamed property with its old name: no difference of its own (docs/compat.md).
      expect(changes).toEqual([]);
      return;
    }
    expect(changes.map((c) => c.class)).toEqual([expected]);
    expect(changes[0]!.path).toContain(keyword);
  });

  it('classes a difference in a keyword the table does not know as breaking', () => {
    expect(brief({ 'x-custom': 1 }, { 'x-custom': 2 })).toEqual([{ class: 'breaking', kind: 'keyword-changed', path: '/x-custom', side: 'new' }]);
  });

  it('names every kind it reports among CHANGE_CLASSES', () => {
    const kinds = new Set<string>(Object.keys(CHANGE_CLASSES));
    for (const { before, after } of Object.values(EXAMPLES)) {
      for (const change of [...compareSchemas(before, after), ...compareSchemas(after, before)]) expect(kinds.has(change.kind), change.kind).toBe(true);
    }
  });
});

describe('compareSchemas: constraints', () => {
  it.each<[string, JsonSchema, JsonSchema, string, string]>([
    ['const added', {}, { const: 'a' }, 'breaking', 'const-added'],
    ['const changed', { const: 'a' }, { const: 'b' }, 'breaking', 'const-changed'],
    ['const removed', { const: 'a' }, {}, 'compatible', 'const-removed'],
    ['multipleOf to a divisor', { multipleOf: 6 }, { multipleOf: 3 }, 'compatible', 'constraint-loosened'],
    ['multipleOf to a multiple', { multipleOf: 3 }, { multipleOf: 6 }, 'breaking', 'constraint-tightened'],
    ['multipleOf added', {}, { multipleOf: 2 }, 'breaking', 'constraint-added'],
    ['uniqueItems turned off', { uniqueItems: true }, { uniqueItems: false }, 'compatible', 'constraint-removed'],
    ['exclusiveMaximum lowered', { exclusiveMaximum: 10 }, { exclusiveMaximum: 9 }, 'breaking', 'constraint-tightened'],
    ['type changed to an unrelated one', { type: 'string' }, { type: 'boolean' }, 'breaking', 'type-changed'],
    ['type narrowed from a list', { type: ['string', 'integer'] }, { type: 'string' }, 'breaking', 'type-narrowed'],
    ['type widened to a list', { type: 'string' }, { type: ['string', 'integer'] }, 'compatible', 'type-widened'],
    ['items added', { type: 'array' }, { type: 'array', items: { type: 'string' } }, 'breaking', 'subschema-added'],
    ['propertyNames removed', { propertyNames: { pattern: '^a' } }, {}, 'compatible', 'subschema-removed'],
    ['a closed map given a declaration for undeclared keys', obj({}), obj({}, { additionalProperties: { type: 'string' } }), 'compatible', 'opened'],
    ['a declaration for undeclared keys closed', obj({}, { additionalProperties: { type: 'string' } }), obj({}), 'breaking', 'closed'],
    ['an undeclared required key added', obj({}), obj({}, { required: ['a'] }), 'breaking', 'made-required'],
  ])('%s', (_name, before, after, expectedClass, kind) => {
    expect(compareSchemas(before, after).map((c) => [c.class, c.kind])).toEqual([[expectedClass, kind]]);
  });

  it('finds nothing between equal schemas whatever their key order', () => {
    expect(compareSchemas({ type: 'string', minLength: 1, description: 'a' }, { description: 'a', minLength: 1, type: 'string' })).toEqual([]);
  });

  it('judges dependentRequired per key: a key newly needed breaks, a key no longer needed loosens', () => {
    const before = obj({ a: {}, b: {}, c: {} }, { dependentRequired: { a: ['b'] } });
    const after = obj({ a: {}, b: {}, c: {} }, { dependentRequired: { a: ['c'] } });
    expect(brief(before, after)).toEqual([
      { class: 'breaking', kind: 'constraint-added', path: '/dependentRequired/a', side: 'new' },
      { class: 'compatible', kind: 'constraint-removed', path: '/dependentRequired/a', side: 'new' },
    ]);
  });

  it('compares a new property of an open map with what the map accepted there before', () => {
    const before: JsonSchema = { type: 'object', properties: {}, additionalProperties: { type: 'string' } };
    const after: JsonSchema = { type: 'object', properties: { port: { type: 'integer' } }, additionalProperties: { type: 'string' } };
    expect(brief(before, after)).toEqual([
      { class: 'compatible', kind: 'property-added', path: '/properties/port', side: 'new' },
      { class: 'breaking', kind: 'type-changed', path: '/properties/port/type', side: 'new' },
    ]);
    const open: JsonSchema = { type: 'object', properties: {} };
    expect(brief(open, { type: 'object', properties: { port: {} } })).toEqual([
      { class: 'compatible', kind: 'property-added', path: '/properties/port', side: 'new' },
    ]);
  });
});

describe('compareSchemas: unions', () => {
  const ingress = obj(
    { controllerType: { const: 'ingress' }, ingressClassName: { type: 'string', minLength: 1 } },
    { required: ['controllerType', 'ingressClassName'] },
  );
  const gateway = obj({ controllerType: { const: 'gateway' }, gatewayName: { type: 'string' } }, { required: ['controllerType', 'gatewayName'] });
  const mesh = obj({ controllerType: { const: 'mesh' } }, { required: ['controllerType'] });

  it('pairs branches by their discriminating const, whatever their order', () => {
    const tightened: JsonSchema = { ...gateway, properties: { ...gateway.properties, gatewayName: { type: 'string', minLength: 1 } } };
    expect(brief({ anyOf: [ingress, gateway] }, { anyOf: [tightened, ingress] })).toEqual([
      { class: 'breaking', kind: 'constraint-added', path: '/anyOf/0/properties/gatewayName/minLength', side: 'new' },
    ]);
  });

  it('classes a branch added as compatible and a branch removed as breaking, naming it by its const', () => {
    expect(brief({ anyOf: [ingress, gateway] }, { anyOf: [ingress, gateway, mesh] })).toEqual([
      { class: 'compatible', kind: 'branch-added', path: '/anyOf/2', side: 'new' },
    ]);
    const removed = compareSchemas({ oneOf: [ingress, gateway] }, { oneOf: [gateway] });
    expect(removed.map((c) => [c.class, c.kind, toPointer(c.path), c.side, c.message])).toEqual([
      ['breaking', 'branch-removed', '/oneOf/0', 'old', 'the rendering: controllerType "ingress" removed'],
    ]);
  });

  it('pairs branches without a discriminator by equality, then by type', () => {
    expect(brief({ anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] }, { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] })).toEqual([
      { class: 'compatible', kind: 'constraint-loosened', path: '/anyOf/0/minimum', side: 'new' },
    ]);
  });

  it('reads anyOf and oneOf alike: changing one for the other is no difference', () => {
    expect(brief({ anyOf: [ingress, gateway] }, { oneOf: [ingress, gateway] })).toEqual([]);
  });

  it('classes a union added as breaking and removed as compatible', () => {
    expect(brief({}, { anyOf: [{ type: 'string' }] })).toEqual([{ class: 'breaking', kind: 'subschema-added', path: '/anyOf', side: 'new' }]);
    expect(brief({ anyOf: [{ type: 'string' }] }, {})).toEqual([{ class: 'compatible', kind: 'subschema-removed', path: '/anyOf', side: 'old' }]);
  });

  it('checks renames inside paired branches', () => {
    const before = { anyOf: [obj({ kind: { const: 'a' }, old: {} }, { required: ['kind'] }), obj({ kind: { const: 'b' } }, { required: ['kind'] })] };
    const after = {
      anyOf: [
        obj({ kind: { const: 'b' }, gone: { renamedFrom: 'old' } }, { required: ['kind'] }),
        obj({ kind: { const: 'a' }, now: { renamedFrom: 'old' } }, { required: ['kind'] }),
      ],
    };
    expect(checkRenames(before, after).map((p) => toPointer(p.path))).toEqual(['/anyOf/0/properties/gone/renamedFrom']);
  });
});

describe('compareSchemas: messages', () => {
  it.each<[JsonSchema, JsonSchema, string]>([
    [obj({ port: { type: 'integer', minimum: 1 } }), obj({ port: { type: 'integer', minimum: 1024 } }), 'port: minimum raised from 1 to 1024'],
    [obj({ tls: obj({ port: {} }) }), obj({ tls: obj({}) }), 'property tls.port removed'],
    [obj({ mode: { enum: ['a', 'b'] } }), obj({ mode: { enum: ['a'] } }), 'mode: enum value "b" removed'],
    [obj({ port: { default: 1 } }), obj({ port: { default: 2 } }), 'port: default changed from 1 to 2'],
    [obj({ name: { pattern: '^a' } }), obj({ name: { pattern: '^b' } }), 'name: pattern changed from "^a" to "^b"'],
    [obj({ hosts: { items: { maxLength: 3 } } }), obj({ hosts: { items: { maxLength: 2 } } }), 'hosts[]: maxLength lowered from 3 to 2'],
    [obj({ tls: { introducedIn: '1.29' } }), obj({ tls: { introducedIn: '1.30' } }), 'tls: introducedIn moved later from 1.29 to 1.30'],
    [obj({ a: {} }, { required: ['a'] }), obj({ a: {} }), 'a made optional'],
    [{ removedIn: '1.30' }, {}, 'the rendering: removedIn removed (was 1.30)'],
  ])('%#: %s', (before, after, message) => {
    expect(compareSchemas(before, after).map((c) => c.message)).toEqual([message]);
  });
});

describe('bumps (docs/compat.md)', () => {
  const breaking = { class: 'breaking' as const };
  const compatible = { class: 'compatible' as const };
  const words = { class: 'patch' as const };

  it.each<[string, { class: 'breaking' | 'compatible' | 'patch' }[], string | undefined, string]>([
    ['a breaking change', [words, breaking, compatible], '1.4.0', 'major'],
    ['a compatible change', [compatible, words], '1.4.0', 'minor'],
    ['words only', [words], '1.4.0', 'patch'],
    ['nothing', [], '1.4.0', 'none'],
    ['a breaking change from major version 0', [breaking], '0.3.1', 'minor'],
    ['a compatible change from major version 0', [compatible], '0.3.1', 'patch'],
    ['words from major version 0', [words], '0.3.1', 'patch'],
    ['nothing from major version 0', [], '0.3.1', 'none'],
    ['a breaking change from an unversioned definition', [breaking], undefined, 'major'],
  ])('%s needs %s', (_name, changes, from, bump) => {
    expect(neededBump(changes, from)).toBe(bump);
  });

  it.each([
    ['2.1.0', '2.2.0', 'minor'],
    ['2.1.0', '3.0.0', 'major'],
    ['2.1.0', '2.1.1', 'patch'],
    ['0.1.0', '0.2.0', 'minor'],
    ['2.0.0', '2.1.0-rc.1', 'minor'],
    ['2.1.0-rc.1', '2.1.0-rc.2', 'none'],
    ['2.1.0-rc.1', '2.1.0', 'none'],
  ])('%s → %s declares %s', (from, to, bump) => {
    expect(declaredBump(from, to)).toBe(bump);
  });

  it('says a declared bump covers the needed one only when it is at least as large', () => {
    expect([
      bumpCovers('major', 'minor'),
      bumpCovers('minor', 'minor'),
      bumpCovers('minor', 'major'),
      bumpCovers('none', 'patch'),
      bumpCovers('patch', 'none'),
    ]).toEqual([true, true, false, false, true]);
  });
});
