import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeRendering, type FieldRow, type SchemaNode } from '../../console/catalogue/field-rows.js';
import { embeddedDefinitionsDir } from '../../src/files/package-files.js';
import type { KurelApp } from '../../src/http/app.js';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { ServiceState } from '../../src/http/service-state.js';
import { testApp } from '../http/support.js';

let shipped: KurelApp;

beforeAll(async () => {
  const state = await ServiceState.start(await prepareCatalogueLoader({ definitionDirs: [embeddedDefinitionsDir()], plugins: [], cwd: process.cwd() }));
  if (!(state instanceof ServiceState)) throw new Error('the shipped definitions did not load');
  shipped = testApp({ state });
});

/** The rows of a capability as the service publishes it (built-ins and the shipped definitions). */
async function publishedRows(type: string) {
  const res = await request(shipped.app).get(`/v1/capabilities/${type}`);
  expect(res.status).toBe(200);
  return describeRendering((res.body as { schema: SchemaNode }).schema);
}

function row(rows: FieldRow[], name: string): FieldRow {
  const found = rows.find((r) => r.name === name);
  expect(found, `a row ${name}`).toBeDefined();
  return found!;
}

describe('describeRendering', () => {
  it('lists nested properties as dotted paths with type, required, default and nested requirement', () => {
    const { rows, branches, isPassThrough } = describeRendering({
      type: 'object',
      required: ['storage'],
      properties: {
        version: { type: ['string', 'null'], enum: ['14', '15', null], default: '15', description: 'major version' },
        storage: { type: 'object', required: ['size'], properties: { size: { type: 'string', pattern: '^[1-9][0-9]*Gi$' } } },
        backup: { type: ['object', 'null'], required: ['schedule'], properties: { schedule: { type: 'string', minLength: 1 } } },
      },
    });
    expect({ branches, isPassThrough }).toEqual({ branches: [], isPassThrough: false });
    expect(rows.map((r) => [r.name, r.depth, r.type, r.required, r.requiredWhen, r.defaultValue, r.allowed, r.constraints, r.hasFields])).toEqual([
      ['version', 0, 'string', false, undefined, '"15"', ['"14"', '"15"'], [], false],
      ['storage', 0, 'object', true, undefined, undefined, [], [], true],
      ['storage.size', 1, 'string', true, undefined, undefined, [], ['matches ^[1-9][0-9]*Gi$'], false],
      ['backup', 0, 'object', false, undefined, undefined, [], [], true],
      ['backup.schedule', 1, 'string', true, 'when backup is set', undefined, [], ['not empty'], false],
    ]);
    expect(row(rows, 'version').description).toBe('major version');
  });

  it('names array items with [] and map entries with *, and says what each item must be', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: {
        sources: { type: 'array', maxItems: 8, items: { type: 'object', required: ['namespace'], properties: { namespace: { type: 'string' } } } },
        cidrs: { type: 'array', items: { type: 'string', pattern: '^[0-9./]+$' } },
        codes: { type: 'array', items: { type: 'integer', enum: [429, 503] } },
        parameters: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        labels: { type: 'object', properties: {}, additionalProperties: true },
      },
    });
    expect(rows.map((r) => [r.name, r.type, r.required, r.requiredWhen ?? null, r.constraints])).toEqual([
      ['sources', 'array of object', false, null, ['at most 8 items']],
      ['sources[].namespace', 'string', true, 'in each sources item', []],
      ['cidrs', 'array of string', false, null, ['each item matches ^[0-9./]+$']],
      ['codes', 'array of integer', false, null, ['each item one of 429, 503']],
      ['parameters', 'map of string', false, null, []],
      ['labels', 'object (any keys)', false, null, []],
    ]);
  });

  it('says which field another one needs (if/then and dependentRequired)', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: { authURL: { type: 'string' }, signinURL: { type: 'string' }, headers: { type: 'string' }, user: { type: 'string' } },
      allOf: [
        { if: { required: ['signinURL'] }, then: { required: ['authURL'] } },
        { if: { required: ['headers'] }, then: { required: ['authURL'] } },
      ],
      dependentRequired: { user: ['signinURL'] },
    });
    expect(rows.map((r) => [r.name, r.required, r.requiredWhen ?? null])).toEqual([
      ['authURL', false, 'when signinURL or headers is set'],
      ['signinURL', false, 'when user is set'],
      ['headers', false, null],
      ['user', false, null],
    ]);
  });

  it('leaves out bounds as wide as any JSON integer and states the others', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: {
        code: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        replicas: { type: 'integer', minimum: 1, maximum: 9 },
        rate: { type: 'number', exclusiveMinimum: 0 },
        name: { type: 'string', minLength: 3, maxLength: 63 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
      },
    });
    expect(rows.map((r) => [r.name, r.constraints])).toEqual([
      ['code', []],
      ['replicas', ['from 1 to 9']],
      ['rate', ['greater than 0']],
      ['name', ['3 to 63 characters']],
      ['tags', ['at least 1 item', 'no repeated items']],
    ]);
  });

  it('states every limit the keyword table shows, each in its words', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: {
        low: { type: 'integer', minimum: 3 },
        high: { type: 'number', maximum: 7.5 },
        between: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
        short: { type: 'string', maxLength: 5 },
        any: { type: 'string', minLength: 0 },
        pair: { type: 'array', minItems: 2, maxItems: 2 },
        some: { type: 'array', minItems: 3, items: { type: 'integer', maximum: 4 } },
        labels: { type: 'object', minProperties: 1, maxProperties: 4, additionalProperties: { type: 'string' } },
        fewKeys: { type: 'object', maxProperties: 1, additionalProperties: true },
      },
    });
    expect(rows.map((r) => [r.name, r.constraints])).toEqual([
      ['low', ['at least 3']],
      ['high', ['at most 7.5']],
      ['between', ['greater than 0', 'less than 1', 'a multiple of 0.25']],
      ['short', ['at most 5 characters']],
      ['any', []],
      ['pair', ['exactly 2 items']],
      ['some', ['at least 3 items', 'each item at most 4']],
      ['labels', ['1 to 4 keys']],
      ['fewKeys', ['at most 1 key']],
    ]);
  });

  it('reads lifecycles from x-kurel-lifecycle and deprecated: true, never from description prose', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: {
        tls: { type: 'boolean', description: 'turns TLS on; introduced in Kubernetes 1.29', 'x-kurel-lifecycle': { introducedIn: '1.29' } },
        legacy: { type: 'string', deprecated: true, 'x-kurel-lifecycle': { deprecatedIn: 'gateway-api 1.1', deprecationNote: 'use mode instead' } },
        old: { type: 'string', deprecated: true },
        zone: {
          type: 'string',
          enum: ['a', 'b'],
          'x-kurel-lifecycle': { introducedIn: '1.30', removedIn: 'gateway-api 2.0', values: { b: { introducedIn: '1.33' }, a: { deprecatedIn: 'v1.31' } } },
        },
        prose: { type: 'string', description: 'says it was introduced in Kubernetes 1.20 in words only' },
      },
    });
    expect(rows.map((r) => [r.name, r.lifecycle, r.deprecated])).toEqual([
      ['tls', ['introduced in Kubernetes 1.29'], false],
      ['legacy', ['deprecated in gateway-api 1.1'], true],
      ['old', ['deprecated'], true],
      ['zone', ['introduced in Kubernetes 1.30', 'removed in gateway-api 2.0', 'b: introduced in Kubernetes 1.33', 'a: deprecated in Kubernetes v1.31'], false],
      ['prose', [], false],
    ]);
  });

  it('ignores a malformed x-kurel-lifecycle', () => {
    const { rows } = describeRendering({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-kurel-lifecycle': 'introduced in 1.29' },
        b: { type: 'string', 'x-kurel-lifecycle': { introducedIn: 129, values: [] } },
      },
    });
    expect(rows.map((r) => r.lifecycle)).toEqual([[], []]);
  });

  it('follows local $refs, and lists a field that refers back to its own object once, unexpanded', () => {
    const { rows } = describeRendering({
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    });
    expect(rows.map((r) => [r.name, r.type, r.hasFields])).toEqual([
      ['name', 'string', false],
      ['child', 'object', false],
    ]);
  });

  it('calls a schema with no fields that takes any key a pass-through', () => {
    expect(describeRendering({ type: 'object', additionalProperties: true })).toEqual({ rows: [], branches: [], isPassThrough: true });
    expect(describeRendering({ type: 'object', additionalProperties: false }).isPassThrough).toBe(false);
  });

  it('shows a union without a discriminator as numbered variants', () => {
    const { branches } = describeRendering({
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'integer' } } },
      ],
    });
    expect(branches.map((b) => [b.label, b.discriminator ?? null, b.rows.map((r) => r.name)])).toEqual([
      ['variant 1', null, ['a']],
      ['variant 2', null, ['b']],
    ]);
  });
});

