import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { unsuppressed } from '../../src/core/diagnostics.js';
import { mergeProperties } from '../../src/operations/build-application.js';
import type { Handler } from '../../src/schema/handler.js';
import { appWithTraits, at, buildTexts, pinBuild, profileWithBindings } from '../helpers/build.js';

// Binding keys land on lines 7 (expose), 11 (expose.internal) and 15 (certificate), column 5.
const PROFILE = profileWithBindings(`
  expose:
    rendering:
      controllerType: ingress
      ingressClassName: nginx
  expose.internal:
    rendering:
      controllerType: gateway
      gatewayName: internal-gw
  certificate:
    rendering:
      issuerRef:
        name: letsencrypt
`);

const REDIS_DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  rendering:
    properties:
      image: {type: string, required: true}
      port: {type: integer, default: 6379}
`;

const REDIS_PROFILE = profileWithBindings(`
  redis-sidecar:
    rendering:
      image: redis:7
`);

/** A plugin handler with no rendering schema: what it is given, nothing checks. */
const schemalessPlugin: Handler = { type: 'redis-sidecar', description: 'injects a Redis sidecar', capabilityAware: false };

function registryWith(handler: Handler) {
  const registry = createCatalogue({ handlers: [{ handler: handler, source: 'plugin:./redis.mjs' }] });
  return registry;
}

describe('buildApplication: capability key resolution', () => {
  it('resolves a trait without scope to the bare key and merges the rendering under its properties', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          host: shop.example.com
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application).toEqual({
      name: 'shop',
      components: [
        {
          name: 'web',
          type: 'webservice',
          traits: [
            {
              type: 'expose',
              capabilityKey: 'expose',
              capabilityVersion: null,
              properties: { controllerType: 'ingress', ingressClassName: 'nginx', host: 'shop.example.com' },
            },
          ],
        },
      ],
    });
  });

  it('chooses the scoped key over the bare one and keeps scope in the merged properties', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          scope: internal
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'expose',
      capabilityKey: 'expose.internal',
      capabilityVersion: null,
      properties: { controllerType: 'gateway', gatewayName: 'internal-gw', gatewayNamespace: 'gateway-system', scope: 'internal' },
    });
  });

  it('falls back to the bare key when the profile has no key for the scope', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          scope: public
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'expose',
      capabilityKey: 'expose',
      capabilityVersion: null,
      properties: { controllerType: 'ingress', ingressClassName: 'nginx', scope: 'public' },
    });
  });

  it('treats an empty scope as no scope', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties: {scope: ""}
    `),
      PROFILE,
    );
    expect(report.application?.components[0]?.traits[0]?.capabilityKey).toBe('expose');
  });

  it('reports a non-string scope as wrong-type at the value and resolves the bare key', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          scope: 3
    `),
      PROFILE,
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('wrong-type', 'app.yaml', 12, 16, '/spec/components/0/traits/0/properties/scope')]);
    expect(report.diagnostics[0]?.message).toBe('properties.scope must be a string naming a scoped capability key, found integer 3');
    expect(report.application).toBeNull();
  });
});

describe('buildApplication: handlers and required capabilities', () => {
  it('reports missing-capability at the trait type naming the scoped key looked up and the profile', () => {
    const profile = profileWithBindings(`
      expose.internal:
        rendering:
          controllerType: gateway
          gatewayName: internal-gw
    `);
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          scope: public
    `),
      profile,
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('missing-capability', 'app.yaml', 10, 13, '/spec/components/0/traits/0')]);
    expect(report.diagnostics[0]?.message).toBe(
      'capability "expose.public" not found in ClusterProfile "prod" (cluster.yaml), nor the bare key "expose": component "web" trait "expose" requires it',
    );
    expect(report.application).toBeNull();
  });

  it('reports missing-capability for a required capability with no key at all', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
      - type: certificate
    `),
      profileWithBindings(`
      expose:
        rendering: {controllerType: ingress, ingressClassName: nginx}
    `),
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('missing-capability', 'app.yaml', 11, 13, '/spec/components/0/traits/1')]);
    expect(report.diagnostics[0]?.message).toBe(
      'capability "certificate" not found in ClusterProfile "prod" (cluster.yaml): component "web" trait "certificate" requires it',
    );
  });

  it('builds an aware but not required capability with no key, as authored', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: external-secret
        properties:
          secretStoreRef: {name: vault}
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'external-secret',
      capabilityKey: null,
      capabilityVersion: null,
      properties: { secretStoreRef: { name: 'vault' } },
    });
  });

  it('reports unknown-trait for a type with a definition but no handler', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: redis-sidecar
    `),
      REDIS_PROFILE,
      { definitions: { 'definitions/redis-sidecar.yaml': REDIS_DEFINITION } },
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unknown-trait', 'app.yaml', 10, 13, '/spec/components/0/traits/0/type')]);
    expect(report.diagnostics[0]?.message).toBe(
      'no handler for trait type "redis-sidecar" in component "web": a CapabilityDefinition validates its rendering but does not implement the trait',
    );
  });

  it('suggests the closest handler for a misspelled trait type', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expse
    `),
      PROFILE,
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unknown-trait', 'app.yaml', 10, 13, '/spec/components/0/traits/0/type')]);
    expect(report.diagnostics[0]?.hint).toBe('did you mean expose?');
  });
});

describe('buildApplication: platform-reserved keys', () => {
  it('reports a reserved key authored as null, and one with a value, at their keys', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          controllerType:
          host: shop.example.com
          gatewayName: gw
    `),
      PROFILE,
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([
      at('platform-reserved', 'app.yaml', 12, 9, '/spec/components/0/traits/0/properties/controllerType'),
      at('platform-reserved', 'app.yaml', 14, 9, '/spec/components/0/traits/0/properties/gatewayName'),
    ]);
    expect(report.diagnostics[0]?.message).toBe('controllerType is reserved for the platform: only the ClusterProfile sets it for expose, not component "web"');
  });

  it('lets an application override a key that is not reserved', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties:
          ingressClassName: internal-nginx
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]?.properties).toEqual({ controllerType: 'ingress', ingressClassName: 'internal-nginx' });
  });
});

