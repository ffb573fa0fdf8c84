import { setOwn } from '../core/data.js';
import { hasType, isSchemaObject, type JsonSchema, type JsonType } from '../core/json-schema.js';
import { KEYWORD_TABLE } from './keywords.js';
import { describeLifecycle, readEnumLifecycles, readLifecycle } from './lifecycle.js';
import { publishPattern } from './pattern.js';
import { mapSubschemas } from './walk.js';

/** The meta-schema URI of JSON Schema draft 2020-12, the dialect kurel publishes. */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const NOT_NULL: JsonSchema = { not: { type: 'null' } };

/**
 * Translates a schema of the engine's subset (what handlers and definitions declare) into
 * standard JSON Schema 2020-12 that judges every value as `checkSchema` does: `null` for an
 * optional property is accepted (it means absent), `null` for a required one is refused,
 * `dependentRequired` ignores `null`, integers must be exact (within 2^53), and kurel's own
 * `x-*` keywords are dropped (`x-expected` joins the description). Lifecycle keywords are said
 * in the description ("introduced in Kubernetes 1.29"); narrow a schema to a platform first
 * (`narrowSchema`) to leave out what it lacks. Returns a new schema; never mutates its input.
 */
export function publishSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const keyword = KEYWORD_TABLE.get(key);
    if (keyword?.publish === 'omit' || keyword?.role === 'lifecycle' || key === 'required' || key === 'dependentRequired') continue;
    if (key === 'properties') out.properties = publishProperties(schema, value as Record<string, JsonSchema>);
    else if (keyword?.subschemas !== undefined) out[key] = mapSubschemas(key, value, publishSubschema) ?? value;
    else if (key === 'pattern' && typeof value === 'string') out.pattern = publishPattern(value);
    else setOwn(out, key, structuredClone(value));
  }
  const expected = schema['x-expected'];
  // What a pattern means is worth keeping for the people reading the schema in an editor.
  if (typeof expected === 'string') out.description = out.description ? `${out.description}; expected ${expected}` : `expected ${expected}`;
  for (const phrase of lifecyclePhrases(schema)) out.description = out.description ? `${out.description}; ${phrase}` : phrase;
  if (schema.required !== undefined) out.required = [...schema.required];
  const extra: JsonSchema[] = [];
  const declared = schema.properties ?? {};
  const undeclaredRequired = (schema.required ?? []).filter((key) => !Object.hasOwn(declared, key));
  if (undeclaredRequired.length > 0) {
    // A separate subschema, so the keys do not count as declared for additionalProperties.
    extra.push({ properties: Object.fromEntries(undeclaredRequired.map((key) => [key, NOT_NULL])) });
  }
  for (const [key, needs] of Object.entries(schema.dependentRequired ?? {})) extra.push(dependency(schema, key, needs));
  if (extra.length > 0) out.allOf = [...(out.allOf ?? []), ...extra];
  if (hasType(out, 'integer')) boundIntegers(out);
  return ordered(out);
}

/** A subschema, published: the boolean schemas `true` and `false` mean the same in the standard. */
function publishSubschema(schema: JsonSchema | boolean): JsonSchema | boolean {
  return typeof schema === 'boolean' ? schema : publishSchema(schema);
}

/** The lifecycle of a node and of its enum values, in words: `introduced in Kubernetes 1.29`, `value "A": removed in Kubernetes 1.33`. */
function lifecyclePhrases(schema: JsonSchema): string[] {
  const phrases: string[] = [];
  const own = readLifecycle(schema);
  if (own) phrases.push(describeLifecycle(own));
  for (const [value, lifecycle] of readEnumLifecycles(schema) ?? []) phrases.push(`value ${JSON.stringify(value)}: ${describeLifecycle(lifecycle)}`);
  return phrases;
}

/**
 * True when the (published) schema accepts `null`. Exact: of the keywords the engine knows,
 * only these can refuse `null`; the others judge only strings, numbers, lists or maps.
 */
