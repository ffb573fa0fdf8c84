import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { RegistryError } from '../../src/catalogue/errors.js';
import type { Handler } from '../../src/schema/handler.js';

const SOURCE = 'plugin:./broken.mjs';
const valid: Handler = { type: 'redis', description: 'adds redis', capabilityAware: false };

/** Registers a plain-JavaScript handler (as a plugin would) and returns what was thrown. */
function refusal(candidate: unknown): RegistryError {
  try {
    createCatalogue({ handlers: [{ handler: candidate, source: SOURCE }] });
  } catch (err) {
    if (err instanceof RegistryError) return err;
    throw err;
  }
  throw new Error('the registry accepted the handler');
}

describe('the startup assertion refuses a broken handler', () => {
  it('refuses a second handler for a built-in type, naming the type and who holds it', () => {
    const e = refusal({ ...valid, type: 'expose' });
    expect({ type: e.handlerType, reason: e.reason, source: e.source }).toEqual({
      type: 'expose',
      reason: 'type "expose" is already registered by builtin',
      source: SOURCE,
    });
    expect(e.message).toBe('handler "expose" (plugin:./broken.mjs): type "expose" is already registered by builtin');
  });

  it('refuses two plugins claiming the same type', () => {
    const registry = createCatalogue({ handlers: [{ handler: valid, source: 'plugin:./first.mjs' }] });
    expect(() => registry.withHandlers([{ handler: valid, source: 'plugin:./second.mjs' }])).toThrow(
      new RegistryError('redis', 'type "redis" is already registered by plugin:./first.mjs', 'plugin:./second.mjs'),
    );
  });

  it('refuses a capability-aware handler without validateAndApplyDefaults', () => {
    const e = refusal({ ...valid, capabilityAware: true, capabilityRequired: true, renderingSchema: { type: 'object' } });
    expect([e.handlerType, e.reason]).toEqual(['redis', 'a capability-aware handler must implement validateAndApplyDefaults']);
  });

  it('refuses a capability-aware handler without a rendering schema', () => {
    const e = refusal({ ...valid, capabilityAware: true, capabilityRequired: false, validateAndApplyDefaults: () => ({ rendering: {}, issues: [] }) });
    expect([e.handlerType, e.reason]).toEqual(['redis', 'a capability-aware handler must declare a renderingSchema']);
  });

  it.each([
    ['an unknown type name', { type: 'objekt' }, /^renderingSchema is not a valid JSON Schema: .*type must be equal to one of the allowed values/],
    [
      'a negative minLength',
      { type: 'object', properties: { a: { type: 'string', minLength: -1 } } },
      /^renderingSchema is not a valid JSON Schema: .*minLength must be >= 0/,
    ],
    ['a required list that is not a list', { type: 'object', required: 'name' }, /^renderingSchema is not a valid JSON Schema: .*required must be array/],
    ['a pattern that does not compile', { type: 'string', pattern: '(' }, /^renderingSchema is not a valid JSON Schema: .*Unterminated group/],
    [
      'a keyword kurel does not evaluate',
      { type: 'object', properties: { a: { if: { type: 'string' } } } },
      /^renderingSchema is not a valid JSON Schema: keyword "if" at \/properties\/a is not supported/,
    ],
    ['not an object', 'object', /^renderingSchema must be a JSON Schema object$/],
  ])('refuses a rendering schema with %s', (_name, renderingSchema, reason) => {
    const e = refusal({ ...valid, renderingSchema });
    expect(e.handlerType).toBe('redis');
    expect(e.reason).toMatch(reason);
  });

  it.each([
    ['not an object', 'expose', '(unnamed)', 'a handler must be an object, found string'],
    [
      'a type that is not a DNS-1123 label',
      { ...valid, type: 'Redis_Sidecar' },
      'Redis_Sidecar',
      'type must be a DNS-1123 label (lowercase letters, digits and -)',
    ],
    ['no description', { type: 'redis', capabilityAware: false }, 'redis', 'description must be a string'],
    ['no capabilityAware flag', { type: 'redis', description: 'x' }, 'redis', 'capabilityAware must be true or false'],
    ['capabilityRequired without capabilityAware', { ...valid, capabilityRequired: true }, 'redis', 'capabilityRequired needs capabilityAware: true'],
    ['validateAndApplyDefaults that is not a function', { ...valid, validateAndApplyDefaults: 'yes' }, 'redis', 'validateAndApplyDefaults must be a function'],
    ['platformReserved that is not a list of names', { ...valid, platformReserved: 'image' }, 'redis', 'platformReserved must be a list of key names'],
  ])('refuses a handler with %s', (_name, candidate, type, reason) => {
    const e = refusal(candidate);
    expect([e.handlerType, e.reason]).toEqual([type, reason]);
  });

  it('accepts a sound plugin handler, with or without a schema', () => {
    const registry = createCatalogue({
      handlers: [
        { handler: valid, source: SOURCE },
        {
          handler: { ...valid, type: 'memcached', renderingSchema: { type: 'object', properties: { size: { type: 'integer' } }, additionalProperties: false } },
          source: SOURCE,
        },
      ],
    });
    expect([registry.handler('redis')?.source, registry.handler('memcached')?.source]).toEqual([SOURCE, SOURCE]);
  });
});
