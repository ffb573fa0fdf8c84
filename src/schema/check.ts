import { setOwn } from '../yaml/to-data.js';
import { describePath, error, type Issue, type Path } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';

/**
 * The JSON Schema subset kurel's engine evaluates (what TypeBox's `Type.*` builders emit
 * for the shapes handlers and definitions use). Plugin schemas are checked against
 * {@link SUPPORTED_KEYWORDS} at registration.
 */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  dependentRequired?: Record<string, string[]>;
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: readonly unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  title?: string;
  /** What a `pattern` means, for messages ("a duration such as 1h or 30m"). */
  'x-expected'?: string;
  [keyword: string]: unknown;
}

/** JSON Schema type names. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** Keywords the engine evaluates or treats as annotations; anything else is refused for plugins. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'propertyNames', 'dependentRequired',
  'minProperties', 'maxProperties', 'items', 'minItems', 'maxItems', 'uniqueItems', 'enum', 'const',
  'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'anyOf', 'oneOf', 'allOf', 'default', 'description', 'title', 'examples', '$schema',
  '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'x-expected',
]);

/** The outcome of a check: a new value with defaults applied, and every issue found. */
export interface CheckResult {
  value: unknown;
  issues: Issue[];
}

interface Discriminated {
  key: string;
  branches: Map<unknown, JsonSchema>;
  /** Every key any branch declares, for telling "not allowed here" from "unknown". */
  allKeys: Set<string>;
  /** Per branch tag, the keys only the other branches declare (filled on first use). */
  siblingKeys: Map<unknown, ReadonlySet<string>>;
}

interface Branch {
  key: string;
  value: unknown;
  /** Keys declared by the other branches. */
  siblingKeys: ReadonlySet<string>;
}

const discriminatedCache = new WeakMap<JsonSchema, Discriminated | null>();
const regexCache = new Map<string, RegExp>();

/**
 * Checks `value` against `schema` and applies defaults. Returns a new value (maps and lists
 * rebuilt, never the input mutated; a map under an open schema with nothing to check or
 * default is returned as it is) and every issue, with paths relative to `value`.
 * `null` for an optional property means absent; for a required one it is missing.
 */
export function checkSchema(schema: JsonSchema, value: unknown): CheckResult {
  const issues: Issue[] = [];
  const path: (string | number)[] = [];
  const out = visit(compile(schema), value, path, issues, undefined);
  return { value: out, issues };
}

const compiledCache = new WeakMap<JsonSchema, JsonSchema>();
const compiledNodes = new WeakSet<JsonSchema>();

/**
 * Normalises a schema once into objects of one fixed shape, sub-schemas included. TypeBox
 * schemas come in many shapes; the engine reads a dozen keywords per node, and reads that all
 * hit one hidden class are several times cheaper (DESIGN §6: checks within 0.05x the parse).
 */
function compile(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema === null || compiledNodes.has(schema)) return schema;
  const cached = compiledCache.get(schema);
  if (cached) return cached;
  const node: JsonSchema = {
    type: schema.type,
    properties: undefined,
    required: schema.required,
    additionalProperties: undefined,
    propertyNames: undefined,
    dependentRequired: schema.dependentRequired,
    minProperties: schema.minProperties,
    maxProperties: schema.maxProperties,
    items: undefined,
    minItems: schema.minItems,
    maxItems: schema.maxItems,
    uniqueItems: schema.uniqueItems,
    enum: schema.enum,
    const: schema.const,
    pattern: schema.pattern,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    minimum: schema.minimum,
    maximum: schema.maximum,
    exclusiveMinimum: schema.exclusiveMinimum,
    exclusiveMaximum: schema.exclusiveMaximum,
    multipleOf: schema.multipleOf,
    anyOf: undefined,
    oneOf: undefined,
    allOf: undefined,
    default: schema.default,
    description: schema.description,
    title: schema.title,
    'x-expected': schema['x-expected'],
  };
  // Cached before the children, so a schema reached again through itself stays finite.
  compiledCache.set(schema, node);
  compiledNodes.add(node);
  if (schema.properties) {
    const properties: Record<string, JsonSchema> = {};
    for (const key of Object.keys(schema.properties)) setOwn(properties, key, compile(schema.properties[key]!));
    node.properties = properties;
  }
  const additional = schema.additionalProperties;
  node.additionalProperties = typeof additional === 'object' && additional !== null ? compile(additional) : additional;
  if (schema.propertyNames) node.propertyNames = compile(schema.propertyNames);
  if (schema.items) node.items = compile(schema.items);
  if (schema.anyOf) node.anyOf = schema.anyOf.map(compile);
  if (schema.oneOf) node.oneOf = schema.oneOf.map(compile);
  if (schema.allOf) node.allOf = schema.allOf.map(compile);
  return node;
}

