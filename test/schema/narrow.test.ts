import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { capabilitySchema } from '../../src/operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../src/operations/cluster-profile-schema.js';
import { lintInputs } from '../../src/operations/lint.js';
import { LIFECYCLE_ANNOTATION } from '../../src/schema/keywords.js';
import { narrowSchema } from '../../src/schema/narrow.js';
import { runKurel } from '../helpers/cli.js';

// docs/platform.md: schemas narrowed to a platform. service-routing (definitions/) follows
// Kubernetes: topologyKeys deprecated in 1.21 and removed in 1.22, topologyMode from 1.27,
// trafficDistribution from 1.30 with PreferSameZone and PreferSameNode from 1.33.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_ROUTING = readFileSync(new URL('../../definitions/service-routing.yaml', import.meta.url), 'utf8');
const OLD_PROXY = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: old-proxy
spec:
  introducedIn: "1.20"
  deprecatedIn: "1.29"
  removedIn: "1.31"
  deprecationNote: use edge-proxy
  rendering:
    properties:
      replicas: {type: integer, default: 1}
`;

const catalogue = lintInputs(
  [
    { file: 'definitions/service-routing.yaml', content: SERVICE_ROUTING, origin: 'definition' },
    { file: 'definitions/old-proxy.yaml', content: OLD_PROXY, origin: 'definition' },
  ],
  createCatalogue(),
).catalogue;

function routing(kubernetes?: string): JsonSchema {
  return capabilitySchema(catalogue, 'service-routing', kubernetes ? { platform: { kubernetes } } : {})!.schema;
}

function fields(schema: JsonSchema): Record<string, { enum?: unknown; deprecated?: unknown }> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, sub]) => [
      name,
      {
        ...(sub.enum !== undefined ? { enum: sub.enum } : {}),
        ...(sub['deprecated'] !== undefined ? { deprecated: sub['deprecated'] } : {}),
      },
    ]),
  );
}

const POLICY = { enum: ['Cluster', 'Local', null] };

describe('a capability schema narrowed to a platform version', () => {
  it.each([
    ['1.20, before topologyKeys is deprecated', '1.20', { internalTrafficPolicy: POLICY, topologyKeys: {} }],
    ['1.21, when topologyKeys is deprecated', '1.21', { internalTrafficPolicy: POLICY, topologyKeys: { deprecated: true } }],
    ['1.22, when topologyKeys is removed', '1.22', { internalTrafficPolicy: POLICY }],
    ['1.26.9, just before topologyMode', '1.26.9', { internalTrafficPolicy: POLICY }],
    ['1.27, at topologyMode', '1.27', { internalTrafficPolicy: POLICY, topologyMode: { enum: ['Auto', null] } }],
    ['1.29, just before trafficDistribution', '1.29', { internalTrafficPolicy: POLICY, topologyMode: { enum: ['Auto', null] } }],
    [
      '1.30, at trafficDistribution, without the values of 1.33',
      '1.30',
      { internalTrafficPolicy: POLICY, trafficDistribution: { enum: ['PreferClose', null] }, topologyMode: { enum: ['Auto', null] } },
    ],
    [
      '1.32.5, just before PreferSameZone',
      '1.32.5',
      { internalTrafficPolicy: POLICY, trafficDistribution: { enum: ['PreferClose', null] }, topologyMode: { enum: ['Auto', null] } },
    ],
    [
      '1.33, with every value',
      '1.33',
      {
        internalTrafficPolicy: POLICY,
        trafficDistribution: { enum: ['PreferClose', 'PreferSameZone', 'PreferSameNode', null] },
        topologyMode: { enum: ['Auto', null] },
      },
    ],
  ])('at %s has exactly its fields and values', (_when, kubernetes, expected) => {
    expect(fields(routing(kubernetes))).toEqual(expected);
  });

  it('compares versions part by part: a property of 1.10 is there at 1.10 and not at 1.9', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string', introducedIn: '1.10' } }, additionalProperties: false };
    expect(Object.keys(narrowSchema(schema, { kubernetes: '1.9' }).properties!)).toEqual([]);
    expect(Object.keys(narrowSchema(schema, { kubernetes: '1.10' }).properties!)).toEqual(['a']);
  });

  it('narrows nothing for a component the platform does not name', () => {
    expect(routing()).toEqual(capabilitySchema(catalogue, 'service-routing', { platform: { 'gateway-api': '1.0' } })!.schema);
    expect(Object.keys(routing().properties!)).toEqual(['internalTrafficPolicy', 'trafficDistribution', 'topologyMode', 'topologyKeys']);
  });

  it('names every lifecycle in the descriptions, with or without a platform', () => {
    const described = Object.fromEntries(Object.entries(routing().properties!).map(([name, sub]) => [name, sub.description]));
    expect(described).toEqual({
      internalTrafficPolicy: 'Cluster: any ready endpoint; Local: only endpoints on the node the traffic comes from',
      trafficDistribution:
        'Prefer endpoints close to the client; unset: spread over every endpoint; introduced in Kubernetes 1.30; value "PreferSameZone": introduced in Kubernetes 1.33; value "PreferSameNode": introduced in Kubernetes 1.33; value "PreferClose": deprecated in Kubernetes 1.33: write PreferSameZone, which means the same',
      topologyMode: 'Auto: topology-aware routing from EndpointSlice hints; introduced in Kubernetes 1.27',
      topologyKeys:
        'Node labels ranking endpoints by closeness; deprecated in Kubernetes 1.21; removed in Kubernetes 1.22: use trafficDistribution or topologyMode instead',
    });
    expect(routing('1.21').properties!['topologyKeys']!.description).toBe(described['topologyKeys']);
  });

  it('publishes lifecycles only in x-kurel-lifecycle, so the strictest JSON Schema reader that registers it takes it', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION);
    for (const version of [undefined, '1.21', '1.33']) expect(() => ajv.compile(routing(version))).not.toThrow();
    const withoutAnnotation = JSON.stringify(routing(), (key, value: unknown) => (key === LIFECYCLE_ANNOTATION ? undefined : value));
    expect(withoutAnnotation).not.toMatch(/introducedIn|deprecatedIn|removedIn|deprecationNote|enumLifecycle/);
    // Not registered, the annotation is an unknown keyword to a strict reader.
    expect(() => new Ajv2020({ strict: true, allowUnionTypes: true }).compile(routing())).toThrow('strict mode: unknown keyword: "x-kurel-lifecycle"');
  });

  it('gives each lifecycle whole in x-kurel-lifecycle: the bounds as written, the note, and the enum values', () => {
    const lifecycles = Object.fromEntries(Object.entries(routing().properties!).map(([name, sub]) => [name, sub[LIFECYCLE_ANNOTATION]]));
    expect(lifecycles).toEqual({
      internalTrafficPolicy: undefined,
      trafficDistribution: {
        introducedIn: '1.30',
        values: {
          PreferSameZone: { introducedIn: '1.33' },
          PreferSameNode: { introducedIn: '1.33' },
          PreferClose: { deprecatedIn: '1.33', deprecationNote: 'write PreferSameZone, which means the same' },
        },
      },
      topologyMode: { introducedIn: '1.27' },
      topologyKeys: { deprecatedIn: '1.21', removedIn: '1.22', deprecationNote: 'use trafficDistribution or topologyMode instead' },
    });
    // Narrowed to 1.30, the values 1.30 lacks are gone from the annotation as from the enum.
    expect(routing('1.30').properties!['trafficDistribution']![LIFECYCLE_ANNOTATION]).toEqual({
      introducedIn: '1.30',
      values: { PreferClose: { deprecatedIn: '1.33', deprecationNote: 'write PreferSameZone, which means the same' } },
    });
  });

  it('refuses what the platform lacks, as lint does, once narrowed', () => {
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).addKeyword(LIFECYCLE_ANNOTATION).compile(routing('1.30'));
    expect(validate({ trafficDistribution: 'PreferClose' })).toBe(true);
    expect(validate({ trafficDistribution: 'PreferSameZone' })).toBe(false);
    expect(validate({ topologyKeys: ['zone'] })).toBe(false);
  });

  it.each([
    ['1.19', 'unavailable'],
    ['1.20', 'available'],
    ['1.29', 'deprecated'],
    ['1.31', 'unavailable'],
  ])('says a whole capability at %s is %s', (kubernetes, availability) => {
    const published = capabilitySchema(catalogue, 'old-proxy', { platform: { kubernetes } })!;
    expect(published.availability).toBe(availability);
    if (availability === 'unavailable') {
      expect(published.schema).toEqual({
        description: `not available on kubernetes ${kubernetes}: introduced in Kubernetes 1.20; deprecated in Kubernetes 1.29; removed in Kubernetes 1.31: use edge-proxy`,
        not: {},
      });
    } else {
      expect(published.schema['deprecated']).toBe(availability === 'deprecated' ? true : undefined);
    }
  });

  it('refuses a binding of a capability the platform lacks in the whole-profile schema', () => {
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true })
      .addKeyword(LIFECYCLE_ANNOTATION)
      .compile(clusterProfileJsonSchema(catalogue, { platform: { kubernetes: '1.31' } }));
    const profile = (capabilities: object) => ({
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'a' },
      spec: { capabilities },
    });
    expect(validate(profile({ 'service-routing': { rendering: { trafficDistribution: 'PreferClose' } } }))).toBe(true);
    expect(validate(profile({ 'old-proxy': {} }))).toBe(false);
    expect(validate(profile({ 'old-proxy.internal': {} }))).toBe(false);
    expect(validate(profile({ 'service-routing': { rendering: { topologyKeys: [] } } }))).toBe(false);
  });
});

describe.concurrent('kurel schema and kurel types with --platform', () => {
  it('prints the rendering schema narrowed to the platform', async () => {
    const run = await runKurel(['schema', 'service-routing', '--definitions', 'definitions', '--platform', 'kubernetes=1.29'], { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(Object.keys((JSON.parse(run.stdout) as JsonSchema).properties!)).toEqual(['internalTrafficPolicy', 'topologyMode']);
  });

  it('narrows the whole-profile schema too', async () => {
    const run = await runKurel(['schema', '--definitions', 'definitions', '--platform', 'kubernetes=1.21'], { cwd: ROOT });
    const schema = JSON.parse(run.stdout) as { $defs: Record<string, JsonSchema> };
    expect(Object.keys(schema.$defs['service-routing-rendering']!.properties!)).toEqual(['internalTrafficPolicy', 'topologyKeys']);
    expect(schema.$defs['service-routing-rendering']!.properties!['topologyKeys']!['deprecated']).toBe(true);
  });

  it('declares the narrowed types, a deprecated field marked @deprecated', async () => {
    const run = await runKurel(['types', '--definitions', 'definitions', '--platform', 'kubernetes=1.21'], { cwd: ROOT });
    expect(run.code).toBe(0);
    const declaration = /export interface ServiceRoutingRendering \{[\s\S]*?\n\}/.exec(run.stdout)?.[0];
    expect(declaration).toBe(
      [
        'export interface ServiceRoutingRendering {',
        '  /**',
        '   * Cluster: any ready endpoint; Local: only endpoints on the node the traffic comes from',
        '   */',
        '  internalTrafficPolicy?: "Cluster" | "Local" | null;',
        '  /**',
        '   * @deprecated',
        '   * Node labels ranking endpoints by closeness; deprecated in Kubernetes 1.21; removed in Kubernetes 1.22: use trafficDistribution or topologyMode instead',
        '   */',
        '  topologyKeys?: string[] | null;',
        '}',
      ].join('\n'),
    );
  });

  it('types a binding of a capability the platform lacks as never', async () => {
    const run = await runKurel(['types', '--capability-def', 'test/fixtures/platform/old-proxy.yaml', '--platform', 'kubernetes=1.31'], { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('export type OldProxyBinding = never;');
  });

  it('refuses a malformed --platform, exit 2', async () => {
    const run = await runKurel(['schema', '--platform', 'kubernetes=1.29.x'], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found "1.29.x"');
  });
});
