/**
 * Reads a capability's published rendering schema (JSON Schema 2020-12) into the rows of a
 * field table: one row per property at any depth, named by its dotted path. Pure (no DOM), so
 * the rules are tested without a browser. What a keyword says under a field (its limit, a
 * lifecycle, a union) is its entry's in the keyword table (src/schema/keywords.ts).
 */

import { COMBINING, KEYWORDS, LIFECYCLE_ANNOTATION, LIFECYCLE_BOUNDS } from '../../src/schema/keywords.js';

/** A JSON Schema node as published; every keyword is read defensively. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** One field of a rendering, as the catalogue's table shows it. */
export interface FieldRow {
  /** The dotted path: `storage.size`, `trafficSources[].namespace` (each item), `parameters.*` (any key). */
  name: string;
  /** How deep the field is nested (0 for a top-level property). */
  depth: number;
  /** `string`, `integer`, `array of string`, `map of string`, `object`, `string or integer`, `any`. */
  type: string;
  /** Whether the field must be written (where its note says, when it has one). */
  required: boolean;
  /** When the field is required only in some case: `when storage is set`, `when authSigninURL is set`. */
  requiredWhen?: string;
  /** The default, as JSON text. */
  defaultValue?: string;
  /** The allowed values (`enum` or `const`), each as JSON text; empty when any value of the type is allowed. */
  allowed: string[];
  /** Further limits on the value: range, length, pattern, items. */
  constraints: string[];
  /** The field's lifecycle: `introduced in Kubernetes 1.29`, `deprecated`, with any note. */
  lifecycle: string[];
  /** True when the schema marks the field deprecated. */
  deprecated: boolean;
  /** True when the field holds fields of its own (an object, or a list or map of objects), listed after it. */
  hasFields: boolean;
  description?: string;
}

/** The fields of one branch of a discriminated union (`controllerType: gateway`). */
export interface FieldBranch {
  /** The property telling the branches apart, when there is one. */
  discriminator?: string;
  /** The discriminator's value in this branch, as JSON text, or `variant N` without a discriminator. */
  label: string;
  description?: string;
  rows: FieldRow[];
}

/** Everything the catalogue shows about a rendering's fields. */
export interface RenderingFields {
  /** Fields outside any union (all of them for a plain object). */
  rows: FieldRow[];
  /** The branches of a union (`anyOf`/`oneOf`) at the top, each with its own fields. */
  branches: FieldBranch[];
  /** True when the schema names no field and accepts any key: the rendering is passed through unchecked. */
  isPassThrough: boolean;
}

// Nesting deeper than this is not shown: a published schema is finite, a malformed one may not be.
const MAX_DEPTH = 12;
// The keywords whose limits the console states, and the unions whose branches it shows (anyOf, then oneOf).
const SHOWN = KEYWORDS.filter((k) => k.shown !== undefined);
const UNIONS = [COMBINING.any, COMBINING.one];

/** Reads a rendering schema into field rows; never throws on an unexpected shape. */
export function describeRendering(schema: SchemaNode): RenderingFields {
  const root = schema;
  const node = resolve(schema, root);
  const rows: FieldRow[] = [];
  collectFields(node, root, { prefix: '', depth: 0, isUnconditional: true }, rows, new Set());
  const branches = readUnion(node, root);
  const isPassThrough = rows.length === 0 && branches.length === 0 && node['additionalProperties'] !== false;
  return { rows, branches, isPassThrough };
}

interface Context {
  /** The path of the object holding the fields, empty at the top. */
  prefix: string;
  depth: number;
  /** True when the holding object is always present (the rendering itself, or required all the way up). */
  isUnconditional: boolean;
  /** Says when the holding object is present, for fields required inside an optional one. */
  presentWhen?: string;
}

