import { setOwn } from '../core/data.js';
import { hasType, isSchemaObject, type JsonSchema, type JsonType } from '../core/json-schema.js';
import { KEYWORD_TABLE, KEYWORDS, LIFECYCLE_ANNOTATION, LIFECYCLE_BOUNDS, LIFECYCLE_NOTE, PUBLISHED_ORDER, type PublishRule } from './keywords.js';
import { describeLifecycle, type Lifecycle, readEnumLifecycles, readLifecycle } from './lifecycle.js';
import { publishPattern } from './pattern.js';
import { KUBERNETES } from './platform-version.js';
import { mapSubschemas } from './walk.js';

/** The meta-schema URI of JSON Schema draft 2020-12, the dialect kurel publishes. */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

// The largest integer the engine holds exactly, 2^53 (a double holds it; 2^53 + 1 it does not).
const MAX_EXACT = 2 ** 53;
const NOT_NULL: JsonSchema = { not: { type: 'null' } };
const COMBINED_LISTS = KEYWORDS.filter((k) => k.combines !== undefined).map((k) => k.name);

/**
 * Translates a schema of the engine's subset (what handlers and definitions declare) into
 * standard JSON Schema 2020-12 that judges every value as `checkSchema` does: `null` for an
 * optional property is accepted (it means absent), `null` for a required one is refused,
 * `dependentRequired` ignores `null`, integers must be exact (within 2^53), and kurel's own
 * `x-*` keywords are dropped (`x-expected` joins the description). Lifecycle keywords are said
 * in the description ("introduced in Kubernetes 1.29") and given whole in `x-kurel-lifecycle`;
 * narrow a schema to a platform first (`narrowSchema`) to leave out what it lacks. Each keyword
 * is published as its entry in the keyword table says (`publish`). Returns a new schema; never
 * mutates its input.
 */
export function publishSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  // Each rule the node's keywords name, with the values written under them.
  const rules = new Map<PublishRule, unknown[]>();
  for (const [key, value] of Object.entries(schema)) {
    const publication = KEYWORD_TABLE.get(key)?.publish ?? 'keep';
    if (publication === 'omit') continue;
    const rule = publication === 'keep' ? undefined : RULES[publication];
    if (rule) rules.set(publication as PublishRule, [...(rules.get(publication as PublishRule) ?? []), value]);
    if (rule?.value) {
      const published = rule.value(value, schema);
      if (published !== undefined) setOwn(out, key, published);
    } else if (rule?.keepsValue === false) continue;
    else if (KEYWORD_TABLE.get(key)?.subschemas !== undefined) out[key] = mapSubschemas(key, value, publishSubschema) ?? value;
    else setOwn(out, key, structuredClone(value));
  }
  for (const [name, rule] of Object.entries(RULES) as [PublishRule, Rewrite][]) {
    const written = rules.get(name);
    if (written) rule.after?.(schema, out, written);
  }
  return ordered(out);
}

/**
 * What a publish rule does: `value` gives the keyword's published value in its place (undefined
 * leaves it out); `keepsValue: false` leaves the written value out; `after` adds what the rule
 * says about the node once all its keywords are copied, given the values written under the
 * keywords that name the rule.
 */
interface Rewrite {
  value?: (value: unknown, node: JsonSchema) => unknown;
  keepsValue?: false;
  after?: (node: JsonSchema, out: JsonSchema, written: readonly unknown[]) => void;
}

/** The publish rules the keyword table names, in the order their additions are made. */
const RULES: Readonly<Record<PublishRule, Rewrite>> = {
  'null-as-absent': { value: (value, node) => publishProperties(node, value as Record<string, JsonSchema>) },
  're2-pattern': { value: (value) => (typeof value === 'string' ? publishPattern(value) : structuredClone(value)) },
  // What a pattern means is worth keeping for the people reading the schema in an editor.
  'expected-in-description': {
    keepsValue: false,
    after: (_node, out, [expected]) => {
      if (typeof expected === 'string') describe(out, `expected ${expected}`);
    },
  },
  'lifecycle-annotation': { keepsValue: false, after: publishLifecycle },
  'required-not-null': {
    keepsValue: false,
    after: (node, out) => {
      if (node.required === undefined) return;
      out.required = [...node.required];
      const declared = node.properties ?? {};
      const undeclared = node.required.filter((key) => !Object.hasOwn(declared, key));
      // A separate subschema, so the keys do not count as declared for additionalProperties.
      if (undeclared.length > 0) addParts(out, [{ properties: Object.fromEntries(undeclared.map((key) => [key, NOT_NULL])) }]);
    },
  },
  'dependencies-ignore-null': {
    keepsValue: false,
    after: (node, out) =>
      addParts(
        out,
        Object.entries(node.dependentRequired ?? {}).map(([key, needs]) => dependency(node, key, needs)),
      ),
  },
  // The engine refuses integers it cannot hold exactly (beyond 2^53).
  'exact-integers': {
    after: (_node, out) => {
      if (!hasType(out, 'integer')) return;
      out.minimum = Math.max(out.minimum ?? -MAX_EXACT, -MAX_EXACT);
      out.maximum = Math.min(out.maximum ?? MAX_EXACT, MAX_EXACT);
    },
  },
};

