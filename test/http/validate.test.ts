import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { lintInputs } from '../../src/operations/lint.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, GATEWAY_RESOLVED, REDIS_DEFINITION, REDIS_PROFILE, testApp } from './support.js';

const GATEWAY_TYPO = GATEWAY_PROFILE.replace('gatewayName: public-gw', 'gatewayNme: public-gw');
const EXPOSE = '/spec/capabilities/expose/rendering';

describe('POST /v1/validate', () => {
  it.each(['application/yaml', 'application/x-yaml', 'text/yaml', 'application/yaml; charset=utf-8', 'Text/YAML; Charset="UTF-8"'])(
    'answers 200 with the resolved profile for a valid profile sent as %s',
    async (type) => {
      const { app } = testApp();
      const res = await request(app).post('/v1/validate').set('Content-Type', type).send(GATEWAY_PROFILE);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ valid: true, diagnostics: [], resolved: GATEWAY_RESOLVED });
    },
  );

  it('answers 200 with valid false and every positioned diagnostic for a misspelled key', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_TYPO);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.resolved).toBeNull();
    expect(res.body.diagnostics.map(pin)).toEqual([
      { code: 'missing-required', file: 'request', line: 8, column: 7, path: `${EXPOSE}/gatewayName` },
      { code: 'unknown-field', file: 'request', line: 10, column: 9, path: `${EXPOSE}/gatewayNme` },
    ]);
    expect(res.body.diagnostics[1].hint).toBe('did you mean gatewayName?');
  });

  it('reports a YAML syntax error as a diagnostic in a 200, not as a request error', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send('not: valid: yaml: [');
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.diagnostics.map(pin)[0]).toEqual({ code: 'yaml-syntax', file: 'request', line: 1, column: 6, path: '' });
  });

  it('answers an empty YAML body with 400, as an empty JSON body (issue 16, defect 10)', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send('');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 400, detail: 'the request body is empty; expected a YAML document' });
  });

  it('reports a comments-only YAML body as empty-document in a 200: the body holds text, but no document', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send('# nothing yet\n');
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'empty-document', file: 'request', line: 1, column: 1, path: '' }]);
  });

  it('reports a binary YAML body as yaml-syntax at the NUL byte', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(Buffer.from('kind: a\n\u0000\u0001', 'latin1'));
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'yaml-syntax', file: 'request', line: 2, column: 1, path: '' }]);
  });

  it('keeps a profile with only warnings valid, with its resolved form', async () => {
    const { app } = testApp();
    const profile = `${GATEWAY_PROFILE}    exposse:\n      rendering: {a: 1}\n`;
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(profile);
    expect(res.body.valid).toBe(true);
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'unknown-capability', file: 'request', line: 11, column: 5, path: '/spec/capabilities/exposse' }]);
    expect(res.body.diagnostics[0].severity).toBe('warning');
    expect(res.body.resolved.capabilities.exposse).toEqual({ a: 1 });
  });

  it('answers a valid JSON profile with the same resolved profile as its YAML form', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(JSON.stringify(GATEWAY_DOCUMENT));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, diagnostics: [], resolved: GATEWAY_RESOLVED });
  });

  it('positions diagnostics of a JSON profile in the JSON text', async () => {
    const { app } = testApp();
    const document = structuredClone(GATEWAY_DOCUMENT) as { spec: { capabilities: { expose: { rendering: Record<string, unknown> } } } };
    document.spec.capabilities.expose.rendering['sslRedirect'] = true;
    const text = JSON.stringify(document, null, 2);
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(text);
    expect(res.body.valid).toBe(false);
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'field-not-allowed', file: 'request', line: 13, column: 11, path: `${EXPOSE}/sslRedirect` }]);
  });

  it('validates the profile text of an envelope', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').send({ profile: GATEWAY_TYPO });
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map(pin)).toEqual([
      { code: 'missing-required', file: 'request', line: 8, column: 7, path: `${EXPOSE}/gatewayName` },
      { code: 'unknown-field', file: 'request', line: 10, column: 9, path: `${EXPOSE}/gatewayNme` },
    ]);
  });

  it('positions diagnostics of an envelope profile object in the object printed with two-space indentation', async () => {
    const { app } = testApp();
    const document = structuredClone(GATEWAY_DOCUMENT) as { metadata: Record<string, unknown> };
    document.metadata['labels'] = { team: 'a' };
    const res = await request(app).post('/v1/validate').send({ profile: document });
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'unknown-field', file: 'request', line: 6, column: 5, path: '/metadata/labels' }]);
  });

  it('applies the definitions of an envelope to its profile', async () => {
    const { app } = testApp();
    const res = await request(app)
      .post('/v1/validate')
      .send({ profile: REDIS_PROFILE, definitions: [REDIS_DEFINITION] });
    expect(res.body).toEqual({
      valid: true,
      diagnostics: [],
      resolved: { gitopsEngine: 'fluxcd', capabilities: { 'redis-sidecar': { image: 'redis:7', port: 6379 } }, versions: {} },
    });
  });

  it('positions a rendering mistake in the profile and a definition mistake in definitions[i]', async () => {
    const { app } = testApp();
    const badDefinition = REDIS_DEFINITION.replace('redis-sidecar', 'other-sidecar').replace('default: 6379', 'default: "6379"');
    const profile = REDIS_PROFILE.replace('image: redis:7', 'image: 7');
    const res = await request(app)
      .post('/v1/validate')
      .send({ profile, definitions: [REDIS_DEFINITION, badDefinition] });
    expect(res.body.valid).toBe(false);
    expect(res.body.diagnostics.map(pin)).toEqual([
      { code: 'definition-invalid', file: 'definitions[1]', line: 10, column: 38, path: '/spec/rendering/properties/port/default' },
      { code: 'wrong-type', file: 'request', line: 9, column: 16, path: '/spec/capabilities/redis-sidecar/rendering/image' },
    ]);
  });

  it('checks every new pattern of a request, with no cap on how many (issue 10: the analysis cap went with RE2)', async () => {
    const { app } = testApp();
    const token = `p${process.pid}x${Date.now()}`;
    const properties = Array.from({ length: 64 }, (_, i) => `      p${i}: {type: string, pattern: "^${token}-${i}(?:[\\u0000-\\uffff]|[\\u0000-\\uffff])+$"}`);
    const definition = [
      'apiVersion: launcher.gokure.dev/v1alpha1',
      'kind: CapabilityDefinition',
      'metadata:',
      '  name: tagged',
      'spec:',
      '  rendering:',
      '    properties:',
      ...properties,
      '',
    ].join('\n');
    const profile = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: prod}\nspec:\n  capabilities:\n    tagged:\n      rendering: {p0: "${token}-0${'a'.repeat(1000)}", p1: "x"}\n`;
    const res = await request(app)
      .post('/v1/validate')
      .send({ profile, definitions: [definition] });
    const column = profile.split('\n')[6]!.indexOf('"x"') + 1;
    expect(res.body.diagnostics.map(pin)).toEqual([
      { code: 'invalid-value', file: 'request', line: 7, column, path: '/spec/capabilities/tagged/rendering/p1' },
    ]);
  });

  it('lets a definition sent with the request take the place of the service definition of the same name', async () => {
    const { catalogue } = lintInputs([{ file: 'definitions/redis-sidecar.yaml', content: REDIS_DEFINITION, origin: 'definition' }], createCatalogue());
    const { app } = testApp({ catalogue });
    const own = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(REDIS_PROFILE);
    expect(own.body.resolved.capabilities['redis-sidecar']).toEqual({ image: 'redis:7', port: 6379 });
    const sent = await request(app)
      .post('/v1/validate')
      .send({ profile: REDIS_PROFILE, definitions: [REDIS_DEFINITION.replace('default: 6379', 'default: 6380')] });
    expect(sent.body.resolved.capabilities['redis-sidecar']).toEqual({ image: 'redis:7', port: 6380 });
    const after = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(REDIS_PROFILE);
    expect(after.body.resolved.capabilities['redis-sidecar']).toEqual({ image: 'redis:7', port: 6379 });
  });

  it('keeps the definitions of one request out of the next', async () => {
    const { app } = testApp();
    await request(app)
      .post('/v1/validate')
      .send({ profile: REDIS_PROFILE, definitions: [REDIS_DEFINITION] });
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(REDIS_PROFILE);
    expect(res.body.diagnostics.map(pin)).toEqual([
      { code: 'unknown-capability', file: 'request', line: 7, column: 5, path: '/spec/capabilities/redis-sidecar' },
    ]);
  });

  it('reports a CapabilityDefinition sent as the profile as invalid-value on kind', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(REDIS_DEFINITION);
    expect(res.body.valid).toBe(false);
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'invalid-value', file: 'request', line: 2, column: 7, path: '/kind' }]);
    expect(res.body.diagnostics[0].message).toBe('kind must be ClusterProfile, found "CapabilityDefinition"');
  });

  it('reports a document of another kind as invalid-value on kind', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send('apiVersion: v1\nkind: ConfigMap\n');
    expect(res.body.diagnostics.map(pin)).toEqual([{ code: 'invalid-value', file: 'request', line: 2, column: 7, path: '/kind' }]);
  });

  it('counts validations by verdict in /metrics', async () => {
    const { app } = testApp();
    await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE);
    await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE);
    await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_TYPO);
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain('kurel_validations_total{operation="validate",verdict="valid"} 2');
    expect(metrics.text).toContain('kurel_validations_total{operation="validate",verdict="invalid"} 1');
  });
});

function pin(d: { code: string; file: string; line: number; column: number; path: string }) {
  return { code: d.code, file: d.file, line: d.line, column: d.column, path: d.path };
}
