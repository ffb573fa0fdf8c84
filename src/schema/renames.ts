import { error, type Issue, type Path } from '../core/diagnostics.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { RENAMED_FROM } from './keywords.js';

/**
 * How the properties of one map correspond between two consecutive versions of a definition
 * (DESIGN §8.5): a property of the newer version is the older one's `renamedFrom` under a new
 * name, else the older one's property of the same name, else new. Names are in declaration
 * order.
 */
export interface PropertyPairing {
  /** `[older name, newer name]` for every property both versions have, renamed or not. */
  readonly pairs: readonly (readonly [string, string])[];
  /** Properties only the older version has: the newer one removed them. */
  readonly olderOnly: readonly string[];
  /** Properties only the newer version has: new in it. */
  readonly newerOnly: readonly string[];
}

/** The `renamedFrom` of a property schema, when it names one. */
export function renamedFromOf(schema: JsonSchema | undefined): string | undefined {
  const old = schema?.[RENAMED_FROM];
  return typeof old === 'string' && old !== '' ? old : undefined;
}

/**
 * Pairs the properties of one map of an older and a newer schema. The load-time rules (an old
 * name is not also a property of the newer version, no two properties rename the same name)
 * make the pairing one to one; where a definition breaks them anyway the first claim wins.
 */
export function pairProperties(older: JsonSchema | undefined, newer: JsonSchema | undefined): PropertyPairing {
  const olderProperties = older?.properties ?? {};
  const newerProperties = newer?.properties ?? {};
  const claimed = new Set<string>();
  const pairs: [string, string][] = [];
  const newerOnly: string[] = [];
  for (const name of Object.keys(newerProperties)) {
    const old = renamedFromOf(newerProperties[name]);
    let source: string | undefined;
    if (old !== undefined && Object.hasOwn(olderProperties, old)) source = old;
    else if (Object.hasOwn(olderProperties, name)) source = name;
    if (source === undefined || claimed.has(source)) newerOnly.push(name);
    else {
      claimed.add(source);
      pairs.push([source, name]);
    }
  }
  const olderOnly = Object.keys(olderProperties).filter((name) => !claimed.has(name));
  return { pairs, olderOnly, newerOnly };
}

/** The schema one level down: a property's, the items', or the undeclared keys' (`additionalProperties`). */
export type SchemaStep = { readonly property: string } | { readonly items: true } | { readonly additional: true };

/** The subschema a step leads to, when the schema has one. */
export function schemaAt(schema: JsonSchema | undefined, step: SchemaStep): JsonSchema | undefined {
  if (!schema) return undefined;
  if ('property' in step) return schema.properties && Object.hasOwn(schema.properties, step.property) ? schema.properties[step.property] : undefined;
  if ('items' in step) return isSchemaObject(schema.items) ? schema.items : undefined;
  return isSchemaObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** True when a map of this schema accepts keys it does not declare. */
export function isOpenMap(schema: JsonSchema | undefined): boolean {
  const additional = schema?.additionalProperties;
  return additional === true || isSchemaObject(additional);
}

/**
 * The `renamedFrom` of a version checked against the version before it (DESIGN §11): each must
 * name a property the previous version has in the same map. Issue paths lead into the newer
 * definition document, to the `renamedFrom` value; `previous` names the previous version in
 * messages (`redis-sidecar 1.1.0`).
 */
export function checkRenamesAgainst(previousSchema: JsonSchema, schema: JsonSchema, previous: string): Issue[] {
  const issues: Issue[] = [];
  walk(previousSchema, schema, [], '', issues, previous);
  return issues;
}

// `at` is the path of `schema` in the definition document below `spec.rendering`; `label` names
// its values in messages as the definition's own messages do (`tls.port`, `ports[]`, `labels.*`).
function walk(older: JsonSchema | undefined, newer: JsonSchema, at: Path, label: string, issues: Issue[], previous: string): void {
  const properties = newer.properties ?? {};
  const pairing = pairProperties(older, newer);
  const olderName = new Map(pairing.pairs.map(([o, n]) => [n, o]));
  for (const name of Object.keys(properties)) {
    const schema = properties[name]!;
    const here: Path = [...at, 'properties', name];
    const old = renamedFromOf(schema);
    const shown = label === '' ? name : `${label}.${name}`;
    if (old !== undefined && (older === undefined || !Object.hasOwn(older.properties ?? {}, old))) {
      const where = label === '' ? '' : ` in ${label}`;
      issues.push(
        error(
          'definition-invalid',
          ['spec', 'rendering', ...here, RENAMED_FROM],
          `${shown}.renamedFrom names ${JSON.stringify(old)}, which ${previous} does not declare${where}: a renamed property must be a property of the previous version`,
        ),
      );
    }
    const source = olderName.get(name);
    const olderSchema = source === undefined ? undefined : older?.properties?.[source];
    walk(olderSchema, schema, here, shown, issues, previous);
  }
  if (isSchemaObject(newer.items)) walk(schemaAt(older, { items: true }), newer.items, [...at, 'items'], `${label}[]`, issues, previous);
  if (isSchemaObject(newer.additionalProperties)) {
    walk(schemaAt(older, { additional: true }), newer.additionalProperties, [...at, 'additionalProperties'], `${label}.*`, issues, previous);
  }
}
