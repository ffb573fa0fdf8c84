import { type TSchema, Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CapabilityDefinitionSchema } from '../../src/documents/capability-definition.js';
import { ClusterProfileSchema } from '../../src/documents/cluster-profile.js';
import { type CustomResourceDefinition, generateCrds, type StructuralSchema, structuralSchemaOf } from '../../src/operations/crd.js';
import { runKurel } from '../helpers/cli.js';
import { structuralProblems } from '../helpers/structural.js';

const byKind = (kind: string): CustomResourceDefinition => generateCrds().find((crd) => crd.spec.names.kind === kind)!;
const schemaOf = (kind: string) => byKind(kind).spec.versions[0]!.schema.openAPIV3Schema;
const specOf = (kind: string) => schemaOf(kind).properties!['spec']!;

/** The property paths of a document schema's `spec` with their JSON types, as the CRD must mirror them. */
function documentPaths(node: TSchema, path = 'spec'): [string, string][] {
  const present = node['anyOf'] ? (node['anyOf'] as TSchema[]).filter((m) => m['type'] !== 'null') : [node];
  if (present.length !== 1) return [[path, 'open']];
  const one = present[0]!;
  const entries: [string, string][] = [[path, typeof one['type'] === 'string' ? (one['type'] as string) : 'open']];
  for (const [key, child] of Object.entries((one['properties'] ?? {}) as Record<string, TSchema>)) entries.push(...documentPaths(child, `${path}.${key}`));
  if (typeof one['additionalProperties'] === 'object') entries.push(...documentPaths(one['additionalProperties'] as TSchema, `${path}[*]`));
  return entries;
}

function crdPaths(node: StructuralSchema, path = 'spec'): [string, string][] {
  const entries: [string, string][] = [[path, node.type ?? 'open']];
  for (const [key, child] of Object.entries(node.properties ?? {})) entries.push(...crdPaths(child, `${path}.${key}`));
  if (node.additionalProperties) entries.push(...crdPaths(node.additionalProperties, `${path}[*]`));
  return entries;
}

