import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Rendering } from '../../src/schema/handler.js';
import { propertyRuns } from '../helpers/property.js';
import { data, forSchema } from './arbitraries.js';

// Issue #7: validateAndApplyDefaults of every built-in never mutates its input (docs/plugins.md) and is
// idempotent: applying it to its own output changes nothing.
const registry = createCatalogue();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

const WITH_SCHEMA = BUILTIN_HANDLERS.filter((h) => h.renderingSchema !== undefined).map((h) => [h.type, h] as const);
const WITH_FUNCTION = BUILTIN_HANDLERS.filter((h) => h.validateAndApplyDefaults !== undefined).map((h) => [h.type, h] as const);
const renderings = (type: string, valid: boolean) => {
  const schema = BUILTIN_HANDLERS.find((h) => h.type === type)?.renderingSchema;
  return (schema ? forSchema(schema, valid) : data).filter((r): r is Rendering => typeof r === 'object' && r !== null && !Array.isArray(r));
};

describe.each(WITH_FUNCTION)('validateAndApplyDefaults of %s', (type, handler) => {
  it('never mutates its input: a deep-frozen rendering is accepted and left as it was', () => {
    fc.assert(
      fc.property(renderings(type, false), (rendering) => {
        const before = structuredClone(rendering);
        handler.validateAndApplyDefaults!(deepFreeze(rendering));
        expect(rendering).toEqual(before);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('returns a new map, never its input', () => {
    fc.assert(
      fc.property(renderings(type, true), (rendering) => {
        expect(handler.validateAndApplyDefaults!(rendering).rendering).not.toBe(rendering);
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it('is idempotent on a rendering it accepts: its output checks clean and comes back unchanged', () => {
    fc.assert(
      fc.property(renderings(type, true), (rendering) => {
        const once = handler.validateAndApplyDefaults!(rendering);
        expect(once.issues).toEqual([]);
        const twice = handler.validateAndApplyDefaults!(deepFreeze(once.rendering));
        expect(twice).toEqual({ rendering: once.rendering, issues: [] });
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('reports the same issues when applied to its own output of a rejected rendering, less those of dropped keys', () => {
    fc.assert(
      fc.property(renderings(type, false), (rendering) => {
        const once = handler.validateAndApplyDefaults!(rendering);
        const twice = handler.validateAndApplyDefaults!(deepFreeze(once.rendering));
        const paths = (issues: typeof once.issues) => new Set(issues.map((i) => JSON.stringify(i.path)));
        // Unknown keys and nulls are dropped by the first pass; nothing new may appear.
        for (const path of paths(twice.issues)) expect(paths(once.issues)).toContain(path);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe.each(WITH_SCHEMA)('the registry check of %s (schema or function)', (type) => {
  it('never mutates its input, and is idempotent on what it accepts', () => {
    fc.assert(
      fc.property(renderings(type, false), (rendering) => {
        const before = structuredClone(rendering);
        const once = registry.validateRendering(type, deepFreeze(rendering)).result;
        expect(rendering).toEqual(before);
        if (once.issues.length === 0) expect(registry.validateRendering(type, deepFreeze(once.rendering)).result).toEqual(once);
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});