describe('buildApplication: merge', () => {
  it('merges a nested map key by key, keeping the platform sibling issuerRef.name', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: certificate
        properties:
          issuerRef: {kind: Issuer}
    `),
      PROFILE,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'certificate',
      capabilityKey: 'certificate',
      capabilityVersion: null,
      properties: { issuerRef: { name: 'letsencrypt', kind: 'Issuer' } },
    });
  });

  it('keeps the profile default of a nested key the application does not set', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: certificate
        properties:
          secretName: web-tls
    `),
      PROFILE,
    );
    expect(report.application?.components[0]?.traits[0]?.properties).toEqual({
      issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
      secretName: 'web-tls',
    });
  });

  it('replaces lists and scalars instead of merging them', () => {
    const profile = profileWithBindings(`
      ingress:
        rendering:
          annotations: {a: "1"}
          hosts: [a.example.com, b.example.com]
          tls: true
    `);
    const report = buildTexts(
      appWithTraits(`
      - type: ingress
        properties:
          annotations: {b: "2"}
          hosts: [c.example.com]
          tls: false
    `),
      profile,
    );
    // The ingress rendering is validated by nothing (docs/codes/unvalidated-capability.md), and merged all the same.
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 8, 7, '/spec/capabilities/ingress/rendering', 'warning')]);
    expect(report.application?.components[0]?.traits[0]?.properties).toEqual({
      annotations: { a: '1', b: '2' },
      hosts: ['c.example.com'],
      tls: false,
    });
  });

  it('returns new maps and never touches a prototype', () => {
    const rendering = { issuerRef: { name: 'letsencrypt' } };
    const properties = JSON.parse('{"issuerRef": {"kind": "Issuer"}, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = mergeProperties(rendering, properties);
    expect(rendering).toEqual({ issuerRef: { name: 'letsencrypt' } });
    expect(merged['issuerRef']).not.toBe(rendering.issuerRef);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('buildApplication: unvalidated capabilities', () => {
  it('warns at the binding when a used capability has a schema-less plugin handler and no definition', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: redis-sidecar
    `),
      REDIS_PROFILE,
      { registry: registryWith(schemalessPlugin) },
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 7, 5, '/spec/capabilities/redis-sidecar', 'warning')]);
    expect(report.diagnostics[0]?.message).toBe(
      'capability "redis-sidecar" is used but its rendering is not validated: the handler from plugin:./redis.mjs declares no rendering schema and no CapabilityDefinition exists',
    );
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'redis-sidecar',
      capabilityKey: 'redis-sidecar',
      capabilityVersion: null,
      properties: { image: 'redis:7' },
    });
  });

  it('makes the warning an error under strictCapabilities', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: redis-sidecar
    `),
      REDIS_PROFILE,
      { registry: registryWith(schemalessPlugin), strictCapabilities: true },
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 7, 5, '/spec/capabilities/redis-sidecar', 'error')]);
    expect(report.application).toBeNull();
  });

  it('reports a capability used by two traits once', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: redis-sidecar
      - type: redis-sidecar
    `),
      REDIS_PROFILE,
      { registry: registryWith(schemalessPlugin) },
    );
    expect(report.diagnostics.map((d) => d.code)).toEqual(['unvalidated-capability']);
  });

  it.each([
    ['a CapabilityDefinition exists', schemalessPlugin, { 'definitions/redis-sidecar.yaml': REDIS_DEFINITION }],
    ['the plugin declares a rendering schema', { ...schemalessPlugin, renderingSchema: { type: 'object' } } as Handler, {}],
  ])('stays quiet when %s', (_reason, handler, definitions) => {
    const report = buildTexts(
      appWithTraits(`
      - type: redis-sidecar
    `),
      REDIS_PROFILE,
      { registry: registryWith(handler), definitions },
    );
    expect(report.diagnostics).toEqual([]);
  });

  // docs/codes/unvalidated-capability.md: a pass-through built-in's rendering is validated by nothing.
  it('warns once of a built-in pass-through binding with a rendering, and says nothing of an empty one', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: ingress
      - type: scaler
    `),
      profileWithBindings(`
      ingress:
        rendering: {anything: goes}
      scaler: {}
    `),
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unvalidated-capability', 'cluster.yaml', 8, 7, '/spec/capabilities/ingress/rendering', 'warning')]);
  });

  it('stays quiet about a known binding no trait uses, and reports an unknown one as lint does: one profile passes both or neither', () => {
    const profile = profileWithBindings(`
      redis-sidecar:
        rendering: {image: redis:7}
      not-known-anywhere:
        rendering: {a: 1}
    `);
    const app = appWithTraits(`
      - type: external-secret
    `);
    const unknown = (severity: string) => [at('unknown-capability', 'cluster.yaml', 9, 5, '/spec/capabilities/not-known-anywhere', severity)];
    expect(buildTexts(app, profile, { registry: registryWith(schemalessPlugin) }).diagnostics.map(pinBuild)).toEqual(unknown('warning'));
    expect(buildTexts(app, profile, { registry: registryWith(schemalessPlugin), strictCapabilities: true }).diagnostics.map(pinBuild)).toEqual(
      unknown('error'),
    );
    // The comment that lets lint pass lets build pass too, and is used.
    const suppressed = profile.replace('    not-known-anywhere:', '    # kurel-disable-next-line unknown-capability\n    not-known-anywhere:');
    const quieted = buildTexts(app, suppressed, { registry: registryWith(schemalessPlugin), strictCapabilities: true }).diagnostics;
    expect(quieted.map((d) => [d.code, d.line, d.suppressed !== undefined])).toEqual([['unknown-capability', 10, true]]);
    expect(unsuppressed(quieted)).toEqual([]);
  });
});

