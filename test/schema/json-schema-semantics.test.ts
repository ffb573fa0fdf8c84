import { describe, expect, it } from 'vitest';
import { probe, refusal } from './plugin-verdict.js';

// JSON Schema 2020-12 semantics of every keyword kurel accepts in a plugin's renderingSchema,
// judged through the plugin path (see plugin-verdict.ts). Each row: a schema, data as JSON
// text, and the standard's verdict, which kurel and Ajv (on the schema kurel publishes) must
// both reach. Rows follow the topics of the official JSON-Schema-Test-Suite (draft 2020-12);
// the data is written here. See docs/json-schema.md for kurel's deliberate differences.
// A fifth column says why Ajv cannot be the witness for a row (its own departure from the standard).
type Row = [string, unknown, string, boolean, string?];

const AJV_PROTO = 'Ajv compiles a property named __proto__ into an inherited lookup';
const AJV_ROUNDS = 'the witness reads data with JSON.parse, which rounds an integer beyond 2^53';

const PROTO_PROPERTY = JSON.parse('{"properties": {"__proto__": {"type": "number"}}}') as unknown;

const ROWS: Row[] = [
  // oneOf: exactly one branch
  ['oneOf: the first branch alone', { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, '1', true],
  ['oneOf: the second branch alone', { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, '2.5', true],
  ['oneOf: both branches', { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, '3', false],
  ['oneOf: no branch', { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, '1.5', false],
  ['oneOf: base type beside it', { type: 'string', oneOf: [{ minLength: 2 }, { maxLength: 4 }] }, '3', false],
  ['oneOf: string in both branches', { type: 'string', oneOf: [{ minLength: 2 }, { maxLength: 4 }] }, '"foo"', false],
  ['oneOf: string in one branch', { type: 'string', oneOf: [{ minLength: 2 }, { maxLength: 4 }] }, '"foobar"', true],
  ['oneOf: true, true', { oneOf: [true, true] }, '"x"', false],
  ['oneOf: true, false', { oneOf: [true, false] }, '"x"', true],
  ['oneOf: false, false', { oneOf: [false, false] }, '"x"', false],
  ['oneOf: required in both branches', { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] }, '{"a": 1, "b": 2}', false],
  ['oneOf: required in one branch', { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] }, '{"a": 1}', true],
  ['oneOf: an empty schema and a typed one', { oneOf: [{ type: 'number' }, {}] }, '123', false],
  ['oneOf: an empty schema and a typed one, other type', { oneOf: [{ type: 'number' }, {}] }, '"foo"', true],
  ['oneOf: nested unions', { oneOf: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, { type: 'integer' }] }, '"x"', true],
  // anyOf
  ['anyOf: first branch', { anyOf: [{ type: 'integer' }, { minimum: 2 }] }, '1', true],
  ['anyOf: both branches', { anyOf: [{ type: 'integer' }, { minimum: 2 }] }, '3', true],
  ['anyOf: no branch', { anyOf: [{ type: 'integer' }, { minimum: 2 }] }, '1.5', false],
  ['anyOf: base type beside it', { type: 'string', anyOf: [{ maxLength: 2 }, { minLength: 4 }] }, '3', false],
  ['anyOf: base type and a branch', { type: 'string', anyOf: [{ maxLength: 2 }, { minLength: 4 }] }, '"foobar"', true],
  ['anyOf: base type, no branch', { type: 'string', anyOf: [{ maxLength: 2 }, { minLength: 4 }] }, '"foo"', false],
  ['anyOf: true, false', { anyOf: [true, false] }, '"foo"', true],
  ['anyOf: false, false', { anyOf: [false, false] }, '"foo"', false],
  ['anyOf: with oneOf beside it, both hold', { anyOf: [{ type: 'integer' }], oneOf: [{ minimum: 2 }, { maximum: 0 }] }, '3', true],
  ['anyOf: with oneOf beside it, oneOf fails', { anyOf: [{ type: 'integer' }], oneOf: [{ minimum: 2 }, { maximum: 5 }] }, '3', false],
  ['anyOf: with oneOf beside it, anyOf fails', { anyOf: [{ type: 'string' }], oneOf: [{ minimum: 2 }, { maximum: 0 }] }, '3', false],
  // allOf
  ['allOf: both parts', { allOf: [{ type: 'object', required: ['bar'] }, { required: ['foo'] }] }, '{"foo": "x", "bar": 2}', true],
  ['allOf: one part fails', { allOf: [{ type: 'object', required: ['bar'] }, { required: ['foo'] }] }, '{"foo": "x"}', false],
  ['allOf: base minimum beside it', { minimum: 30, allOf: [{ maximum: 40 }] }, '25', false],
  ['allOf: true, true', { allOf: [true, true] }, '"foo"', true],
  ['allOf: true, false', { allOf: [true, false] }, '"foo"', false],
  // boolean subschemas
  ['items: false refuses an item', { items: false }, '[1]', false],
  ['items: false accepts an empty list', { items: false }, '[]', true],
  ['items: true accepts any item', { items: true }, '[1, "a", null]', true],
  ['properties: true accepts any value', { properties: { foo: true, bar: false } }, '{"foo": 1}', true],
  ['properties: false refuses a value', { properties: { foo: true, bar: false } }, '{"bar": 2}', false],
  ['properties: false accepts its absence', { properties: { foo: true, bar: false } }, '{}', true],
  ['propertyNames: false refuses any key', { propertyNames: false }, '{"a": 1}', false],
  ['propertyNames: false accepts an empty map', { propertyNames: false }, '{}', true],
  ['additionalProperties: false', { properties: { a: {} }, additionalProperties: false }, '{"a": 1, "b": 2}', false],
  // keywords without a type
  ['required without type', { required: ['a'] }, '{}', false],
  ['required without type ignores other types', { required: ['a'] }, '"x"', true],
  ['required without type: a list is not a map', { required: ['a'] }, '[]', true],
  ['dependentRequired without type', { dependentRequired: { bar: ['foo'] } }, '{"bar": 2}', false],
  ['dependentRequired without type, met', { dependentRequired: { bar: ['foo'] } }, '{"bar": 2, "foo": 1}', true],
  ['dependentRequired without type, not triggered', { dependentRequired: { bar: ['foo'] } }, '{"foo": 1}', true],
  ['dependentRequired ignores other types', { dependentRequired: { bar: ['foo'] } }, '["bar"]', true],
  ['propertyNames without type', { propertyNames: { maxLength: 3 } }, '{"abcd": 1}', false],
  ['propertyNames without type, short keys', { propertyNames: { maxLength: 3 } }, '{"abc": 1}', true],
  ['propertyNames ignores other types', { propertyNames: { maxLength: 3 } }, '"abcdef"', true],
  ['properties without type', { properties: { a: { type: 'string' } } }, '{"a": 1}', false],
  ['minProperties without type', { minProperties: 1 }, '{}', false],
  ['maxProperties without type', { maxProperties: 1 }, '{"a": 1, "b": 2}', false],
  ['minLength without type', { minLength: 2 }, '"a"', false],
  ['minLength ignores other types', { minLength: 2 }, '1', true],
  ['maxLength counts code points', { maxLength: 2 }, '"\\ud83d\\udca9\\ud83d\\udca9"', true],
  ['pattern without type', { pattern: '^a' }, '"b"', false],
  ['pattern ignores other types', { pattern: '^a' }, 'true', true],
  ['minimum without type', { minimum: 2 }, '1', false],
  ['exclusiveMaximum without type', { exclusiveMaximum: 3 }, '3', false],
  ['multipleOf without type', { multipleOf: 2 }, '7', false],
  ['multipleOf with a fraction', { multipleOf: 0.5 }, '4.5', true],
  ['multipleOf a small decimal', { multipleOf: 0.0001 }, '0.0075', true, 'Ajv divides in binary floating point'],
  ['multipleOf a small decimal, not a multiple', { multipleOf: 0.0001 }, '0.00751', false],
  ['multipleOf a decimal of an integer', { multipleOf: 0.1 }, '3', true],
  ['multipleOf a large divisor', { multipleOf: 1e21 }, '2e21', true],
  ['minItems without type', { minItems: 1 }, '[]', false],
  ['maxItems without type', { maxItems: 1 }, '[1, 2]', false],
  ['uniqueItems without type', { uniqueItems: true }, '[{"a": 1, "b": 2}, {"b": 2, "a": 1}]', false],
  ['uniqueItems: 1 and true differ', { uniqueItems: true }, '[1, true]', true],
  ['items without type', { items: { type: 'integer' } }, '[1, "x"]', false],
  // own properties only
  ['required: inherited names are not present', { required: ['__proto__', 'toString', 'constructor'] }, '{}', false],
  [
    'required: own keys named like inherited ones',
    { required: ['__proto__', 'toString', 'constructor'] },
    '{"__proto__": 1, "toString": 2, "constructor": 3}',
    true,
  ],
  ['properties: __proto__ is an ordinary key', PROTO_PROPERTY, '{"__proto__": "foo"}', false, AJV_PROTO],
  ['properties: __proto__ with a number', PROTO_PROPERTY, '{"__proto__": 12}', true],
  ['properties: toString is an ordinary key', { properties: { toString: { type: 'number' } } }, '{"toString": "x"}', false],
  ['dependentRequired: constructor is an ordinary key', { dependentRequired: { constructor: ['toString'] } }, '{"constructor": 1}', false],
  ['enum: a map is not its prototype', { enum: [{}] }, '{"constructor": 1}', false],
  // exact integers
  ['const: 2^53 equals itself', { const: 9007199254740992 }, '9007199254740992', true],
  ['const: 2^53 written as a float', { const: 9007199254740992 }, '9007199254740992.0', true],
  ['enum: 2^53 equals itself', { enum: [1, 9007199254740992] }, '9007199254740992', true],
  ['const: 2^53 under type integer, held exactly', { type: 'integer', const: 9007199254740992 }, '9007199254740992', true],
  ['enum: -2^53 under type number, held exactly', { type: 'number', enum: [-9007199254740992] }, '-9007199254740992', true],
  ['const: 2^53 + 1 is another integer', { const: 9007199254740992 }, '9007199254740993', false, AJV_ROUNDS],
  ['const: a map with toString and __proto__ keys', JSON.parse('{"const": {"toString": 1, "__proto__": 2}}'), '{"__proto__": 2, "toString": 1}', true],
  ['maximum: an integer beyond 2^53 compared exactly', { maximum: 9007199254740992 }, '9007199254740993', false, AJV_ROUNDS],
  ['maximum: an integer beyond 2^53 at the bound', { maximum: 9007199254740992 }, '9007199254740992', true],
  ['minimum: an integer beyond 2^53 compared exactly', { minimum: 9007199254740992 }, '9007199254740993', true],
  ['exclusiveMinimum: a fractional bound below a large integer', { exclusiveMinimum: 0.5 }, '9007199254740993', true],
  ['exclusiveMaximum: a fractional bound below a large integer', { exclusiveMaximum: 0.5 }, '9007199254740993', false],
  ['multipleOf: an odd integer beyond 2^53', { multipleOf: 2 }, '9007199254740993', false, AJV_ROUNDS],
  ['multipleOf: an even integer beyond 2^53', { multipleOf: 2 }, '9007199254740994', true],
  ['const: 1 and 1.0 are equal', { const: 1 }, '1.0', true],
  ['const: 1 and true differ', { const: 1 }, 'true', false],
  ['const: deep equality, key order aside', { const: { a: [1, { b: 2 }], c: 'x' } }, '{"c": "x", "a": [1, {"b": 2}]}', true],
  ['enum: a list differs from its items', { enum: [[1, 2]] }, '1', false],
  // type
  ['type: integer takes 1.0', { type: 'integer' }, '1.0', true],
  ['type: a list of types', { type: ['string', 'integer'] }, '1.5', false],
];

describe('JSON Schema 2020-12 semantics through the plugin path', () => {
  it.each(ROWS)('%s', (_name, schema, data, valid, ajvDeparts) => {
    const judge = probe(schema);
    if (ajvDeparts) expect(judge.kurel(data)).toBe(valid);
    else expect({ kurel: judge.kurel(data), ajv: judge.ajv(data) }).toEqual({ kurel: valid, ajv: valid });
  });
});

describe('keywords the engine does not evaluate', () => {
  it.each([
    ['prefixItems', { prefixItems: [{ type: 'string' }] }, 'keyword "prefixItems" at /properties/v'],
    ['not', { not: { type: 'string' } }, 'keyword "not" at /properties/v'],
    ['if', { if: { type: 'string' }, then: { minLength: 1 } }, 'keyword "if" at /properties/v'],
    ['patternProperties', { patternProperties: { '^a': {} } }, 'keyword "patternProperties" at /properties/v'],
    ['a keyword inside a boolean-holding union', { anyOf: [true, { contains: {} }] }, 'keyword "contains" at /properties/v/anyOf/1'],
    // Only the publisher writes it, from the lifecycle keywords (docs/json-schema.md).
    ['x-kurel-lifecycle', { type: 'string', 'x-kurel-lifecycle': { introducedIn: '1.30' } }, 'keyword "x-kurel-lifecycle" at /properties/v'],
  ])('refuses %s at start, naming it and where it is', (_name, schema, where) => {
    expect(refusal(schema)).toContain(where);
  });
});
