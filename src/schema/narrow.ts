import { setOwn } from '../core/data.js';
import { isSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { ENUM_LIFECYCLE, PROPERTIES_KEYWORD } from './keywords.js';
import { isUnavailable, judgeLifecycle, readEnumLifecycles, readLifecycle } from './lifecycle.js';
import { isEmptyPlatform, type Platform } from './platform-version.js';
import { mapSubschemas } from './walk.js';

/**
 * A schema of the engine's subset narrowed to a platform (docs/platform.md): properties and enum
 * values that do not exist at the platform's versions are gone (a closed object then refuses
 * them, as `kurel lint` does), and deprecated properties carry `deprecated: true`. Lifecycle
 * keywords stay, for the publisher to put into descriptions. Components the platform gives no
 * version gate nothing. Returns a new schema where anything changed; never mutates its input.
 */
export function narrowSchema(schema: JsonSchema, platform: Platform | undefined): JsonSchema {
  if (isEmptyPlatform(platform)) return schema;
  return narrowNode(schema, platform!);
}

function narrowNode(schema: JsonSchema, platform: Platform): JsonSchema {
  // The boolean schemas `true` and `false` have nothing to narrow.
  if (typeof schema === 'boolean') return schema;
  const out: JsonSchema = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === PROPERTIES_KEYWORD && isSchemaObject(value)) continue;
    const narrowed = mapSubschemas(key, value, (sub) => narrowNode(sub as JsonSchema, platform));
    setOwn(out, key, narrowed === undefined ? value : narrowed);
  }
  if (isSchemaObject(schema.properties)) narrowProperties(schema, out, platform);
  narrowEnum(schema, out, platform);
  return out;
}

/** Leaves out the properties the platform lacks, and every mention of them; marks the deprecated ones. */
function narrowProperties(schema: JsonSchema, out: JsonSchema, platform: Platform): void {
  const properties: Record<string, JsonSchema> = {};
  const gone = new Set<string>();
  for (const [name, sub] of Object.entries(schema.properties!)) {
    const judgement = judgeLifecycle(readLifecycle(sub), platform);
    if (isUnavailable(judgement)) {
      gone.add(name);
      continue;
    }
    const narrowed = narrowNode(sub, platform);
    setOwn(properties, name, judgement.state === 'deprecated' ? { ...narrowed, deprecated: true } : narrowed);
  }
  out.properties = properties;
  if (gone.size === 0) return;
  if (schema.required) out.required = schema.required.filter((name) => !gone.has(name));
  if (schema.dependentRequired) {
    const dependencies: Record<string, string[]> = {};
    for (const [name, needs] of Object.entries(schema.dependentRequired)) if (!gone.has(name)) setOwn(dependencies, name, needs);
    out.dependentRequired = dependencies;
  }
}

/** Leaves out the enum values the platform lacks (and their lifecycles). */
function narrowEnum(schema: JsonSchema, out: JsonSchema, platform: Platform): void {
  const lifecycles = readEnumLifecycles(schema);
  if (!lifecycles || !Array.isArray(schema.enum)) return;
  const gone = new Set<string>();
  for (const [value, lifecycle] of lifecycles) if (isUnavailable(judgeLifecycle(lifecycle, platform))) gone.add(value);
  if (gone.size === 0) return;
  out.enum = schema.enum.filter((value) => typeof value !== 'string' || !gone.has(value));
  const perValue = schema[ENUM_LIFECYCLE] as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const value of Object.keys(perValue)) if (!gone.has(value)) setOwn(kept, value, perValue[value]);
  out[ENUM_LIFECYCLE] = kept;
}
