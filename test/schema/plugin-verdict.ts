import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type Catalogue, createCatalogue } from '../../src/catalogue/catalogue.js';
import { capabilitySchema, renderingSchemaDocument } from '../../src/operations/capability-schema.js';
import { validateProfile } from '../../src/operations/validate-profile.js';

/**
 * The plugin path a plugin author uses: the schema under test is the required property `v` of a
 * handler's `renderingSchema`, and a profile binds the handler to the rendering `{v: data}`.
 */
export interface PluginProbe {
  /** kurel's verdict on the data, written as JSON text (integers beyond 2^53 keep their digits). */
  kurel(dataJson: string): boolean;
  /** Ajv 2020's verdict on the same data under the rendering schema as kurel publishes it. */
  ajv(dataJson: string): boolean;
}

/** The rendering schema that holds `schema` as its required property `v`. */
export function renderingSchemaFor(schema: unknown): Record<string, unknown> {
  return { type: 'object', properties: { v: schema }, required: ['v'], additionalProperties: false };
}

function handlerWith(schema: unknown): object {
  return { type: 'probe', description: 'holds the schema under test', capabilityAware: false, renderingSchema: renderingSchemaFor(schema) };
}

let ajv: Ajv2020 | undefined;

/**
 * Equality as JSON Schema 2020-12 defines it for `const`, `enum` and `uniqueItems`: own keys
 * only, numbers by value. Ajv's own (fast-deep-equal) calls a map's `toString` or `valueOf`
 * when it is not Object's, so a map with such a key throws there instead of being compared.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

// One instance for every probe: building one compiles the meta-schemas, the slow part.
// ownProperties: Ajv otherwise reads inherited names (toString) as present, unlike the standard.
function witness(): Ajv2020 {
  if (!ajv) {
    // The compiled keywords take the equality Ajv's runtime module holds when they are compiled.
    const runtime = createRequire(import.meta.url)('ajv/dist/runtime/equal.js') as { default: ((a: unknown, b: unknown) => boolean) & { code?: string } };
    runtime.default = Object.assign(jsonEqual, { code: runtime.default.code });
    ajv = new Ajv2020({ strict: false, allowUnionTypes: true, ownProperties: true });
  }
  return ajv;
}

/** Registers the schema as a plugin's (throws the registry's refusal when kurel refuses it at start). */
export function probe(schema: unknown): PluginProbe {
  const catalogue: Catalogue = createCatalogue({ builtins: false, handlers: [{ handler: handlerWith(schema), source: 'plugin:probe' }] });
  const published = renderingSchemaDocument(capabilitySchema(catalogue, 'probe')!);
  const judge = witness().compile(published);
  witness().removeSchema(published);
  return {
    kurel(dataJson) {
      const profile = `{"apiVersion": "launcher.gokure.dev/v1alpha1", "kind": "ClusterProfile", "metadata": {"name": "probe"}, "spec": {"capabilities": {"probe": {"rendering": {"v": ${dataJson}}}}}}`;
      return validateProfile({ profile: { file: 'cluster.yaml', content: profile } }, catalogue).valid;
    },
    ajv(dataJson) {
      return judge({ v: JSON.parse(dataJson) as unknown }) === true;
    },
  };
}

/** Why the catalogue refuses the schema at start, or undefined when it takes it. */
export function refusal(schema: unknown): string | undefined {
  try {
    createCatalogue({ builtins: false, handlers: [{ handler: handlerWith(schema), source: 'plugin:probe' }] });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
