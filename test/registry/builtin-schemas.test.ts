import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { assertHandlerIsSound } from '../../src/catalogue/assert-handler.js';
import { SUPPORTED_KEYWORDS } from '../../src/schema/keywords.js';

// Built-ins register without the JSON Schema meta-check, so lint starts pay nothing for it;
// these tests are that check, run at build time.
const require = createRequire(import.meta.url);
const Ajv2020 = (
  require('ajv/dist/2020.js') as { default: new (options: object) => { validateSchema(s: unknown): boolean; compile(s: unknown): unknown; errors: unknown } }
).default;

const withSchemas = BUILTIN_HANDLERS.filter((h) => h.renderingSchema !== undefined);

/** Every keyword used anywhere in a schema (subschemas included). */
function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywordsOf(item, found);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' || key === 'dependentRequired') {
        found.add(key);
        for (const sub of Object.values(value as object)) keywordsOf(sub, found);
      } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
        found.add(key);
      } else {
        found.add(key);
        keywordsOf(value, found);
      }
    }
  }
  return found;
}

describe('built-in rendering schemas', () => {
  it('covers every built-in that validates its rendering', () => {
    expect(withSchemas.map((h) => h.type).sort()).toEqual([
      'certificate',
      'cilium-networkpolicy',
      'configmap',
      'expose',
      'external-secret',
      'networkpolicy',
      'pvc',
      'volsync',
    ]);
  });

  it.each(withSchemas.map((h) => [h.type, h] as const))('%s: is valid JSON Schema 2020-12 and compiles with ajv', (_type, handler) => {
    const ajv = new Ajv2020({ strict: false });
    expect({ valid: ajv.validateSchema(handler.renderingSchema), errors: ajv.errors ?? null }).toEqual({ valid: true, errors: null });
    expect(() => ajv.compile(handler.renderingSchema)).not.toThrow();
  });

  it.each(withSchemas.map((h) => [h.type, h] as const))("%s: uses only keywords kurel's engine evaluates", (_type, handler) => {
    const unsupported = [...keywordsOf(handler.renderingSchema)].filter((k) => !SUPPORTED_KEYWORDS.has(k));
    expect(unsupported).toEqual([]);
  });

  it.each(BUILTIN_HANDLERS.map((h) => [h.type, h] as const))('%s: passes the startup assertion a plugin would face', (_type, handler) => {
    expect(() => assertHandlerIsSound(handler, 'builtin', { checkSchema: true })).not.toThrow();
  });

  it.each(withSchemas.map((h) => [h.type, h] as const))(
    '%s: closes every object (additionalProperties: false) except free-form selectors',
    (_type, handler) => {
      const open: string[] = [];
      const walk = (schema: unknown, path: string) => {
        if (typeof schema !== 'object' || schema === null) return;
        const s = schema as Record<string, unknown>;
        if (s['type'] === 'object' && s['additionalProperties'] !== false) open.push(path || '/');
        for (const [name, sub] of Object.entries((s['properties'] as Record<string, unknown>) ?? {})) walk(sub, `${path}/${name}`);
        for (const branch of [...((s['anyOf'] as unknown[]) ?? []), ...((s['oneOf'] as unknown[]) ?? [])]) walk(branch, path);
        if (s['items']) walk(s['items'], `${path}/[]`);
      };
      walk(handler.renderingSchema, '');
      expect(open.filter((p) => !p.endsWith('/podSelector'))).toEqual([]);
    },
  );

  it('publishes expose as a union of exactly two closed branches told apart by controllerType', () => {
    const schema = BUILTIN_HANDLERS.find((h) => h.type === 'expose')!.renderingSchema as {
      anyOf: { properties: { controllerType: { const: string } }; required: string[] }[];
    };
    expect(schema.anyOf.map((b) => [b.properties.controllerType.const, [...b.required].sort()])).toEqual([
      ['ingress', ['controllerType', 'ingressClassName']],
      ['gateway', ['controllerType', 'gatewayName']],
    ]);
  });
});
