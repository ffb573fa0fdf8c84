import type { RequestHandler } from 'express';
import type { Catalogue } from '../../catalogue/catalogue.js';
import type { JsonSchema } from '../../core/json-schema.js';
import { capabilitySchema, renderingSchemaDocument } from '../../operations/capability-schema.js';
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
 * `GET /v1/capabilities/{type}`: one capability and the JSON Schema of its rendering, narrowed
 * to `?platform=COMPONENT=VERSION` when given; 404 for a type nothing knows, 400 for a
 * malformed platform.
 */
export function capabilityRoute(state: ServiceState): RequestHandler {
  return (req, res) => {
    const catalogue = state.catalogue;
    const type = String(req.params['type']);
    const platform = platformOfQuery(req.query['platform']);
    const listing = listingsOf(catalogue).find((c) => c.type === type);
    const published = listing ? capabilitySchema(catalogue, type, { platform }) : undefined;
    if (!listing || !published) throw new HttpProblem(404, `no handler or definition knows the capability type ${JSON.stringify(type)}`);
    sendJson(res, 200, { ...listing, schema: renderingSchemaDocument(published) });
  };
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