function visit(schema: JsonSchema, value: unknown, path: (string | number)[], issues: Issue[], branch: Branch | undefined): unknown {
  if (schema.allOf) {
    let current = value;
    for (const part of schema.allOf) current = visit(part, current, path, issues, branch);
    value = current;
  }
  if (schema.anyOf || schema.oneOf) return visitUnion(schema, value, path, issues);
  if (schema.type !== undefined && !matchesType(schema.type, value)) {
    reportType(schema, value, path, issues);
    return value;
  }
  if (schema.const !== undefined && !sameValue(schema.const, value)) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be ${describeLiteral(schema.const)}, found ${describeValue(value)}`));
    return value;
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => sameValue(option, value))) {
    const hint = typeof value === 'string' ? didYouMean(value, schema.enum.filter((o): o is string => typeof o === 'string')) : undefined;
    issues.push(
      error('invalid-value', path.slice(), `${nameOf(path)} must be one of ${schema.enum.map(describeLiteral).join(', ')}, found ${describeValue(value)}`, hint ? { hint } : {}),
    );
    return value;
  }
  if (typeof value === 'string') checkString(schema, value, path, issues);
  else if (typeof value === 'number' || typeof value === 'bigint') checkNumber(schema, value, path, issues);
  else if (Array.isArray(value)) return visitArray(schema, value, path, issues);
  else if (isMap(value) && (schema.properties || schema.additionalProperties !== undefined || hasType(schema, 'object'))) {
    return visitObject(schema, value, path, issues, branch);
  }
  return value;
}

const NO_KEYS: readonly string[] = [];
const NO_PROPERTIES: Readonly<Record<string, JsonSchema>> = {};

/** What visiting a map under an object schema takes, worked out once per schema. */
interface ObjectPlan {
  /** Declared properties that have a default. */
  defaulted: readonly string[];
  /** Any key and value is accepted as it is: nothing to check, nothing to default. */
  isUnchecked: boolean;
}

const planCache = new WeakMap<JsonSchema, ObjectPlan>();

function objectPlan(schema: JsonSchema): ObjectPlan {
  let plan = planCache.get(schema);
  if (!plan) {
    const properties = schema.properties ?? NO_PROPERTIES;
    const additional = schema.additionalProperties;
    plan = {
      defaulted: Object.keys(properties).filter((key) => properties[key]!.default !== undefined),
      isUnchecked:
        Object.keys(properties).length === 0 &&
        (additional === undefined || additional === true) &&
        (schema.required ?? NO_KEYS).length === 0 &&
        schema.propertyNames === undefined &&
        schema.minProperties === undefined &&
        schema.maxProperties === undefined &&
        schema.dependentRequired === undefined,
    };
    planCache.set(schema, plan);
  }
  return plan;
}

function visitObject(schema: JsonSchema, value: Record<string, unknown>, path: (string | number)[], issues: Issue[], branch: Branch | undefined): Record<string, unknown> {
  const plan = objectPlan(schema);
  // A copy would hold the same keys and values; on a large profile every copy that outlives a
  // minor collection costs the collector more than the check itself (open renderings, podSelector).
  if (plan.isUnchecked) return value;
  const properties = schema.properties ?? NO_PROPERTIES;
  const required = schema.required ?? NO_KEYS;
  const additional = schema.additionalProperties;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must have at least ${schema.minProperties} entries, found ${keys.length}`));
  }
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must have at most ${schema.maxProperties} entries, found ${keys.length}`));
  }
  for (const key of keys) {
    const item = value[key];
    path.push(key);
    if (schema.propertyNames) checkPropertyName(schema.propertyNames, key, path, issues);
    if (Object.hasOwn(properties, key)) {
      if (item === null) {
        // null means absent: an optional key is dropped, a required one is reported below
      } else {
        setOwn(out, key, visit(properties[key]!, item, path, issues, undefined));
      }
    } else if (additional === false) {
      reportUnknownKey(key, properties, path, issues, branch);
    } else if (typeof additional === 'object') {
      setOwn(out, key, visit(additional, item, path, issues, undefined));
    } else {
      setOwn(out, key, item);
    }
    path.pop();
  }
  for (const key of required) {
    if (Object.hasOwn(value, key) && value[key] !== null) continue;
    path.push(key);
    const when = branch ? ` when ${branch.key} is ${describeLiteral(branch.value)}` : '';
    issues.push(error('missing-required', path.slice(), `${nameOf(path)} is required${when}`, writtenAsNull(value, key)));
    path.pop();
  }
  if (schema.dependentRequired) {
    for (const [key, needs] of Object.entries(schema.dependentRequired)) {
      if (!Object.hasOwn(out, key)) continue;
      for (const need of needs) {
        if (Object.hasOwn(out, need)) continue;
        issues.push(
          error('missing-required', [...path, need], `${nameOf([...path, need])} is required when ${key} is set`, {
            at: { path: [...path, key], part: 'key' },
          }),
        );
      }
    }
  }
  for (const key of plan.defaulted) {
    // A required key's default never applies: the key must be written.
    if (!Object.hasOwn(out, key) && !required.includes(key)) {
      const fallback = properties[key]!.default;
      setOwn(out, key, typeof fallback === 'object' && fallback !== null ? structuredClone(fallback) : fallback);
    }
  }
  return out;
}

// A required key written with no value is there to point at; a key not written at all is
// positioned at its parent.
function writtenAsNull(value: Record<string, unknown>, key: string): Partial<Issue> {
  return Object.hasOwn(value, key) && value[key] === null ? { part: 'key' } : {};
}

function reportUnknownKey(key: string, properties: Record<string, JsonSchema>, path: (string | number)[], issues: Issue[], branch: Branch | undefined): void {
  if (branch && branch.siblingKeys.has(key)) {
    issues.push(error('field-not-allowed', path.slice(), `${nameOf(path)} is not allowed when ${branch.key} is ${describeLiteral(branch.value)}`));
    return;
  }
  const known = Object.keys(properties);
  const hint = didYouMean(key, known);
  const where = path.length > 1 ? ` in ${nameOf(path.slice(0, -1))}` : '';
  const allowed = known.length === 0 ? ' (no fields are allowed here)' : known.length <= 16 ? ` (allowed: ${known.join(', ')})` : '';
  issues.push(error('unknown-field', path.slice(), `unknown field "${key}"${where}${allowed}`, hint ? { hint } : {}));
}

function checkPropertyName(schema: JsonSchema, key: string, path: (string | number)[], issues: Issue[]): void {
  const sub: Issue[] = [];
  visit(schema, key, path, sub, undefined);
  if (sub.length === 0) return;
  const expected = schema['x-expected'] ? `: expected ${schema['x-expected']}` : '';
  issues.push(error('invalid-key', path.slice(), `invalid key "${key}"${expected}`));
}

function visitArray(schema: JsonSchema, value: unknown[], path: (string | number)[], issues: Issue[]): unknown[] {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must have at least ${schema.minItems} items, found ${value.length}`));
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must have at most ${schema.maxItems} items, found ${value.length}`));
  }
  if (schema.uniqueItems) {
    const seen = new Set<string>();
    value.forEach((item, index) => {
      const key = stableKey(item);
      if (seen.has(key)) issues.push(error('invalid-value', [...path, index], `${nameOf([...path, index])} repeats an earlier item; items must be unique`));
      seen.add(key);
    });
  }
  if (!schema.items) return value.slice();
  const out: unknown[] = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    path.push(i);
    out[i] = visit(schema.items, value[i], path, issues, undefined);
    path.pop();
  }
  return out;
}

function visitUnion(schema: JsonSchema, value: unknown, path: (string | number)[], issues: Issue[]): unknown {
  const branches = (schema.anyOf ?? schema.oneOf)!;
  const discriminated = discriminatorOf(schema);
  if (discriminated) return visitDiscriminated(discriminated, value, path, issues);
  let only: JsonSchema | undefined;
  let candidates = 0;
  for (const candidate of branches) {
    if (candidate.type === undefined || candidate.anyOf || candidate.oneOf || matchesType(candidate.type, value)) {
      candidates += 1;
      only = candidate;
    }
  }
  // A single branch of the value's type decides alone: its issues are the union's.
  if (candidates === 1 && only && (only.type === undefined || matchesType(only.type, value))) return visit(only, value, path, issues, undefined);
  let best: { issues: Issue[]; value: unknown } | undefined;
  let typeMatches = 0;
  for (const candidate of branches) {
    const typed = candidate.type === undefined || matchesType(candidate.type, value);
    // A branch of another type can only fail with a wrong type: skip it without building that
    // message (every nullable binding would otherwise pay for one).
    if (!typed && !candidate.anyOf && !candidate.oneOf) continue;
    const sub: Issue[] = [];
    const result = visit(candidate, value, path, sub, undefined);
    if (sub.length === 0) return result;
    if (typed) {
      typeMatches += 1;
      if (!best || sub.length < best.issues.length) best = { issues: sub, value: result };
    }
  }
  if (best && typeMatches > 0) {
    issues.push(...best.issues);
    return best.value;
  }
  const expected = branches.map(describeExpected).filter((e, i, all) => all.indexOf(e) === i);
  issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be ${joinOr(expected)}, found ${describeValue(value)}`));
  return value;
}

