import { describe, expect, it } from 'vitest';
import {
  COMBINING,
  DEFINITION_SUBSCHEMAS,
  KEYWORD_TABLE,
  KEYWORDS,
  LIFECYCLE_ANNOTATION,
  PROPERTIES_KEYWORD,
  PUBLISHED_ORDER,
  SINGLE_SUBSCHEMA,
} from '../../src/schema/keywords.js';

// ARCHITECTURE.md, "Where each rule lives": what each reader takes from the keyword table.
describe('the keyword table', () => {
  it('names each keyword once', () => {
    expect(KEYWORD_TABLE.size).toBe(KEYWORDS.length);
  });

  it('pairs each lower bound with an upper bound of the same kind of value', () => {
    const pairs = KEYWORDS.flatMap((k) => (k.pair ? [[k.name, k.pair.upper, k.pair.counts, KEYWORD_TABLE.get(k.pair.upper)?.appliesTo === k.appliesTo]] : []));
    expect(pairs).toEqual([
      ['minLength', 'maxLength', true, true],
      ['minimum', 'maximum', false, true],
      ['minItems', 'maxItems', true, true],
    ]);
  });

  it('gives the console a phrase for the assertions only', () => {
    expect(KEYWORDS.filter((k) => k.shown !== undefined && k.role !== 'assertion').map((k) => k.name)).toEqual([]);
    expect(KEYWORDS.filter((k) => k.role === 'assertion' && k.shown === undefined).map((k) => k.name)).toEqual([]);
  });

  it('knows the subschema positions each reader asks for', () => {
    expect(PROPERTIES_KEYWORD).toBe('properties');
    expect(COMBINING).toEqual({ all: 'allOf', any: 'anyOf', one: 'oneOf' });
    expect(SINGLE_SUBSCHEMA).toEqual(['additionalProperties', 'propertyNames', 'items']);
    expect([...DEFINITION_SUBSCHEMAS]).toEqual([
      ['properties', 'map'],
      ['additionalProperties', 'one-or-boolean'],
      ['items', 'one'],
    ]);
  });

  it('keeps x-kurel-lifecycle for the publisher alone: an annotation no CRD and no given schema holds', () => {
    const entry = KEYWORD_TABLE.get(LIFECYCLE_ANNOTATION)!;
    expect({ role: entry.role, publish: entry.publish, publishedOnly: entry.publishedOnly, crd: entry.crd }).toEqual({
      role: 'annotation',
      publish: 'lifecycle-annotation',
      publishedOnly: true,
      crd: undefined,
    });
    expect(KEYWORDS.filter((k) => k.publishedOnly).map((k) => k.name)).toEqual([LIFECYCLE_ANNOTATION]);
  });

  it('publishes every lifecycle keyword by the lifecycle rule, so none reaches a published schema as it is', () => {
    expect(KEYWORDS.filter((k) => k.role === 'lifecycle' && k.publish !== 'lifecycle-annotation').map((k) => k.name)).toEqual([]);
  });

  it('orders published keys among keywords, and one TypeBox writes for records', () => {
    expect(PUBLISHED_ORDER.filter((name) => !KEYWORD_TABLE.has(name))).toEqual(['patternProperties']);
  });
});
