import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { walkSchema } from '../../src/schema/walk.js';

const SCHEMA = {
  type: 'object',
  properties: { a: { type: 'array', items: { type: 'string' } }, b: true },
  additionalProperties: { anyOf: [false, { minimum: 1 }] },
  propertyNames: { maxLength: 3 },
  dependentRequired: { a: ['b'] },
  enum: [{ properties: { not: 'a schema' } }],
} as unknown as JsonSchema;

describe('walkSchema', () => {
  it('visits every object subschema the keyword table names, parents first, in the order written, skipping booleans', () => {
    const seen: string[] = [];
    walkSchema(SCHEMA, undefined, (_node, at) => {
      seen.push(at);
      return undefined;
    });
    expect(seen).toEqual(['', '/properties/a', '/properties/a/items', '/additionalProperties', '/additionalProperties/anyOf/1', '/propertyNames']);
  });

  it('hands each child the context its parent gives it, and stops at the first answer', () => {
    const depths: [string, number][] = [];
    const found = walkSchema<number, string>(SCHEMA, 0, (node, at, depth) => {
      depths.push([at, depth]);
      if (node.minimum !== undefined) return { found: `minimum at ${at}` };
      return { children: () => depth + 1 };
    });
    expect(found).toBe('minimum at /additionalProperties/anyOf/1');
    expect(depths).toEqual([
      ['', 0],
      ['/properties/a', 1],
      ['/properties/a/items', 2],
      ['/additionalProperties', 1],
      ['/additionalProperties/anyOf/1', 2],
    ]);
  });

  it('walks a schema nested far deeper than the call stack allows', () => {
    let deep: JsonSchema = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { items: deep };
    let count = 0;
    walkSchema(deep, undefined, () => {
      count += 1;
      return undefined;
    });
    expect(count).toBe(100_001);
  });
});