function visitDiscriminated(d: Discriminated, value: unknown, path: (string | number)[], issues: Issue[]): unknown {
  if (!isMap(value)) {
    issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be a map, found ${describeValue(value)}`));
    return value;
  }
  const tag = Object.hasOwn(value, d.key) ? value[d.key] : undefined;
  const chosen = tag === undefined || tag === null ? undefined : d.branches.get(tag);
  if (!chosen) {
    const options = [...d.branches.keys()];
    path.push(d.key);
    if (tag === undefined || tag === null) {
      issues.push(error('missing-required', path.slice(), `${nameOf(path)} is required (one of ${options.map(describeLiteral).join(', ')})`, writtenAsNull(value, d.key)));
    } else if (options.every((o) => typeof o === 'string') && typeof tag !== 'string') {
      issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be a string, found ${describeValue(tag)}`));
    } else {
      const hint = typeof tag === 'string' ? didYouMean(tag, options.filter((o): o is string => typeof o === 'string')) : undefined;
      issues.push(
        error('invalid-value', path.slice(), `${nameOf(path)} must be one of ${options.map(describeLiteral).join(', ')}, found ${describeValue(tag)}`, hint ? { hint } : {}),
      );
    }
    path.pop();
    // Still name keys no branch knows, so one mistake does not hide the next.
    for (const key of Object.keys(value)) {
      if (key === d.key || d.allKeys.has(key)) continue;
      path.push(key);
      const hint = didYouMean(key, d.allKeys);
      issues.push(error('unknown-field', path.slice(), `unknown field "${key}"`, hint ? { hint } : {}));
      path.pop();
    }
    return value;
  }
  let siblingKeys = d.siblingKeys.get(tag);
  if (!siblingKeys) {
    const keys = new Set<string>();
    for (const [option, branch] of d.branches) {
      if (option === tag) continue;
      for (const key of Object.keys(branch.properties ?? {})) if (!Object.hasOwn(chosen.properties ?? {}, key)) keys.add(key);
    }
    d.siblingKeys.set(tag, keys);
    siblingKeys = keys;
  }
  return visit(chosen, value, path, issues, { key: d.key, value: tag, siblingKeys });
}