function admitsNull(schema: JsonSchema | boolean): boolean {
  if (typeof schema === 'boolean') return schema;
  if (schema.type !== undefined && !hasType(schema, 'null')) return false;
  if (schema.const !== undefined && schema.const !== null) return false;
  if (schema.enum !== undefined && !schema.enum.includes(null)) return false;
  if (isSchemaObject(schema.not) && schema.not.type === 'null') return false;
  if (schema.allOf?.some((part) => !admitsNull(part))) return false;
  if (schema.anyOf && !schema.anyOf.some(admitsNull)) return false;
  if (schema.oneOf && schema.oneOf.filter(admitsNull).length !== 1) return false;
  return true;
}

/** The schema, also accepting `null` (an optional property: null means absent). */
function orNull(schema: JsonSchema | boolean): JsonSchema | boolean {
  if (admitsNull(schema)) return schema;
  if (schema === false) return { type: 'null' };
  const object = schema as JsonSchema;
  const simple = ['anyOf', 'allOf', 'oneOf', 'not', '$ref', 'if'].every((k) => object[k] === undefined);
  if (simple && object.type !== undefined) {
    const types = Array.isArray(object.type) ? object.type : [object.type];
    const { const: literal, ...rest } = object;
    const choices = literal !== undefined ? [literal] : object.enum;
    const withNull: JsonType[] = types.includes('null') ? types : [...types, 'null'];
    return { ...rest, type: withNull, ...(choices !== undefined ? { enum: [...choices, null] } : {}) };
  }
  const { description, ...rest } = object;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/** The schema, refusing `null` (a required property: null means missing). */
function notNull(schema: JsonSchema | boolean): JsonSchema | boolean {
  if (!admitsNull(schema)) return schema;
  if (schema === true) return NOT_NULL;
  const object = schema as JsonSchema;
  if (object.not === undefined) return { ...object, not: { type: 'null' } };
  return { ...object, allOf: [...(object.allOf ?? []), NOT_NULL] };
}

function publishProperties(parent: JsonSchema, properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const required = new Set(parent.required ?? []);
  return mapValues(properties, (sub, key) => (required.has(key) ? notNull(publishSubschema(sub)) : orNull(publishSubschema(sub))));
}

/**
 * `dependentRequired` as the engine reads it: a key set to `null` is absent, both for the key
 * that needs others and for the keys it needs.
 */
function dependency(schema: JsonSchema, key: string, needs: readonly string[]): JsonSchema {
  const declared = (name: string) => Object.hasOwn(schema.properties ?? {}, name);
  const present = (names: readonly string[]): JsonSchema => {
    const nonNull = names.filter(declared);
    return {
      required: [...names],
      ...(nonNull.length > 0 ? { properties: Object.fromEntries(nonNull.map((name) => [name, NOT_NULL])) } : {}),
    };
  };
  return { if: present([key]), then: present(needs) };
}

const KEYWORD_ORDER = [
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'default',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'required',
];

// Readers of `kurel schema` see what a value is before how it is checked; the order means nothing else.
function ordered(schema: JsonSchema): JsonSchema {
  const rank = (key: string) => {
    const at = KEYWORD_ORDER.indexOf(key);
    return at === -1 ? KEYWORD_ORDER.length : at;
  };
  const out: JsonSchema = {};
  for (const key of Object.keys(schema).sort((a, b) => rank(a) - rank(b))) setOwn(out, key, schema[key]);
  return out;
}

/** The engine refuses integers it cannot hold exactly (beyond 2^53). */
function boundIntegers(schema: JsonSchema): void {
  schema.minimum = Math.max(schema.minimum ?? -MAX_SAFE, -MAX_SAFE);
  schema.maximum = Math.min(schema.maximum ?? MAX_SAFE, MAX_SAFE);
}

function mapValues(map: Record<string, JsonSchema>, f: (schema: JsonSchema, key: string) => JsonSchema | boolean): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema | boolean> = {};
  for (const [key, sub] of Object.entries(map)) setOwn(out, key, f(sub, key));
  return out as Record<string, JsonSchema>;
}