describe('buildApplication: every problem in one run', () => {
  it('still validates bindings no trait uses and reports their errors in the profile', () => {
    const profile = profileWithBindings(`
      expose:
        rendering: {controllerType: ingress, ingressClassName: nginx}
      pvc:
        rendering:
          storageClasName: fast
    `);
    const report = buildTexts(
      appWithTraits(`
      - type: expose
    `),
      profile,
    );
    expect(report.diagnostics.map(pinBuild)).toEqual([at('unknown-field', 'cluster.yaml', 11, 9, '/spec/capabilities/pvc/rendering/storageClasName')]);
    expect(report.diagnostics[0]?.hint).toBe('did you mean storageClassName?');
  });

  it('reads the application strictly, except inside properties', () => {
    const app = `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata:
  name: shop
  lables: {team: web}
spec:
  components:
  - type: webservice
    properties: {anything: [goes]}
    traits:
    - type: expose
      propertes: {host: a}
`;
    const report = buildTexts(app, PROFILE);
    expect(report.diagnostics.map(pinBuild)).toEqual([
      at('unknown-field', 'app.yaml', 5, 3, '/metadata/lables'),
      at('missing-required', 'app.yaml', 8, 5, '/spec/components/0/name'),
      at('unknown-field', 'app.yaml', 12, 7, '/spec/components/0/traits/0/propertes'),
    ]);
    expect(report.diagnostics[2]?.hint).toBe('did you mean properties?');
  });

  it('reports an empty application file as empty-document', () => {
    const report = buildTexts('# nothing yet\n', PROFILE);
    expect(report.diagnostics.map(pinBuild)).toEqual([at('empty-document', 'app.yaml', 1, 1, '')]);
    expect(report.application).toBeNull();
  });

  it('reports a second document in the application at its ---', () => {
    const report = buildTexts(`${appWithTraits('- type: expose')}---\nkind: Application\n`, PROFILE);
    expect(report.diagnostics.map(pinBuild)).toEqual([at('multiple-documents', 'app.yaml', 11, 1, '')]);
  });

  it('reports a profile that is not YAML without blaming traits for capabilities it cannot see', () => {
    const report = buildTexts(
      appWithTraits(`
      - type: expose
        properties: {controllerType: gateway}
    `),
      'spec: [unclosed\n',
    );
    expect(report.diagnostics.map((d) => [d.file, d.code])).toEqual([
      ['app.yaml', 'platform-reserved'],
      ['cluster.yaml', 'yaml-syntax'],
    ]);
  });

  it('lists the application, the profile and each definition file', () => {
    const report = buildTexts(appWithTraits('- type: expose'), PROFILE, { definitions: { 'definitions/redis-sidecar.yaml': REDIS_DEFINITION } });
    expect(report.files.map((f) => [f.path, f.kind, f.status])).toEqual([
      ['app.yaml', 'Application', 'checked'],
      ['cluster.yaml', 'ClusterProfile', 'checked'],
      ['definitions/redis-sidecar.yaml', 'CapabilityDefinition', 'checked'],
    ]);
    expect(Object.keys(report.files[1]?.resolved?.capabilities ?? {})).toEqual(['expose', 'expose.internal', 'certificate']);
  });

  it('reports a component name used twice at the second name, and builds nothing', () => {
    const app = `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata:
  name: shop
spec:
  components:
  - name: web
    type: webservice
  - name: web
    type: worker
`;
    const report = buildTexts(app, PROFILE);
    expect(report.diagnostics.map(pinBuild)).toEqual([at('invalid-value', 'app.yaml', 9, 11, '/spec/components/1/name')]);
    expect(report.diagnostics[0]?.message).toBe('component name "web" is already used by component 1 of spec.components; names must be unique');
    expect(report.application).toBeNull();
  });
});
