import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { probe } from '../schema/plugin-verdict.js';

// For every schema over the keywords kurel accepts in a plugin's renderingSchema and every
// value, kurel's verdict (through the plugin path) equals Ajv 2020's on the schema kurel
// publishes. kurel's deliberate differences (docs/json-schema.md) are kept out by the generator,
// which says so where it does:
// - `default`: kurel fills absent properties with defaults, and a default filled by one part of
//   `allOf` or one branch of a union is seen by the keywords after it; no default is generated.
// - integers beyond 2^53 under `type`: kurel refuses them; the generated numbers are small, or
//   ±2^53 (the largest a double holds exactly, which both judge alike).
// - `__proto__` as a property name in `properties`: Ajv itself reads it as an inherited lookup,
//   so the schemas' property names are `a`, `b`, `constructor` and `toString`; `__proto__` is a
//   key of the data and a name in `required` and `dependentRequired`, which Ajv reads as own
//   (json-schema-semantics.test.ts judges `properties: {__proto__}` without Ajv).
// `null` is generated everywhere: the published schema states that kurel reads a property set
// to null as absent, so Ajv must agree on it too.

// Names a map inherits (`constructor`, `toString`) are ordinary names: only own keys count.
const KEYS = ['a', 'b', 'constructor', 'toString'] as const;
const key = fc.constantFrom(...KEYS);
// The data and the name lists have `__proto__` too, written as an own key.
const dataKey = fc.constantFrom(...KEYS, '__proto__');
const BIG = 2 ** 53;
const text = fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'abc', 'cab', 'A1');
const number = fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constantFrom(0.5, 1.5, 2.5), fc.constantFrom(BIG, -BIG));

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(dataKey, tie('value')), { maxLength: 3, selector: ([k]) => k }).map((entries) => Object.fromEntries(entries)),
  ),
}));

const TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'] as const;
const keyList = fc.uniqueArray(dataKey, { maxLength: 3 });
const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^(ab|ba)$'];

const { schema } = fc.letrec<{ schema: Record<string, unknown>; sub: unknown; keyword: [string, unknown] }>((tie) => ({
  sub: fc.oneof({ depthSize: 'small', maxDepth: 2 }, fc.boolean(), tie('schema')),
  schema: fc
    .tuple(
      fc.option(fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 2 }))),
      fc.uniqueArray(tie('keyword'), { maxLength: 3, selector: ([k]) => k }),
    )
    .map(([type, keywords]) => ({ ...(type === null ? {} : { type }), ...Object.fromEntries(keywords) })),
  keyword: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    fc.tuple(
      fc.constant('properties'),
      fc.uniqueArray(fc.tuple(key, tie('sub')), { minLength: 1, maxLength: 2, selector: ([k]) => k }).map(Object.fromEntries),
    ),
    fc.tuple(fc.constant('required'), keyList),
    fc.tuple(fc.constant('additionalProperties'), tie('sub')),
    fc.tuple(fc.constant('propertyNames'), tie('sub')),
    fc.tuple(
      fc.constant('dependentRequired'),
      fc.uniqueArray(fc.tuple(dataKey, keyList), { minLength: 1, maxLength: 2, selector: ([k]) => k }).map(Object.fromEntries),
    ),
    fc.tuple(fc.constant('items'), tie('sub')),
    fc.tuple(fc.constant('enum'), fc.array(value, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('const'), value),
    fc.tuple(fc.constant('anyOf'), fc.array(tie('sub'), { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('oneOf'), fc.array(tie('sub'), { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('allOf'), fc.array(tie('sub'), { minLength: 1, maxLength: 2 })),
    fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'), fc.nat(3)),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), number),
    fc.tuple(fc.constant('multipleOf'), fc.constantFrom(1, 2, 0.5, 3)),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constant('pattern'), fc.constantFrom(...PATTERNS)),
  ),
}));

/** A schema and values that often fit it: its own `const` and `enum` values among them. */
const sample = schema.chain((s) => {
  const near = [s['const'], ...(Array.isArray(s['enum']) ? s['enum'] : [])].filter((v) => v !== undefined);
  return fc.tuple(fc.constant(s), fc.array(near.length > 0 ? fc.oneof(value, fc.constantFrom(...near)) : value, { minLength: 1, maxLength: 4 }));
});

describe('kurel and Ajv 2020 on generated plugin schemas', () => {
  it('reach the same verdict on every value, through the plugin path', () => {
    fc.assert(
      fc.property(sample, ([generated, values]) => {
        // Every generated schema is valid JSON Schema over accepted keywords: none may be refused.
        const judge = probe(generated);
        for (const data of values) {
          const json = JSON.stringify(data);
          expect({ data: json, kurel: judge.kurel(json) }).toEqual({ data: json, kurel: judge.ajv(json) });
        }
      }),
      { numRuns: 200 },
    );
  });
});
