import type { RequestHandler } from 'express';
import { listCapabilities, type CapabilityListing } from '../../cli/commands/capabilities.js';
import type { Registry } from '../../catalogue/registry.js';
import { capabilitySchema, renderingSchemaDocument } from '../../operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../operations/cluster-profile-schema.js';
import type { JsonSchema } from '../../schema/check.js';
import { HttpProblem } from '../problem.js';
import { sendJson } from '../respond.js';
import type { ServiceState } from '../service-state.js';

// A registry never changes once in service (a reload swaps in a new one), so what is published
// from it is computed once per registry.
const listings = new WeakMap<Registry, CapabilityListing[]>();
const editorSchemas = new WeakMap<Registry, JsonSchema>();

/** `GET /v1/capabilities`: every capability type the registry knows, sorted by type (as `kurel capabilities --format json`). */
export function capabilitiesRoute(state: ServiceState): RequestHandler {
  return (_req, res) => {
    sendJson(res, 200, listingsOf(state.registry));
  };
}

/** `GET /v1/capabilities/{type}`: one capability and the JSON Schema of its rendering; 404 for a type nothing knows. */
export function capabilityRoute(state: ServiceState): RequestHandler {
  return (req, res) => {
    const registry = state.registry;
    const type = String(req.params['type']);
    const listing = listingsOf(registry).find((c) => c.type === type);
    const published = listing ? capabilitySchema(registry, type) : undefined;
    if (!listing || !published) throw new HttpProblem(404, `no handler or definition knows the capability type ${JSON.stringify(type)}`);
    sendJson(res, 200, { ...listing, schema: renderingSchemaDocument(published) });
  };
}

/** `GET /v1/schema/cluster-profile`: the JSON Schema of a whole `cluster.yaml` for editors (as `kurel schema`). */
export function clusterProfileSchemaRoute(state: ServiceState): RequestHandler {
  return (_req, res) => {
    const registry = state.registry;
    let schema = editorSchemas.get(registry);
    if (!schema) {
      schema = clusterProfileJsonSchema(registry);
      editorSchemas.set(registry, schema);
    }
    sendJson(res, 200, schema, 'application/schema+json');
  };
}

function listingsOf(registry: Registry): CapabilityListing[] {
  let listing = listings.get(registry);
  if (!listing) {
    listing = listCapabilities(registry);
    listings.set(registry, listing);
  }
  return listing;
}