describe('kurel crd', () => {
  it('defines ClusterProfile cluster-scoped and CapabilityDefinition namespaced, in group launcher.gokure.dev version v1alpha1', () => {
    expect(
      generateCrds().map((crd) => [
        crd.metadata.name,
        crd.spec.group,
        crd.spec.scope,
        crd.spec.names,
        crd.spec.versions.map((v) => [v.name, v.served, v.storage]),
      ]),
    ).toEqual([
      [
        'capabilitydefinitions.launcher.gokure.dev',
        'launcher.gokure.dev',
        'Namespaced',
        {
          kind: 'CapabilityDefinition',
          listKind: 'CapabilityDefinitionList',
          plural: 'capabilitydefinitions',
          singular: 'capabilitydefinition',
          categories: ['kurel'],
        },
        [['v1alpha1', true, true]],
      ],
      [
        'clusterprofiles.launcher.gokure.dev',
        'launcher.gokure.dev',
        'Cluster',
        { kind: 'ClusterProfile', listKind: 'ClusterProfileList', plural: 'clusterprofiles', singular: 'clusterprofile', categories: ['kurel'] },
        [['v1alpha1', true, true]],
      ],
    ]);
  });

  it.each(['ClusterProfile', 'CapabilityDefinition'])('gives %s a structural schema', (kind) => {
    expect(structuralProblems(schemaOf(kind) as Record<string, unknown>)).toEqual([]);
  });

  it.each([
    ['ClusterProfile', ClusterProfileSchema],
    ['CapabilityDefinition', CapabilityDefinitionSchema],
  ])('mirrors every field of the %s document schema under spec, with its type', (kind, document) => {
    expect(crdPaths(specOf(kind))).toEqual(documentPaths(document.properties.spec));
  });

  it('keeps unknown keys of spec and of every closed object in it, so the webhook names a mistyped key', () => {
    const profile = specOf('ClusterProfile');
    expect(profile['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(Object.keys(profile.properties!)).toEqual(['gitopsEngine', 'platform', 'capabilities']);
    const binding = profile.properties!['capabilities']!.additionalProperties!;
    expect(binding).toMatchObject({ type: 'object', nullable: true, 'x-kubernetes-preserve-unknown-fields': true });
    const definition = specOf('CapabilityDefinition');
    expect(definition['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(definition.properties!['rendering']).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('leaves renderings and property declarations open: their shape depends on the capability', () => {
    expect(specOf('ClusterProfile').properties!['capabilities']!.additionalProperties!.properties!['rendering']).toEqual({
      type: 'object',
      description: 'how this cluster implements the capability',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(specOf('CapabilityDefinition').properties!['rendering']!.properties!['properties']).toEqual({
      type: 'object',
      description: 'the rendering keys this capability accepts, by name',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('restricts metadata by its type only, as Kubernetes requires of a CRD', () => {
    expect(schemaOf('ClusterProfile').properties!['metadata']).toEqual({ type: 'object' });
    expect(schemaOf('CapabilityDefinition').properties!['metadata']).toEqual({ type: 'object' });
  });

  it('prints the platform version for profiles, and version and description for definitions', () => {
    const columns = (kind: string) => byKind(kind).spec.versions[0]!.additionalPrinterColumns.map((c) => [c.name, c.type, c.jsonPath]);
    expect(columns('ClusterProfile')).toEqual([
      ['Kubernetes', 'string', '.spec.platform.kubernetes'],
      ['Age', 'date', '.metadata.creationTimestamp'],
    ]);
    expect(columns('CapabilityDefinition')).toEqual([
      ['Version', 'string', '.spec.version'],
      ['Description', 'string', '.spec.description'],
      ['Age', 'date', '.metadata.creationTimestamp'],
    ]);
  });
});

describe('the structural conversion', () => {
  it('brings a field added to a document schema into the CRD by itself', () => {
    const spec = Type.Object(
      {
        version: Type.Optional(Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$', description: 'the version' })),
        platform: Type.Optional(Type.Object({ kubernetes: Type.String() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    );
    expect(structuralSchemaOf(spec)).toEqual({
      type: 'object',
      properties: {
        version: { type: 'string', description: 'the version', pattern: '^\\d+\\.\\d+\\.\\d+$' },
        platform: { type: 'object', properties: { kubernetes: { type: 'string' } }, required: ['kubernetes'], 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it.each([
    ['a literal', Type.Literal('fluxcd'), { type: 'string', enum: ['fluxcd'] }],
    ['a union of literals', Type.Union([Type.Literal('a'), Type.Literal('b')]), { type: 'string', enum: ['a', 'b'] }],
    ['a nullable string', Type.Union([Type.Null(), Type.String({ minLength: 1 })]), { type: 'string', minLength: 1, nullable: true }],
    ['a union of shapes', Type.Union([Type.Boolean(), Type.Object({})]), { 'x-kubernetes-preserve-unknown-fields': true }],
    ['any value', Type.Unknown({ description: 'anything' }), { description: 'anything', 'x-kubernetes-preserve-unknown-fields': true }],
    [
      'a list of any values',
      Type.Array(Type.Unknown(), { maxItems: 3 }),
      { type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true }, maxItems: 3 },
    ],
    ['an integer range', Type.Integer({ minimum: 1, maximum: 9 }), { type: 'integer', minimum: 1, maximum: 9 }],
    ['a map of strings', Type.Object({}, { additionalProperties: Type.String() }), { type: 'object', additionalProperties: { type: 'string' } }],
    ['an open map', Type.Object({}, { additionalProperties: true }), { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
    [
      'a map with key patterns',
      Type.Object({}, { additionalProperties: Type.Boolean(), propertyNames: { pattern: '^a' }, 'x-expected': 'a key starting with a' }),
      { type: 'object', additionalProperties: { type: 'boolean' } },
    ],
    [
      'a string with a lifecycle and its published annotation',
      Type.String({ minLength: 1, introducedIn: '1.30', deprecationNote: 'use b', 'x-kurel-lifecycle': { introducedIn: '1.30' } }),
      { type: 'string', minLength: 1 },
    ],
  ])('converts %s', (_name, schema, expected) => {
    expect(structuralSchemaOf(schema)).toEqual(expected);
  });
});

describe('the kurel crd command', () => {
  it('prints the CRDs as YAML documents by default and as a v1 List with --format json', async () => {
    const yaml = await runKurel(['crd']);
    const json = await runKurel(['crd', '--format', 'json']);
    expect([yaml.code, yaml.stderr, json.code, json.stderr]).toEqual([0, '', 0, '']);
    const documents = parseAllDocuments(yaml.stdout);
    expect(documents.flatMap((d) => d.errors)).toEqual([]);
    expect(documents.map((d) => d.toJS())).toEqual(generateCrds());
    expect(JSON.parse(json.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: generateCrds() });
  });

  it('refuses another format with exit 2', async () => {
    const run = await runKurel(['crd', '--format', 'xml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("<command line>:1:1 error usage option '--format <format>' argument 'xml' is invalid. Allowed choices are yaml, json\n");
  });
});
