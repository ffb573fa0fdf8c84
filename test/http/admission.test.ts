import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintInputs } from '../../src/operations/lint.js';
import { testApp } from './support.js';

// docs/kubernetes.md: the webhook route as an API server calls it.
const KIND = { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' };

function review(object: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: '705ab4f5', kind: KIND, operation: 'CREATE', object, ...extra } };
}

function profile(capabilities: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'staging' }): Record<string, unknown> {
  return { apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile', metadata, spec: { capabilities } };
}

const post = (app: Parameters<typeof request>[0], body: string) => request(app).post('/v1/admission').set('Content-Type', 'application/json').send(body);

describe('POST /v1/admission', () => {
  it('allows a valid ClusterProfile with its Kubernetes metadata, answering a review with the same uid', async () => {
    const { app } = testApp();
    const object = profile(
      { expose: { rendering: { controllerType: 'ingress', ingressClassName: 'nginx' } } },
      { name: 'staging', uid: 'e0c1', resourceVersion: '12', managedFields: [{ manager: 'kubectl' }] },
    );
    const res = await post(app, JSON.stringify(review(object)));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: '705ab4f5', allowed: true } });
  });

  it('denies a profile with errors with 422 Invalid, and counts the verdict', async () => {
    const { app } = testApp();
    const res = await post(app, JSON.stringify(review(profile({ expose: { rendering: { controllerType: 'ingress' } } }))));
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({
      uid: '705ab4f5',
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message:
          '/spec/capabilities/expose/rendering/ingressClassName: capability "expose": ingressClassName is required when controllerType is ingress (missing-required)',
      },
    });
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain('kurel_validations_total{operation="admission",verdict="invalid"} 1');
  });

  it("judges a profile at the service's platform default, as POST /v1/validate does", async () => {
    const content = readFileSync(new URL('../../definitions/service-routing.yaml', import.meta.url), 'utf8');
    const catalogue = lintInputs([{ file: 'definitions/service-routing.yaml', content, origin: 'definition' }], createCatalogue()).catalogue;
    const { app } = testApp({ catalogue, platformDefault: { kubernetes: '1.31' } });
    const object = profile({ 'service-routing': { rendering: { trafficDistribution: 'PreferSameZone' } } });
    const message = 'capability "service-routing": trafficDistribution value "PreferSameZone" needs kubernetes 1.33; this cluster runs 1.31';
    const validated = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(JSON.stringify(object));
    expect(validated.body.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message])).toEqual([['field-unavailable', message]]);
    const res = await post(app, JSON.stringify(review(object)));
    expect(res.body.response).toEqual({
      uid: '705ab4f5',
      allowed: false,
      status: { code: 422, reason: 'Invalid', message: `/spec/capabilities/service-routing/rendering/trafficDistribution: ${message} (field-unavailable)` },
    });
    const newer = testApp({ catalogue, platformDefault: { kubernetes: '1.33' } });
    expect((await post(newer.app, JSON.stringify(review(object)))).body.response).toEqual({ uid: '705ab4f5', allowed: true });
  });

  it('answers a malformed request inside a review with allowed: false and status 400', async () => {
    const { app } = testApp();
    const res = await post(app, JSON.stringify(review(profile({}), { operation: 'PATCH' })));
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({
      uid: '705ab4f5',
      allowed: false,
      status: { code: 400, reason: 'BadRequest', message: 'request.operation must be CREATE, UPDATE, DELETE or CONNECT; found "PATCH"' },
    });
  });

  it('answers a body that is no review with a 400 problem: there is no uid to answer', async () => {
    const { app } = testApp();
    const res = await post(app, JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 400, detail: 'the AdmissionReview request has no uid' });
    const notJson = await post(app, '{"apiVersion":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.detail).toMatch(/^the request body is not valid JSON: /);
  });

  it('reads reviews up to 4 MiB, more than the 1 MiB of the other routes', async () => {
    const { app } = testApp();
    const annotations = { note: 'x'.repeat(2 * 1024 * 1024) };
    const object = profile({ expose: { rendering: { controllerType: 'ingress', ingressClassName: 'nginx' } } }, { name: 'staging', annotations });
    const res = await post(app, JSON.stringify(review(object)));
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({ uid: '705ab4f5', allowed: true });
  });

  it('answers a declared Content-Length over 4 MiB with an immediate 413 problem', async () => {
    const { app } = testApp();
    const res = await request(app)
      .post('/v1/admission')
      .set('Content-Type', 'application/json')
      .set('Content-Length', String(4 * 1024 * 1024 + 1))
      .send('{');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, detail: 'the request body is larger than the limit of 4194304 bytes', limitBytes: 4194304 });
  });

  it('allows a DELETE without checks', async () => {
    const { app } = testApp();
    const body = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'd1', kind: KIND, operation: 'DELETE', oldObject: profile({ x: 1 }) },
    };
    const res = await post(app, JSON.stringify(body));
    expect(res.body.response).toEqual({ uid: 'd1', allowed: true });
  });
});
