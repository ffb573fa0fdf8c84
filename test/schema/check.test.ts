import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../src/core/diagnostics.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { checkSchema } from '../../src/schema/check.js';

/** An issue reduced to what these tests pin: code, path, and the part it points at. */
const brief = (issues: Issue[]) =>
  issues.map((i) => ({ code: i.code, path: i.path.join('/'), ...(i.part ? { part: i.part } : {}), ...(i.at ? { at: i.at } : {}) }));

const Closed = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    replicas: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    mode: Type.Optional(Type.String({ default: 'fast' })),
    tags: Type.Optional(Type.Array(Type.String(), { uniqueItems: true, minItems: 1 })),
    nested: Type.Optional(Type.Object({ level: Type.Optional(Type.String({ default: 'info' })) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

describe('checkSchema: types', () => {
  it.each([
    ['a string for an integer', { name: 'a', replicas: '3' }, 'replicas'],
    ['2.5 for an integer', { name: 'a', replicas: 2.5 }, 'replicas'],
    ['a number for a string', { name: 5 }, 'name'],
    ['a map for a list', { name: 'a', tags: { a: 1 } }, 'tags'],
    ['a list for a map', { name: 'a', nested: [] }, 'nested'],
    ['a boolean for a string', { name: true }, 'name'],
  ])('reports %s as wrong-type', (_name, value, path) => {
    expect(brief(checkSchema(Closed, value).issues)).toEqual([{ code: 'wrong-type', path }]);
  });

  it('reports an integer beyond 2^53 (kept exact as a bigint) as invalid-value where an integer is expected', () => {
    const result = checkSchema(Closed, { name: 'a', replicas: 9007199254740993n });
    expect(brief(result.issues)).toEqual([{ code: 'invalid-value', path: 'replicas' }]);
    expect(result.issues[0]!.message).toBe('replicas is 9007199254740993, beyond 2^53: it cannot be represented exactly');
  });

  it('keeps an integer beyond 2^53 as exact data where any value is accepted', () => {
    const schema = Type.Object({}, { additionalProperties: true });
    expect(checkSchema(schema, { big: 123456789012345678901234567890n })).toEqual({ value: { big: 123456789012345678901234567890n }, issues: [] });
  });

  it('accepts a whole number written as 2.0 for an integer', () => {
    expect(checkSchema(Closed, { name: 'a', replicas: 2.0 }).issues).toEqual([]);
  });

  it('reports an empty required name as invalid-value saying it must not be empty', () => {
    const { issues } = checkSchema(Closed, { name: '' });
    expect(brief(issues)).toEqual([{ code: 'invalid-value', path: 'name' }]);
    expect(issues[0]!.message).toBe('name must not be empty');
  });

  it.each([
    ['below the minimum', 0, 'replicas must be at least 1, found 0'],
    ['above the maximum', 11, 'replicas must be at most 10, found 11'],
  ])('reports a number %s as invalid-value', (_name, replicas, message) => {
    const { issues } = checkSchema(Closed, { name: 'a', replicas });
    expect(issues.map((i) => [i.code, i.message])).toEqual([['invalid-value', message]]);
  });

  it('reports list constraints: too few items and repeated items', () => {
    expect(brief(checkSchema(Closed, { name: 'a', tags: [] }).issues)).toEqual([{ code: 'invalid-value', path: 'tags' }]);
    expect(brief(checkSchema(Closed, { name: 'a', tags: ['x', 'y', 'x'] }).issues)).toEqual([{ code: 'invalid-value', path: 'tags/2' }]);
  });

  it('reports a pattern mismatch in the words of x-expected', () => {
    const schema: JsonSchema = { type: 'string', pattern: '^[a-z]+$', 'x-expected': 'lowercase letters' };
    expect(checkSchema(schema, 'ABC').issues.map((i) => i.message)).toEqual(['the value must be lowercase letters, found string "ABC"']);
  });

  it('reports an enum mismatch with a did-you-mean hint', () => {
    const schema: JsonSchema = { enum: ['ingress', 'gateway'] };
    expect(checkSchema(schema, 'gatway').issues).toMatchObject([{ code: 'invalid-value', hint: 'did you mean gateway?' }]);
  });
});

describe('checkSchema: null, required and defaults', () => {
  it('treats null for an optional key as absent, so its default applies', () => {
    expect(checkSchema(Closed, { name: 'a', mode: null })).toEqual({ value: { name: 'a', mode: 'fast' }, issues: [] });
  });

  it('reports null for a required key once, as missing-required pointing at the written key', () => {
    expect(brief(checkSchema(Closed, { name: null }).issues)).toEqual([{ code: 'missing-required', path: 'name', part: 'key' }]);
  });

  it('reports an absent required key as missing-required pointing at its parent', () => {
    expect(brief(checkSchema(Closed, {}).issues)).toEqual([{ code: 'missing-required', path: 'name' }]);
  });

  it('applies defaults inside a present object but never creates an absent parent', () => {
    expect(checkSchema(Closed, { name: 'a' }).value).toEqual({ name: 'a', mode: 'fast' });
    expect(checkSchema(Closed, { name: 'a', nested: {} }).value).toEqual({ name: 'a', mode: 'fast', nested: { level: 'info' } });
  });

  it('never applies the default of a required key', () => {
    const schema = Type.Object({ image: Type.String({ default: 'redis:7' }) });
    expect(brief(checkSchema(schema, {}).issues)).toEqual([{ code: 'missing-required', path: 'image' }]);
  });

  it('gives each result its own copy of an object default', () => {
    const schema = Type.Object({ labels: Type.Optional(Type.Object({}, { additionalProperties: true, default: { team: 'a' } })) });
    const first = checkSchema(schema, {}).value as { labels: Record<string, string> };
    first.labels['team'] = 'changed';
    expect(checkSchema(schema, {}).value).toEqual({ labels: { team: 'a' } });
  });

  it('returns new maps and lists and never mutates its (deeply frozen) input', () => {
    const input = deepFreeze({ name: 'a', tags: ['x'], nested: {} });
    const result = checkSchema(Closed, input);
    expect(result.value).toEqual({ name: 'a', mode: 'fast', tags: ['x'], nested: { level: 'info' } });
    const value = result.value as typeof input;
    expect([value === input, value.tags === input.tags, value.nested === input.nested]).toEqual([false, false, false]);
  });

  it('reports every problem, not only the first', () => {
    const { issues } = checkSchema(Closed, { replicas: 0, mode: 3, tags: 'x', extra: 1, nested: { level: 2, other: 1 } });
    expect(brief(issues).sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { code: 'unknown-field', path: 'extra' },
      { code: 'wrong-type', path: 'mode' },
      { code: 'missing-required', path: 'name' },
      { code: 'wrong-type', path: 'nested/level' },
      { code: 'unknown-field', path: 'nested/other' },
      { code: 'invalid-value', path: 'replicas' },
      { code: 'wrong-type', path: 'tags' },
    ]);
  });
});

describe('checkSchema: unknown keys', () => {
  it('reports an unknown key with a did-you-mean hint and the allowed keys', () => {
    const { issues } = checkSchema(Closed, { name: 'a', replica: 2 });
    expect(issues).toMatchObject([{ code: 'unknown-field', path: ['replica'], hint: 'did you mean replicas?' }]);
    expect(issues[0]!.message).toBe('unknown field "replica" (allowed: name, replicas, mode, tags, nested)');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('reports %s as an ordinary unknown key of a closed map', (key) => {
    const input = JSON.parse(`{"name": "a", "${key}": {"polluted": true}}`) as unknown;
    expect(brief(checkSchema(Closed, input).issues)).toEqual([{ code: 'unknown-field', path: key }]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'prototype'])('keeps %s as plain own data in an open map without touching a prototype', (key) => {
    const input = JSON.parse(`{"${key}": {"polluted": true}}`) as unknown;
    const { value, issues } = checkSchema(Type.Object({}, { additionalProperties: true }), input);
    expect(issues).toEqual([]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, key)?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reports keys that fail propertyNames as invalid-key', () => {
    const schema: JsonSchema = { type: 'object', additionalProperties: true, propertyNames: { pattern: '^[a-z]+$', 'x-expected': 'lowercase letters' } };
    const { issues } = checkSchema(schema, { good: 1, Bad: 2 });
    expect(brief(issues)).toEqual([{ code: 'invalid-key', path: 'Bad' }]);
    expect(issues[0]!.message).toBe('invalid key "Bad": expected lowercase letters');
  });
});

describe('checkSchema: unions', () => {
  const Tagged = Type.Union([
    Type.Object({ kind: Type.Literal('a'), alpha: Type.String(), shared: Type.Optional(Type.String()) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('b'), beta: Type.String(), shared: Type.Optional(Type.String()) }, { additionalProperties: false }),
  ]);

  it('picks the branch by its discriminator and reports only that branch', () => {
    const { issues } = checkSchema(Tagged, { kind: 'b' });
    expect(brief(issues)).toEqual([{ code: 'missing-required', path: 'beta' }]);
    expect(issues[0]!.message).toBe('beta is required when kind is b');
  });

  it("reports another branch's key as field-not-allowed", () => {
    const { issues } = checkSchema(Tagged, { kind: 'a', alpha: 'x', beta: 'y' });
    expect(brief(issues)).toEqual([{ code: 'field-not-allowed', path: 'beta' }]);
    expect(issues[0]!.message).toBe('beta is not allowed when kind is a');
  });

  it('reports a missing discriminator naming the options, and a wrong one with a hint', () => {
    expect(checkSchema(Tagged, { alpha: 'x' }).issues.map((i) => [i.code, i.path.join('/'), i.message])).toEqual([
      ['missing-required', 'kind', 'kind is required (one of a, b)'],
    ]);
    expect(brief(checkSchema(Tagged, { kind: 'c', alpha: 'x' }).issues)).toEqual([{ code: 'invalid-value', path: 'kind' }]);
    expect(brief(checkSchema(Tagged, { kind: 1 }).issues)).toEqual([{ code: 'wrong-type', path: 'kind' }]);
  });

  it('reports a non-map for a discriminated union as wrong-type', () => {
    expect(brief(checkSchema(Tagged, 'a').issues)).toEqual([{ code: 'wrong-type', path: '' }]);
  });

  it('reports the closest branch of a plain union, or every expected type when none fits', () => {
    const schema = Type.Union([Type.String({ minLength: 2 }), Type.Integer()]);
    expect(checkSchema(schema, 'ab').issues).toEqual([]);
    expect(brief(checkSchema(schema, 'a').issues)).toEqual([{ code: 'invalid-value', path: '' }]);
    expect(checkSchema(schema, true).issues.map((i) => i.message)).toEqual(['the value must be a string or an integer, found boolean true']);
  });
});

describe('checkSchema: dependentRequired', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { url: { type: 'string' }, signin: { type: 'string' } },
    dependentRequired: { signin: ['url'] },
    additionalProperties: false,
  };

  it("reports the needed key's path, positioned at the key that needs it", () => {
    const { issues } = checkSchema(schema, { signin: 'x' });
    expect(brief(issues)).toEqual([{ code: 'missing-required', path: 'url', at: { path: ['signin'], part: 'key' } }]);
    expect(issues[0]!.message).toBe('url is required when signin is set');
  });

  it('treats a null dependent key as absent', () => {
    expect(checkSchema(schema, { signin: null }).issues).toEqual([]);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('checkSchema: count bounds read as English', () => {
  it.each([
    [{ type: 'array', minItems: 1 }, [], 'the value must have at least 1 item, found 0'],
    [{ type: 'array', minItems: 2 }, [1], 'the value must have at least 2 items, found 1'],
    [{ type: 'array', maxItems: 1 }, [1, 2], 'the value must have at most 1 item, found 2'],
    [{ type: 'object', minProperties: 1 }, {}, 'the value must have at least 1 entry, found 0'],
    [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, 'the value must have at most 1 entry, found 2'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'the value must be at most 1 character long, found 2'],
    [{ type: 'string', minLength: 2 }, 'a', 'the value must be at least 2 characters long, found 1'],
  ])('%j judges %j: %s', (schema, data, message) => {
    expect(checkSchema(schema as JsonSchema, data).issues.map((i) => i.message)).toEqual([message]);
  });
});