/** Finds the property whose `const` tells a union's branches apart, if there is one. */
function discriminatorOf(schema: JsonSchema): Discriminated | undefined {
  const cached = discriminatedCache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const branches = (schema.anyOf ?? schema.oneOf)!;
  let result: Discriminated | null = null;
  const first = branches[0]?.properties;
  if (first && branches.length > 1 && branches.every((b) => b.properties && hasType(b, 'object'))) {
    for (const key of Object.keys(first)) {
      const map = new Map<unknown, JsonSchema>();
      const ok = branches.every((b) => {
        const literal = literalOf(b.properties?.[key]);
        if (literal === undefined || map.has(literal) || !(b.required ?? []).includes(key)) return false;
        map.set(literal, b);
        return true;
      });
      if (ok) {
        const allKeys = new Set<string>();
        for (const b of branches) for (const k of Object.keys(b.properties ?? {})) allKeys.add(k);
        result = { key, branches: map, allKeys, siblingKeys: new Map() };
        break;
      }
    }
  }
  discriminatedCache.set(schema, result);
  return result ?? undefined;
}

function literalOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length === 1) return schema.enum[0];
  return undefined;
}

function checkString(schema: JsonSchema, value: string, path: (string | number)[], issues: Issue[]): void {
  const length = schema.minLength !== undefined || schema.maxLength !== undefined ? codePointLength(value) : 0;
  if (schema.minLength !== undefined && length < schema.minLength) {
    const message = schema.minLength === 1 ? `${nameOf(path)} must not be empty` : `${nameOf(path)} must be at least ${schema.minLength} characters long, found ${length}`;
    issues.push(error('invalid-value', path.slice(), message));
    return;
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be at most ${schema.maxLength} characters long, found ${length}`));
    return;
  }
  if (schema.pattern !== undefined && !regexOf(schema.pattern).test(value)) {
    const expected = schema['x-expected'] ?? `a string matching ${schema.pattern}`;
    issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be ${expected}, found ${describeValue(value)}`));
  }
}

