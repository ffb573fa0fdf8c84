import type { Catalogue } from '../catalogue/catalogue.js';
import type { Path } from '../core/diagnostics.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { capabilityType } from '../documents/common.js';
import type { LintOptions, ProfileOutcome } from '../operations/lint.js';
import { declaredPlatform, effectivePlatform } from '../operations/platform.js';
import { COMBINING } from '../schema/keywords.js';
import type { Platform } from '../schema/platform-version.js';

/** What hovers, completion and go to definition know of an open file: its last judgement's. */
export interface Knowledge {
  catalogue: Catalogue;
  profile: ProfileOutcome | undefined;
  lintOptions: LintOptions;
  /** The folder lint runs from: the catalogue names definition files relative to it. */
  cwd: string;
  /** The profile's `spec.platform` as written, read from the text the request is about. */
  declaredPlatform: unknown;
}

const PROFILE_KIND = /^kind:[ \t]*["']?ClusterProfile["']?[ \t]*(#.*)?$/m;

/** True when the text names the ClusterProfile kind (hovers and completion speak of profiles only). */
export function isProfileText(text: string): boolean {
  return PROFILE_KIND.test(text);
}

/** A binding of the profile: its key, its capability type and the version it resolved to. */
export interface BindingAt {
  key: string;
  type: string;
  version: string | undefined;
  pin: string | undefined;
}

/** The binding a path of a profile is in (`spec.capabilities.<key>...`), or undefined. */
export function bindingOf(path: Path, knowledge: Knowledge): BindingAt | undefined {
  if (path.length < 3 || path[0] !== 'spec' || path[1] !== 'capabilities') return undefined;
  const key = String(path[2]);
  const resolved = knowledge.profile?.bindings.find((b) => b.key === key);
  return { key, type: resolved?.type ?? capabilityType(key), version: resolved?.version, pin: resolved?.pin };
}

/**
 * The platform the profile is judged at: the run's default, its own `spec.platform` (as the
 * reading thread found it, see text-reading.ts), the overrides.
 */
export function platformOfProfile(knowledge: Knowledge): Platform {
  return effectivePlatform(declaredPlatform(knowledge.declaredPlatform), knowledge.lintOptions.platform);
}

/** The schemas that judge a binding's rendering, definition first, as lint applies them. */
export function renderingSchemas(catalogue: Catalogue, binding: BindingAt): JsonSchema[] {
  const out: JsonSchema[] = [];
  const definition = catalogue.definition(binding.type, binding.version);
  if (definition) out.push(definition.schema);
  const handler = catalogue.handler(binding.type)?.handler;
  if (handler?.renderingSchema) out.push(handler.renderingSchema as JsonSchema);
  return out;
}

/**
 * The schema nodes that describe the value at `path` below `schema`: through `properties`,
 * `items` and every branch of `allOf`, `anyOf` and `oneOf` (a union's branches each say what
 * they know). The walk is bounded by the path's length and the schema's branching.
 */
export function schemasAt(schema: JsonSchema, path: Path): JsonSchema[] {
  let level: JsonSchema[] = [schema];
  for (const segment of path) {
    const next: JsonSchema[] = [];
    for (const node of level.flatMap(branches)) {
      if (typeof segment === 'number' || /^\d+$/.test(String(segment))) {
        if (isSchemaObject(node.items)) next.push(node.items as JsonSchema);
        continue;
      }
      const properties = node.properties;
      if (isSchemaObject(properties) && Object.hasOwn(properties, segment)) next.push((properties as Record<string, JsonSchema>)[segment]!);
      // A key no property names: what the map says of its other keys (capability keys, platform components).
      else if (isSchemaObject(node.patternProperties)) next.push(...(Object.values(node.patternProperties) as JsonSchema[]));
      else if (isSchemaObject(node.additionalProperties)) next.push(node.additionalProperties as JsonSchema);
    }
    level = next;
    if (level.length === 0) break;
  }
  return level.flatMap(branches);
}

// The lists of subschemas that each judge the value (allOf, anyOf, oneOf), from the keyword table.
const UNION_KEYWORDS = [COMBINING.all, COMBINING.any, COMBINING.one];

/** A node and the branches of its `allOf`, `anyOf` and `oneOf`, depth first. */
export function branches(node: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [node];
  for (const keyword of UNION_KEYWORDS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const sub of list) if (isSchemaObject(sub)) out.push(...branches(sub as JsonSchema));
  }
  return out;
}