function collectFields(node: SchemaNode, root: SchemaNode, context: Context, rows: FieldRow[], seen: Set<SchemaNode>): void {
  if (context.depth > MAX_DEPTH || seen.has(node)) return;
  seen.add(node);
  const properties = asObject(node['properties']);
  const required = new Set(asStrings(node['required']));
  const dependents = dependentRequirements(node);
  for (const [key, value] of Object.entries(properties ?? {})) {
    const child = resolve(asObject(value) ?? {}, root);
    const name = context.prefix ? `${context.prefix}.${key}` : key;
    const isRequired = required.has(key);
    const row = fieldRow(name, context.depth, child);
    if (isRequired) {
      row.required = true;
      if (!context.isUnconditional && context.presentWhen) row.requiredWhen = context.presentWhen;
    } else if (dependents.has(key)) {
      row.requiredWhen = `when ${dependents
        .get(key)!
        .map((k) => (context.prefix ? `${context.prefix}.${k}` : k))
        .join(' or ')} is set`;
    }
    rows.push(row);
    const before = rows.length;
    const isAlways = context.isUnconditional && isRequired;
    if (asObject(child['properties'])) {
      collectFields(child, root, { prefix: name, depth: context.depth + 1, isUnconditional: isAlways, presentWhen: `when ${name} is set` }, rows, seen);
    }
    const items = asObject(child['items']);
    if (items) {
      const item = resolve(items, root);
      if (asObject(item['properties'])) {
        collectFields(item, root, { prefix: `${name}[]`, depth: context.depth + 1, isUnconditional: false, presentWhen: `in each ${name} item` }, rows, seen);
      }
    }
    const values = asObject(child['additionalProperties']);
    if (values) {
      const value = resolve(values, root);
      if (asObject(value['properties'])) {
        collectFields(value, root, { prefix: `${name}.*`, depth: context.depth + 1, isUnconditional: false, presentWhen: `in each ${name} entry` }, rows, seen);
      }
    }
    row.hasFields = rows.length > before;
  }
  seen.delete(node);
}

function fieldRow(name: string, depth: number, node: SchemaNode): FieldRow {
  const description = typeof node['description'] === 'string' ? node['description'] : undefined;
  const deprecated = node['deprecated'] === true;
  const row: FieldRow = {
    name,
    depth,
    type: typeName(node),
    required: false,
    allowed: allowedValues(node),
    constraints: constraints(node),
    lifecycle: lifecycle(node, deprecated),
    deprecated,
    hasFields: false,
  };
  if ('default' in node) row.defaultValue = JSON.stringify(node['default']);
  if (description) row.description = description;
  return row;
}

/** The branches of a top-level union; the discriminator is the property every branch fixes to a different value. */
function readUnion(node: SchemaNode, root: SchemaNode): FieldBranch[] {
  const options = unionOf(node);
  if (!options) return [];
  const branches = options.map((option) => resolve(asObject(option) ?? {}, root));
  const discriminator = findDiscriminator(branches);
  return branches.map((branch, index) => {
    const rows: FieldRow[] = [];
    collectFields(branch, root, { prefix: '', depth: 0, isUnconditional: true }, rows, new Set());
    const fixed = discriminator === undefined ? undefined : fixedValue(asObject(asObject(branch['properties'])?.[discriminator]) ?? {});
    const result: FieldBranch = { label: fixed === undefined ? `variant ${index + 1}` : JSON.stringify(fixed), rows };
    if (discriminator !== undefined) result.discriminator = discriminator;
    if (typeof branch['description'] === 'string') result.description = branch['description'];
    return result;
  });
}

function findDiscriminator(branches: SchemaNode[]): string | undefined {
  const first = asObject(branches[0]?.['properties']);
  if (!first || branches.length < 2) return undefined;
  for (const key of Object.keys(first)) {
    const values = branches.map((branch) => fixedValue(asObject(asObject(branch['properties'])?.[key]) ?? {}));
    if (values.some((v) => v === undefined)) continue;
    if (new Set(values.map((v) => JSON.stringify(v))).size === branches.length) return key;
  }
  return undefined;
}

function fixedValue(node: SchemaNode): unknown {
  if ('const' in node) return node['const'];
  const values = asArray(node['enum']);
  return values?.length === 1 ? values[0] : undefined;
}

function typeName(node: SchemaNode): string {
  const types = declaredTypes(node);
  if (types.length === 0) {
    if ('const' in node) return jsonType(node['const']);
    const values = asArray(node['enum'])?.filter((v) => v !== null);
    if (values && values.length > 0) return [...new Set(values.map(jsonType))].join(' or ');
    const options = unionOf(node);
    if (options) return [...new Set(options.map((o) => typeName(asObject(o) ?? {})))].join(' or ');
    return 'any';
  }
  return types
    .map((type) => {
      if (type === 'array') {
        const items = asObject(node['items']);
        return items ? `array of ${typeName(items)}` : 'array';
      }
      if (type === 'object' && Object.keys(asObject(node['properties']) ?? {}).length === 0) {
        const values = asObject(node['additionalProperties']);
        if (values) return `map of ${typeName(values)}`;
        if (node['additionalProperties'] !== false) return 'object (any keys)';
      }
      return type;
    })
    .join(' or ');
}