function describe(out: JsonSchema, phrase: string): void {
  out.description = out.description ? `${out.description}; ${phrase}` : phrase;
}

function addParts(out: JsonSchema, parts: JsonSchema[]): void {
  if (parts.length > 0) out.allOf = [...(out.allOf ?? []), ...parts];
}

/**
 * The lifecycle of a node and of its enum values, in words in the description (`introduced in
 * Kubernetes 1.29`, `value "A": removed in Kubernetes 1.33`) and whole in `x-kurel-lifecycle`
 * (docs/json-schema.md): the lifecycle keywords, each bound as `<component> <version>` (a bare
 * version for Kubernetes), and `values` for the enum values that have one.
 */
function publishLifecycle(node: JsonSchema, out: JsonSchema): void {
  const own = readLifecycle(node);
  const perValue = readEnumLifecycles(node);
  if (own) describe(out, describeLifecycle(own));
  for (const [value, lifecycle] of perValue ?? []) describe(out, `value ${JSON.stringify(value)}: ${describeLifecycle(lifecycle)}`);
  if (!own && !perValue) return;
  const annotation: Record<string, unknown> = own ? lifecycleAnnotation(own) : {};
  if (perValue) {
    const values: Record<string, unknown> = {};
    for (const [value, lifecycle] of perValue) setOwn(values, value, lifecycleAnnotation(lifecycle));
    annotation['values'] = values;
  }
  out[LIFECYCLE_ANNOTATION] = annotation;
}

function lifecycleAnnotation(lifecycle: Lifecycle): Record<string, string> {
  const out: Record<string, string> = {};
  for (const keyword of LIFECYCLE_BOUNDS) {
    const version = lifecycle.bounds[keyword.lifecycle.bound];
    if (version !== undefined) out[keyword.name] = lifecycle.component === KUBERNETES ? version : `${lifecycle.component} ${version}`;
  }
  if (lifecycle.note !== undefined) out[LIFECYCLE_NOTE] = lifecycle.note;
  return out;
}

/** A subschema, published: the boolean schemas `true` and `false` mean the same in the standard. */
function publishSubschema(schema: JsonSchema | boolean): JsonSchema | boolean {
  return typeof schema === 'boolean' ? schema : publishSchema(schema);
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
  // No applicator: neither a list the table combines (allOf, anyOf, oneOf) nor one the publisher writes.
  const simple = !COMBINED_LISTS.some((k) => object[k] !== undefined) && object.not === undefined && object.$ref === undefined && object.if === undefined;
  if (simple && object.type !== undefined) {
    const types = Array.isArray(object.type) ? object.type : [object.type];
    const { const: literal, ...rest } = object;
    const choices = literal !== undefined ? [literal] : object.enum;
    const withNull: JsonType[] = types.includes('null') ? types : [...types, 'null'];
    return { ...rest, type: withNull, ...(choices !== undefined ? { enum: [...choices, null] } : {}) };
  }
  // What describes the field (its words, its lifecycle) stays beside the choice, where readers look.
  const { description, [LIFECYCLE_ANNOTATION]: lifecycle, ...rest } = object;
  return {
    ...(description !== undefined ? { description } : {}),
    ...(lifecycle !== undefined ? { [LIFECYCLE_ANNOTATION]: lifecycle } : {}),
    anyOf: [rest, { type: 'null' }],
  };
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

// Readers of `kurel schema` see what a value is before how it is checked; the order means nothing else.
function ordered(schema: JsonSchema): JsonSchema {
  const rank = (key: string) => {
    const at = PUBLISHED_ORDER.indexOf(key);
    return at === -1 ? PUBLISHED_ORDER.length : at;
  };
  const out: JsonSchema = {};
  for (const key of Object.keys(schema).sort((a, b) => rank(a) - rank(b))) setOwn(out, key, schema[key]);
  return out;
}

function mapValues(map: Record<string, JsonSchema>, f: (schema: JsonSchema, key: string) => JsonSchema | boolean): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema | boolean> = {};
  for (const [key, sub] of Object.entries(map)) setOwn(out, key, f(sub, key));
  return out as Record<string, JsonSchema>;
}