describe('describeRendering on the published schemas', () => {
  it('shows expose per controllerType branch, each with its own fields', async () => {
    const { rows, branches } = await publishedRows('expose');
    expect(rows).toEqual([]);
    expect(branches.map((b) => [b.discriminator, b.label])).toEqual([
      ['controllerType', '"ingress"'],
      ['controllerType', '"gateway"'],
    ]);
    const gateway = branches[1]!.rows;
    expect(row(gateway, 'controllerType')).toMatchObject({ required: true, allowed: ['"gateway"'], type: 'string' });
    expect(row(gateway, 'gatewayName')).toMatchObject({ required: true, constraints: ['not empty'] });
    expect(row(gateway, 'gatewayNamespace')).toMatchObject({ required: false, defaultValue: '"gateway-system"' });
    expect(row(gateway, 'networkPolicy.trafficSources[].namespace')).toMatchObject({
      required: true,
      requiredWhen: 'in each networkPolicy.trafficSources item',
      depth: 2,
    });
    expect(row(branches[0]!.rows, 'authURL')).toMatchObject({
      requiredWhen: 'when authSigninURL or authResponseHeaders is set',
      constraints: ['matches ^[^?]*$'],
    });
    expect(branches[0]!.rows.map((r) => r.name)).not.toContain('gatewayName');
  });

  it('shows a definition capability with its enum, defaults and nested fields', async () => {
    const { rows } = await publishedRows('managed-postgres');
    expect(rows.map((r) => r.name)).toEqual([
      'version',
      'instances',
      'storage',
      'storage.size',
      'storage.storageClassName',
      'backup',
      'backup.enabled',
      'backup.schedule',
      'backup.retentionDays',
      'parameters',
    ]);
    expect(row(rows, 'version')).toMatchObject({ type: 'string', allowed: ['"14"', '"15"', '"16"', '"17"'], defaultValue: '"16"', required: false });
    expect(row(rows, 'instances')).toMatchObject({ type: 'integer', defaultValue: '2', constraints: ['from 1 to 9'] });
    expect(row(rows, 'storage.size')).toMatchObject({ required: true });
    expect(row(rows, 'storage.size').requiredWhen).toBeUndefined();
    expect(row(rows, 'parameters')).toMatchObject({ type: 'map of string' });
  });

  it('shows the lifecycles of a definition with lifecycles, and at a platform only what it has', async () => {
    const { rows } = await publishedRows('service-routing');
    expect(rows.map((r) => [r.name, r.lifecycle])).toEqual([
      ['internalTrafficPolicy', []],
      [
        'trafficDistribution',
        [
          'introduced in Kubernetes 1.30',
          'PreferSameZone: introduced in Kubernetes 1.33',
          'PreferSameNode: introduced in Kubernetes 1.33',
          'PreferClose: deprecated in Kubernetes 1.33',
        ],
      ],
      ['topologyMode', ['introduced in Kubernetes 1.27']],
      ['topologyKeys', ['deprecated in Kubernetes 1.21', 'removed in Kubernetes 1.22']],
    ]);
  });

  it('shows a pass-through built-in as such', async () => {
    expect((await publishedRows('ingress')).isPassThrough).toBe(true);
  });
});