function declaredTypes(node: SchemaNode): string[] {
  const type = node['type'];
  const types = typeof type === 'string' ? [type] : asStrings(type);
  // null is how a profile leaves a field out; it is not a type a reader chooses.
  return types.filter((t) => t !== 'null');
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function allowedValues(node: SchemaNode): string[] {
  if ('const' in node) return [JSON.stringify(node['const'])];
  return (asArray(node['enum']) ?? []).filter((v) => v !== null).map((v) => JSON.stringify(v));
}

/** The branches of the node's union (the first of `anyOf`, `oneOf` it holds). */
function unionOf(node: SchemaNode): unknown[] | undefined {
  for (const keyword of UNIONS) {
    const branches = asArray(node[keyword]);
    if (branches) return branches;
  }
  return undefined;
}

function constraints(node: SchemaNode): string[] {
  const found: string[] = [];
  for (const keyword of SHOWN) {
    const phrase = keyword.shown!(node);
    if (phrase !== undefined) found.push(phrase);
  }
  const items = asObject(node['items']);
  if (items) {
    const values = allowedValues(items);
    if (values.length > 0) found.push(`each item one of ${values.join(', ')}`);
    found.push(...constraints(items).map((text) => `each item ${text}`));
  }
  return found;
}

/**
 * The field's lifecycle as the service publishes it in `x-kurel-lifecycle` (docs/json-schema.md):
 * its bounds, then each enum value's (`PreferSameZone: introduced in Kubernetes 1.33`), then
 * `deprecated` when the schema marks it so without saying since when.
 */
function lifecycle(node: SchemaNode, deprecated: boolean): string[] {
  const annotation = asObject(node[LIFECYCLE_ANNOTATION]);
  const found = boundsOf(annotation);
  for (const [value, bounds] of Object.entries(asObject(annotation?.['values']) ?? {})) {
    for (const phrase of boundsOf(asObject(bounds))) found.push(`${value}: ${phrase}`);
  }
  if (deprecated && !found.some((f) => f.startsWith('deprecated'))) found.push('deprecated');
  return found;
}

function boundsOf(lifecycle: SchemaNode | undefined): string[] {
  const found: string[] = [];
  for (const keyword of LIFECYCLE_BOUNDS) {
    const version = lifecycle?.[keyword.name];
    // A bare version is Kubernetes's (docs/platform.md); another component is named before its version.
    if (typeof version === 'string') found.push(`${keyword.lifecycle.phrase} ${/^v?\d/.test(version) ? `Kubernetes ${version}` : version}`);
  }
  return found;
}

/** Properties another property requires (`if: {required: [a]}, then: {required: [b]}` → b needs a). */
function dependentRequirements(node: SchemaNode): Map<string, string[]> {
  const needs = new Map<string, string[]>();
  const add = (needed: string, by: string) =>
    needs.set(
      needed,
      [...(needs.get(needed) ?? []), by].filter((v, i, all) => all.indexOf(v) === i),
    );
  for (const part of asArray(node[COMBINING.all]) ?? []) {
    const condition = asObject(asObject(part)?.['if']);
    const consequence = asObject(asObject(part)?.['then']);
    if (!condition || !consequence) continue;
    for (const needed of asStrings(consequence['required'])) for (const by of asStrings(condition['required'])) add(needed, by);
  }
  const dependentRequired = asObject(node['dependentRequired']);
  for (const [by, list] of Object.entries(dependentRequired ?? {})) for (const needed of asStrings(list)) add(needed, by);
  return needs;
}

/** Follows a local `$ref` (`#/$defs/...`), as far as the root document holds it. */
function resolve(node: SchemaNode, root: SchemaNode, depth = 0): SchemaNode {
  const ref = node['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 16) return node;
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    target = asObject(target)?.[decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  const found = asObject(target);
  return found ? resolve(found, root, depth + 1) : node;
}

function asObject(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
