import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { RegistryError } from '../../src/catalogue/errors.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { evaluateProfile } from '../../src/operations/evaluate-profile.js';
import { checkRendering, type Handler, type Rendering, type RenderingContext } from '../../src/schema/handler.js';

// docs/platform.md: lifecycle keywords on plugin handler schemas, and the platform handed to
// validateAndApplyDefaults.
const SOURCE = 'plugin:./mesh.mjs';

const MESH: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  deprecatedIn: 'istio 1.24',
  deprecationNote: 'use ambient-mesh',
  properties: {
    mtls: { type: 'string', enum: ['permissive', 'strict'], default: 'strict' },
    ambient: { type: 'boolean', introducedIn: 'istio 1.22', default: false },
    legacySidecar: { type: 'boolean', introducedIn: '1.28', removedIn: '1.30' },
  },
};

function reasonFor(schema: JsonSchema): string {
  try {
    createCatalogue({ handlers: [{ handler: { type: 'mesh', description: 'a mesh', capabilityAware: false, renderingSchema: schema }, source: SOURCE }] });
  } catch (err) {
    if (err instanceof RegistryError) return err.reason;
    throw err;
  }
  throw new Error('the registry accepted the handler');
}

function profile(platform: Record<string, string>, rendering: Rendering): unknown {
  return {
    apiVersion: 'launcher.gokure.dev/v1alpha1',
    kind: 'ClusterProfile',
    metadata: { name: 'a' },
    spec: { platform, capabilities: { mesh: { rendering } } },
  };
}

describe('lifecycles on a plugin handler schema', () => {
  it('are accepted where the engine reads them, and gate as a definition does', () => {
    const catalogue = createCatalogue({
      handlers: [{ handler: { type: 'mesh', description: 'a mesh', capabilityAware: false, renderingSchema: MESH }, source: SOURCE }],
    });
    const judged = (platform: Record<string, string>, rendering: Rendering) =>
      evaluateProfile(profile(platform, rendering), catalogue, 'warning').issues.map((i) => [i.code, i.path.join('/')]);
    expect(judged({ istio: '1.21' }, { ambient: true })).toEqual([['field-unavailable', 'spec/capabilities/mesh/rendering/ambient']]);
    expect(judged({ istio: '1.24.1' }, {})).toEqual([['field-deprecated', 'spec/capabilities/mesh']]);
    expect(judged({ kubernetes: '1.30' }, { legacySidecar: true })).toEqual([['field-unavailable', 'spec/capabilities/mesh/rendering/legacySidecar']]);
    expect(evaluateProfile(profile({ istio: '1.21' }, {}), catalogue, 'warning').resolved?.capabilities).toEqual({ mesh: { mtls: 'strict' } });
  });

  it.each([
    [
      'a malformed version',
      { ...MESH, deprecatedIn: 'istio v1.24' },
      /^the rendering\.deprecatedIn must be a Kubernetes version such as "1\.29", or a component and its version such as "gateway-api 1\.1", found string "istio v1\.24" \(at \/deprecatedIn\)$/,
    ],
    [
      'bounds out of order',
      { type: 'object', properties: { a: { type: 'string', introducedIn: '1.30', removedIn: '1.29' } } },
      /^\/properties\/a\.removedIn 1\.29 must be later than \/properties\/a\.introducedIn 1\.30/,
    ],
    [
      'a required property with introducedIn',
      { type: 'object', required: ['a'], properties: { a: { type: 'string', introducedIn: '1.30' } } },
      /^\/properties\/a is required, so it cannot have introducedIn/,
    ],
    [
      'an enumLifecycle key that is not an enum value',
      { type: 'object', properties: { a: { type: 'string', enum: ['x'], enumLifecycle: { y: { introducedIn: '1.30' } } } } },
      /^\/properties\/a\.enumLifecycle names "y", which is not a value of \/properties\/a\.enum \("x"\)/,
    ],
    [
      'a child outside its parent',
      { type: 'object', properties: { a: { type: 'object', introducedIn: '1.30', properties: { b: { type: 'string', introducedIn: '1.29' } } } } },
      /^\/properties\/a\/properties\/b\.introducedIn 1\.29 lies outside \/properties\/a/,
    ],
    [
      'a lifecycle where nothing reads it',
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string', introducedIn: '1.30' } } } },
      /^keyword "introducedIn" at \/properties\/a\/items has no effect there: lifecycles apply to the rendering and to its properties$/,
    ],
  ])('refuses %s at start', (_name, schema, reason) => {
    expect(reasonFor(schema as JsonSchema)).toMatch(new RegExp(`^renderingSchema is not a valid JSON Schema: ${reason.source.slice(1)}`));
  });
});

describe('the platform handed to a handler', () => {
  it('is the profile’s, under the run’s overrides, as the second argument', () => {
    const seen: unknown[] = [];
    const handler: Handler = {
      type: 'mesh',
      description: 'a mesh',
      capabilityAware: true,
      capabilityRequired: false,
      renderingSchema: { type: 'object' },
      validateAndApplyDefaults(rendering: Readonly<Rendering>, context?: RenderingContext) {
        seen.push(context);
        // A handler's own default following the platform.
        const ambient = context?.platform['istio'] !== undefined;
        return { rendering: { ...rendering, ambient }, issues: [] };
      },
    };
    const catalogue = createCatalogue({ handlers: [{ handler, source: SOURCE }] });
    const evaluation = evaluateProfile(profile({ kubernetes: '1.29' }, {}), catalogue, 'warning', { platform: { overrides: { istio: '1.23' } } });
    expect(seen).toEqual([{ platform: { kubernetes: '1.29', istio: '1.23' } }]);
    expect(evaluation.resolved?.capabilities).toEqual({ mesh: { ambient: true } });
  });

  it('does not trouble a plugin written for one argument, which judges at no platform version', () => {
    const handler = {
      type: 'mesh',
      description: 'a mesh',
      capabilityAware: true,
      capabilityRequired: false,
      renderingSchema: MESH,
      validateAndApplyDefaults: (rendering: Readonly<Rendering>) => checkRendering(MESH, rendering),
    };
    const catalogue = createCatalogue({ handlers: [{ handler, source: SOURCE }] });
    expect(evaluateProfile(profile({ istio: '1.21' }, { mtls: 'permissive' }), catalogue, 'warning').resolved?.capabilities).toEqual({
      mesh: { mtls: 'permissive', ambient: false },
    });
  });
});
