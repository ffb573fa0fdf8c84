import type { RequestHandler } from 'express';
import type { Catalogue } from '../../catalogue/catalogue.js';
import type { JsonSchema } from '../../core/json-schema.js';
import { capabilitySchema, chooseCapabilityVersion, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import { type CapabilityListing, listCapabilities } from '../../operations/list-capabilities.js';
import { platformOfQuery } from '../platform-input.js';
import { HttpProblem } from '../problem.js';
import { sendJson } from '../respond.js';
import type { ServiceState } from '../service-state.js';

// A catalogue never changes once in service (a reload swaps in a new one), so what is published
// from it is computed once per catalogue.
const listings = new WeakMap<Catalogue, CapabilityListing[]>();
const editorSchemas = new WeakMap<Catalogue, JsonSchema>();

/** `GET /v1/capabilities`: every capability type the catalogue knows, sorted by type (as `kurel capabilities --format json`). */
export function capabilitiesRoute(state: ServiceState): RequestHandler {
  return (_req, res) => {
    sendJson(res, 200, listingsOf(state.catalogue));
  };
}

/**
 * `GET /v1/capabilities/{type}[?version=PIN]`: one capability and the JSON Schema of its
 * rendering, of the version the pin resolves to (without one, the version an unpinned binding
 * resolves to), narrowed to `?platform=COMPONENT=VERSION` when given; 404 for a type nothing
 * knows or a pin no version matches, 400 for a malformed pin or platform.
 */
export function capabilityRoute(state: ServiceState): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const type = String(req.params['type']);
    const platform = platformOfQuery(req.query['platform']);
    const listing = listingsOf(catalogue).find((c) => c.type === type);
    if (!listing) throw new HttpProblem(404, `no handler or definition knows the capability type ${JSON.stringify(type)}`);
    const pin = versionQuery(req.query['version']);
    const choice = chooseCapabilityVersion(catalogue, type, pin);
    if (!choice.ok && choice.reason === 'malformed') throw new HttpProblem(400, `the version query ${choice.message}${choice.hint ? ` (${choice.hint})` : ''}`);
    if (!choice.ok) throw new HttpProblem(404, `${choice.message}`, {}, { versions: choice.versions });
    const version = catalogue.hasDefinitionVersions(type) ? choice.version : undefined;
    const published = capabilitySchema(catalogue, type, { platform, version })!;
    const source = listing.hasDefinition && !catalogue.handler(type) ? (catalogue.definition(type, version)?.file ?? listing.source) : listing.source;
    sendJson(res, 200, { ...listing, source, version: version ?? null, schema: renderingSchemaDocument(published) });
  };
}

// `?version=` given once as text; anything else (repeated, nested) is a malformed request.
function versionQuery(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpProblem(400, 'the version query must be given once, as a pin such as 2.1 or ^2.1.0');
  return value;
}

/**
 * `GET /v1/schema/cluster-profile`: the JSON Schema of a whole `cluster.yaml` for editors (as
 * `kurel schema`), narrowed to `?platform=COMPONENT=VERSION` when given (400 when malformed).
 */
export function clusterProfileSchemaRoute(state: ServiceState): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const platform = platformOfQuery(req.query['platform']);
    if (platform !== undefined) {
      sendJson(res, 200, clusterProfileJsonSchema(catalogue, { platform }), 'application/schema+json');
      return;
    }
    let schema = editorSchemas.get(catalogue);
    if (!schema) {
      schema = clusterProfileJsonSchema(catalogue);
      editorSchemas.set(catalogue, schema);
    }
    sendJson(res, 200, schema, 'application/schema+json');
  };
}

function listingsOf(catalogue: Catalogue): CapabilityListing[] {
  let listing = listings.get(catalogue);
  if (!listing) {
    listing = listCapabilities(catalogue);
    listings.set(catalogue, listing);
  }
  return listing;
}
