import type { Catalogue } from '../catalogue/catalogue.js';
import type { JsonSchema } from '../core/json-schema.js';
import { ClusterProfileSchema } from '../documents/cluster-profile.js';
import { DNS1123_SUBDOMAIN } from '../documents/common.js';
import { DRAFT_2020_12, publishSchema } from '../schema/publish.js';
import { type CapabilitySchema, listCapabilitySchemas, type PublishAt, renderingSchemaDefinition } from './capability-schema.js';

const SCOPE = DNS1123_SUBDOMAIN.slice(1, -1);
const VERSION_DESCRIPTION = 'the version to use: exact (2.1.3), partial (2.1, 2) or a range (^2.1.0, ~2.1.3, ">=2.1 <3"); absent: the highest release';

/**
 * The JSON Schema 2020-12 of a whole `cluster.yaml` (docs/cli.md): the document structure and,
 * for every key `<type>` and `<type>.<scope>` of every capability the catalogue knows, that
 * capability's exact rendering schema; bindings of unknown types stay open. It accepts exactly
 * the documents `kurel lint` accepts, except for what only the YAML text can show (duplicate
 * keys, a second document, limits). With a platform, every capability's schema is narrowed to
 * it (docs/platform.md), and a binding of a capability the platform lacks is refused.
 */
export function clusterProfileJsonSchema(catalogue: Catalogue, options: PublishAt = {}): JsonSchema {
  const published = publishSchema(ClusterProfileSchema);
  const capabilities = capabilitiesNode(published);
  const $defs: Record<string, JsonSchema> = {};
  const bare: Record<string, JsonSchema> = {};
  const scoped: Record<string, JsonSchema> = {};
  for (const capability of listCapabilitySchemas(catalogue, options)) {
    $defs[`${capability.type}-rendering`] = renderingSchemaDefinition(capability);
    $defs[`${capability.type}-binding`] = bindingSchema(capability);
    const ref = { $ref: `#/$defs/${capability.type}-binding` };
    bare[capability.type] = ref;
    scoped[`^${escapeRegExp(capability.type)}\\.${SCOPE}$`] = ref;
  }
  // Bare keys as properties, so editors can complete them; scoped keys by pattern.
  capabilities.title = 'capabilities';
  capabilities.properties = bare;
  capabilities.patternProperties = scoped;
  return {
    $schema: DRAFT_2020_12,
    title: 'ClusterProfile',
    description: 'how one Kubernetes cluster implements each capability (kurel ClusterProfile, cluster.yaml)',
    ...published,
    $defs,
  };
}

/** A binding of a known capability: only `rendering`, judged by that capability's schema. */
function bindingSchema(capability: CapabilitySchema): JsonSchema {
  const rendering: JsonSchema = { $ref: `#/$defs/${capability.type}-rendering` };
  const about = { title: `${capability.type} binding`, description: capability.description };
  // A capability the platform lacks may not be bound at all (lint: field-unavailable at the key).
  if (capability.availability === 'unavailable') return { ...about, description: String(capability.schema.description), not: {} };
  if (capability.availability === 'deprecated') Object.assign(about, { deprecated: true });
  const version: JsonSchema = { type: 'string', description: VERSION_DESCRIPTION };
  // Lint reads an absent or null rendering (and a null binding) as an empty one.
  if (capability.acceptsEmpty) {
    return { ...about, type: ['object', 'null'], properties: { rendering: { anyOf: [rendering, { type: 'null' }] }, version }, additionalProperties: false };
  }
  return { ...about, type: 'object', properties: { rendering, version }, additionalProperties: false, required: ['rendering'] };
}

function capabilitiesNode(profile: JsonSchema): JsonSchema {
  const spec = profile.properties?.['spec'];
  const capabilities = spec?.properties?.['capabilities'];
  if (!capabilities || capabilities.additionalProperties === undefined) {
    throw new Error('the ClusterProfile schema no longer has spec.capabilities where the editor schema expects it');
  }
  return capabilities;
}

// Types are DNS-1123 labels; escaping keeps a pattern exact should that ever change. `-` stays
// bare: outside a class it is not special, and the `u` flag refuses `\-` there.
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
