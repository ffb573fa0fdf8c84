import type { Catalogue } from '../catalogue/catalogue.js';
import type { JsonSchema } from '../core/json-schema.js';
import { refusePin, resolvePin } from '../core/versions.js';
import { describeUnavailable, judgeLifecycle } from '../schema/lifecycle.js';
import { narrowSchema } from '../schema/narrow.js';
import { NO_PLATFORM, type Platform } from '../schema/platform-version.js';
import { DRAFT_2020_12, publishSchema } from '../schema/publish.js';

/** One capability's rendering as kurel judges it, published as JSON Schema 2020-12. */
export interface CapabilitySchema {
  type: string;
  description: string;
  /** The exact schema of the rendering map; open when nothing validates the rendering. */
  schema: JsonSchema;
  /** True when a handler schema or a CapabilityDefinition judges the rendering. */
  isValidated: boolean;
  /** True when an absent, `null` or empty rendering is valid (a binding may then be empty). */
  acceptsEmpty: boolean;
  /**
   * At the platform the schema was narrowed to (docs/platform.md): `unavailable` when the capability
   * does not exist there (its schema then accepts nothing), `deprecated` when it is deprecated.
   */
  availability: 'available' | 'deprecated' | 'unavailable';
}

/** Options of {@link capabilitySchema}. */
export interface PublishAt {
  /** Narrow the schema to these platform versions: what they lack is left out. */
  platform?: Platform | undefined;
  /** The definition version to publish; without it, the one an unpinned binding resolves to. */
  version?: string | undefined;
}

const PASS_THROUGH: JsonSchema = { type: 'object', additionalProperties: true };

/**
 * The published rendering schema of a capability type known to the catalogue (definition and
 * handler schema both apply, definition first, as in lint); undefined for an unknown type.
 * With a platform, the schema is narrowed to it: keys and values it lacks are left out, and a
 * capability it lacks accepts nothing. `version` picks a definition version; without it, the
 * one an unpinned binding resolves to.
 */
export function capabilitySchema(catalogue: Catalogue, type: string, options: PublishAt = {}): CapabilitySchema | undefined {
  if (!catalogue.knows(type)) return undefined;
  const platform = options.platform ?? NO_PLATFORM;
  const definition = catalogue.definition(type, options.version);
  const handler = catalogue.handler(type)?.handler;
  const parts = [definition?.schema, handler?.renderingSchema].filter((s): s is JsonSchema => s !== undefined).map((s) => narrowSchema(s, platform));
  const description = handler?.description || definition?.description || `the ${type} capability`;
  const judgement = judgeLifecycle(catalogue.capabilityLifecycle(type, options.version), platform);
  const unavailable = describeUnavailable(judgement);
  if (unavailable !== undefined) {
    return { type, description, schema: { description: unavailable, not: {} }, isValidated: true, acceptsEmpty: false, availability: 'unavailable' };
  }
  const published = parts.length === 0 ? PASS_THROUGH : publishSchema(parts.length === 1 ? parts[0]! : { allOf: parts });
  const isDeprecated = judgement.state === 'deprecated';
  return {
    type,
    description,
    schema: isDeprecated ? { ...published, deprecated: true } : published,
    isValidated: parts.length > 0,
    acceptsEmpty: acceptsEmptyRendering(catalogue, type, platform, options.version),
    availability: isDeprecated ? 'deprecated' : 'available',
  };
}

/** What a pin resolves to among a capability's versions (`kurel schema TYPE@PIN`, `?version=`). */
export type CapabilityVersionChoice =
  | { ok: true; version: string | undefined }
  | { ok: false; reason: 'malformed'; message: string; hint?: string }
  | { ok: false; reason: 'not-found'; message: string; versions: string[] };

/**
 * Resolves a pin as a binding would (docs/versions.md); without a pin, the
 * version an unpinned binding resolves to. The type must be known to the catalogue.
 */
export function chooseCapabilityVersion(catalogue: Catalogue, type: string, pin: string | undefined): CapabilityVersionChoice {
  const versions = catalogue.versionsOf(type);
  if (pin === undefined) return { ok: true, version: resolvePin(versions, undefined) };
  const refusal = refusePin(pin);
  if (refusal) return { ok: false, reason: 'malformed', message: refusal.reason, ...(refusal.hint ? { hint: refusal.hint } : {}) };
  const version = resolvePin(versions, pin);
  if (version !== undefined) return { ok: true, version };
  const has = versions.length === 0 ? `${type} has no versions` : `${type} has ${versions.join(', ')}`;
  return { ok: false, reason: 'not-found', message: `${has}; none matches ${pin}`, versions };
}

/** Every capability type the catalogue knows (handlers and definitions), sorted by type, narrowed to the platform when one is given. */
export function listCapabilitySchemas(catalogue: Catalogue, options: PublishAt = {}): CapabilitySchema[] {
  return catalogue.knownTypes().map((type) => capabilitySchema(catalogue, type, options)!);
}

/** A standalone JSON Schema document for one capability's rendering (`kurel schema TYPE`). */
export function renderingSchemaDocument(capability: CapabilitySchema): JsonSchema {
  return { $schema: DRAFT_2020_12, ...renderingSchemaDefinition(capability) };
}

/** A capability's rendering schema with its title and description, for `$defs`. */
export function renderingSchemaDefinition(capability: CapabilitySchema): JsonSchema {
  const { title: _title, description: own, ...rest } = capability.schema;
  const about = own ?? capability.description;
  const description = capability.isValidated ? about : `${about}; not validated: passed to the trait unchanged`;
  return { title: `${capability.type} rendering`, description, ...rest };
}

// Decided by the same check lint runs, so an empty binding is accepted exactly when lint accepts it.
function acceptsEmptyRendering(catalogue: Catalogue, type: string, platform: Platform, version: string | undefined): boolean {
  try {
    return !catalogue.validateRendering(type, {}, { platform }, version).result.issues.some((issue) => issue.severity === 'error');
  } catch {
    return false;
  }
}
