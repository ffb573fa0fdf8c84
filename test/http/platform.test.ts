import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { capabilitySchema, renderingSchemaDocument } from '../../src/operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../src/operations/cluster-profile-schema.js';
import { lintInputs } from '../../src/operations/lint.js';
import { testApp } from './support.js';

// docs/service.md: platform versions over HTTP, with definitions/service-routing.yaml.
const SERVICE_ROUTING = readFileSync(new URL('../../definitions/service-routing.yaml', import.meta.url), 'utf8');
const catalogue = lintInputs([{ file: 'definitions/service-routing.yaml', content: SERVICE_ROUTING, origin: 'definition' }], createCatalogue()).catalogue;
const PROFILE_133 = readFileSync(new URL('../../profiles/service-routing-1.33.yaml', import.meta.url), 'utf8');

const app = () => testApp({ catalogue }).app;
const post = (path: string, body: unknown) => request(app()).post(path).set('Content-Type', 'application/json').send(JSON.stringify(body));
const problem = (res: { status: number; headers: Record<string, string>; body: { detail?: string } }) => ({
  status: res.status,
  type: res.headers['content-type'],
  detail: res.body.detail,
});

describe('GET /v1/capabilities/{type}?platform=', () => {
  it('answers the schema narrowed to the platform, as kurel schema TYPE --platform prints it', async () => {
    const res = await request(app()).get('/v1/capabilities/service-routing?platform=kubernetes=1.29');
    expect(res.status).toBe(200);
    expect(res.body.schema).toEqual(renderingSchemaDocument(capabilitySchema(catalogue, 'service-routing', { platform: { kubernetes: '1.29' } })!));
    expect(Object.keys(res.body.schema.properties)).toEqual(['internalTrafficPolicy', 'topologyMode']);
  });

  it('takes one parameter per component', async () => {
    const res = await request(app()).get('/v1/capabilities/service-routing?platform=gateway-api=1.1&platform=kubernetes=1.30');
    expect(res.body.schema.properties.trafficDistribution.enum).toEqual(['PreferClose', null]);
  });

  it('answers every field without ?platform=', async () => {
    const res = await request(app()).get('/v1/capabilities/service-routing');
    expect(Object.keys(res.body.schema.properties)).toEqual(['internalTrafficPolicy', 'trafficDistribution', 'topologyMode', 'topologyKeys']);
  });

  it.each([
    [
      'kubernetes=v1.29',
      'the platform query parameter: expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found "v1.29"; write 1.29',
    ],
    ['kubernetes', 'the platform query parameter: expected COMPONENT=VERSION such as kubernetes=1.29, found "kubernetes"'],
    ['kubernetes=1.29&platform=kubernetes=1.30', 'the platform query parameter: kubernetes is given twice (1.29 and 1.30); give each component once'],
  ])('answers ?platform=%s with a 400 problem', async (query, detail) => {
    const res = await request(app()).get(`/v1/capabilities/service-routing?platform=${query}`);
    expect(problem(res)).toEqual({ status: 400, type: 'application/problem+json; charset=utf-8', detail });
  });
});

describe('GET /v1/schema/cluster-profile?platform=', () => {
  it('answers the editor schema narrowed to the platform', async () => {
    const res = await request(app()).get('/v1/schema/cluster-profile?platform=kubernetes=1.21');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(clusterProfileJsonSchema(catalogue, { platform: { kubernetes: '1.21' } }));
  });

  it('answers a malformed platform with a 400 problem', async () => {
    const res = await request(app()).get('/v1/schema/cluster-profile?platform=k8s=1.30.2-eks-1');
    expect(problem(res)).toEqual({
      status: 400,
      type: 'application/problem+json; charset=utf-8',
      detail:
        'the platform query parameter: expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for k8s, found "1.30.2-eks-1"; write 1.30.2',
    });
  });
});

describe('platform in the validate and build envelopes', () => {
  it('judges the profile at its own spec.platform without one', async () => {
    const res = await post('/v1/validate', { profile: PROFILE_133 });
    expect({ valid: res.body.valid, diagnostics: res.body.diagnostics }).toEqual({ valid: true, diagnostics: [] });
  });

  it("overrides the profile's versions, positions in the text sent", async () => {
    const res = await post('/v1/validate', { profile: PROFILE_133, platform: { kubernetes: '1.29' } });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(
      res.body.diagnostics.map((d: { code: string; line: number; column: number; path: string; file: string }) => [d.code, d.file, d.line, d.column, d.path]),
    ).toEqual([['field-unavailable', 'request', 16, 9, '/spec/capabilities/service-routing/rendering/trafficDistribution']]);
  });

  it('overrides the versions of a profile sent as an object too', async () => {
    const profile = {
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'edge' },
      spec: { capabilities: { 'service-routing': { rendering: { trafficDistribution: 'PreferSameZone' } } } },
    };
    expect((await post('/v1/validate', { profile })).body.valid).toBe(true);
    const old = await post('/v1/validate', { profile, platform: { kubernetes: '1.31' } });
    expect(old.body.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message])).toEqual([
      ['field-unavailable', 'capability "service-routing": trafficDistribution value "PreferSameZone" needs kubernetes 1.33; this cluster runs 1.31'],
    ]);
  });

  it('overrides the profile in a build', async () => {
    const application =
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n  - name: web\n    type: webservice\n';
    expect((await post('/v1/build', { application, profile: PROFILE_133 })).body.valid).toBe(true);
    const res = await post('/v1/build', { application, profile: PROFILE_133, platform: { kubernetes: '1.28' } });
    expect(res.body.diagnostics.map((d: { code: string; file: string; line: number }) => [d.code, d.file, d.line])).toEqual([
      ['field-unavailable', 'profile', 16],
    ]);
  });

  it.each([
    [{ kubernetes: 1.3 }, '"platform" member "kubernetes" must be a version string such as "1.30", found a number'],
    [
      { kubernetes: 'v1.30' },
      '"platform": expected a version MAJOR.MINOR or MAJOR.MINOR.PATCH such as 1.30 or 1.30.2 for kubernetes, found "v1.30"; write 1.30',
    ],
    [{ Kubernetes: '1.30' }, '"platform": expected a component name (a DNS-1123 label such as kubernetes or gateway-api) before =, found "Kubernetes"'],
    ['kubernetes=1.30', '"platform" must be an object of component versions such as {"kubernetes": "1.30"}, found the string "kubernetes=1.30"'],
    [['kubernetes=1.30'], '"platform" must be an object of component versions such as {"kubernetes": "1.30"}, found a list'],
  ])('answers the platform %j with a 400 problem', async (platform, detail) => {
    for (const path of ['/v1/validate', '/v1/build']) {
      const res = await post(path, { ...(path === '/v1/build' ? { application: '' } : {}), profile: PROFILE_133, platform });
      expect(problem(res), path).toEqual({ status: 400, type: 'application/problem+json; charset=utf-8', detail });
    }
  });
});