// Lengths count code points, as JSON Schema does; counted without building an array.
function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        i += 1;
      }
    }
  }
  return length;
}

function checkNumber(schema: JsonSchema, value: number | bigint, path: (string | number)[], issues: Issue[]): void {
  if (typeof value === 'bigint' || (hasType(schema, 'integer') && !Number.isSafeInteger(value) && Number.isFinite(value))) {
    if (schema.type !== undefined) {
      issues.push(error('invalid-value', path.slice(), `${nameOf(path)} is ${String(value)}, beyond 2^53: it cannot be represented exactly`));
    }
    return;
  }
  if (!Number.isFinite(value)) {
    if (schema.type !== undefined) issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be a finite number, found ${String(value)}`));
    return;
  }
  const bound = (ok: boolean, text: string): boolean => {
    if (!ok) issues.push(error('invalid-value', path.slice(), `${nameOf(path)} must be ${text}, found ${value}`));
    return ok;
  };
  if (schema.minimum !== undefined && !bound(value >= schema.minimum, `at least ${schema.minimum}`)) return;
  if (schema.maximum !== undefined && !bound(value <= schema.maximum, `at most ${schema.maximum}`)) return;
  if (schema.exclusiveMinimum !== undefined && !bound(value > schema.exclusiveMinimum, `greater than ${schema.exclusiveMinimum}`)) return;
  if (schema.exclusiveMaximum !== undefined && !bound(value < schema.exclusiveMaximum, `less than ${schema.exclusiveMaximum}`)) return;
  if (schema.multipleOf !== undefined) bound(Number.isInteger(value / schema.multipleOf), `a multiple of ${schema.multipleOf}`);
}

function reportType(schema: JsonSchema, value: unknown, path: (string | number)[], issues: Issue[]): void {
  const expected = describeExpected(schema);
  const hint = typeHint(schema, value);
  issues.push(error('wrong-type', path.slice(), `${nameOf(path)} must be ${expected}, found ${describeValue(value)}`, hint ? { hint } : {}));
}

function typeHint(schema: JsonSchema, value: unknown): string | undefined {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (hasType(schema, 'boolean')) {
      if (['yes', 'y', 'on', 'true'].includes(lower)) return 'write true (YAML 1.2 reads ' + JSON.stringify(value) + ' as a string)';
      if (['no', 'n', 'off', 'false'].includes(lower)) return 'write false (YAML 1.2 reads ' + JSON.stringify(value) + ' as a string)';
    }
    if ((hasType(schema, 'integer') || hasType(schema, 'number')) && value.trim() !== '' && Number.isFinite(Number(value))) {
      return `write ${value.trim()} without quotes`;
    }
  }
  if (hasType(schema, 'string') && (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')) {
    return `quote it: "${String(value)}"`;
  }
  return undefined;
}

/** True when `value` has one of the JSON Schema types (bigints count as integers). */
export function matchesType(type: JsonType | JsonType[], value: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => matchesType(t, value));
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isMap(value);
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && (Number.isInteger(value) || !Number.isFinite(value)));
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint';
    default:
      return false;
  }
}

function hasType(schema: JsonSchema, type: JsonType): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

/** True for a plain mapping (not null, not a list). */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function regexOf(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    regexCache.set(pattern, re);
  }
  return re;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return stableKey(a) === stableKey(b);
}

function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    return v;
  });
}

const TYPE_WORDS: Record<JsonType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  object: 'a map',
  array: 'a list',
  null: 'null',
};

function describeExpected(schema: JsonSchema): string {
  if (schema.const !== undefined) return describeLiteral(schema.const);
  if (schema.type === undefined) return schema.anyOf ? joinOr(schema.anyOf.map(describeExpected)) : 'a value';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return joinOr(types.map((t) => TYPE_WORDS[t]));
}

function joinOr(words: string[]): string {
  if (words.length <= 1) return words[0] ?? 'a value';
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** Describes a found value for messages: `integer 42`, `string "nginx"`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `string ${truncate(JSON.stringify(value))}`;
  if (typeof value === 'bigint') return `integer ${value}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer ${value}` : `number ${value}`;
  if (typeof value === 'boolean') return `boolean ${value}`;
  if (Array.isArray(value)) return 'a list';
  return 'a map';
}

function describeLiteral(value: unknown): string {
  return typeof value === 'string' ? value : truncate(JSON.stringify(value) ?? String(value));
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The name of the node at `path` in messages; the root is "the rendering". */
function nameOf(path: Path): string {
  return path.length === 0 ? 'the value' : describePath(path);
}
