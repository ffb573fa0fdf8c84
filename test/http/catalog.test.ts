import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { capabilitySchema, renderingSchemaDocument } from '../../src/operations/capability-schema.js';
import { clusterProfileJsonSchema } from '../../src/operations/cluster-profile-schema.js';
import { listCapabilities } from '../../src/operations/list-capabilities.js';
import { testApp } from './support.js';

describe('catalogue and operations routes', () => {
  it('lists the capabilities as kurel capabilities --format json does', async () => {
    const { app } = testApp();
    const res = await request(app).get('/v1/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listCapabilities(createCatalogue()));
    expect(res.body.map((c: { type: string }) => c.type)).toEqual([...res.body.map((c: { type: string }) => c.type)].sort());
  });

  it('answers one capability with the schema kurel schema TYPE prints', async () => {
    const { app } = testApp();
    const res = await request(app).get('/v1/capabilities/expose');
    expect(res.status).toBe(200);
    const registry = createCatalogue();
    expect(res.body).toEqual({
      ...listCapabilities(registry).find((c) => c.type === 'expose'),
      version: null,
      schema: renderingSchemaDocument(capabilitySchema(registry, 'expose')!),
    });
  });

  it('answers the editor schema of a whole cluster.yaml as application/schema+json', async () => {
    const { app } = testApp();
    const res = await request(app).get('/v1/schema/cluster-profile');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/schema+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual(clusterProfileJsonSchema(createCatalogue()));
  });

  it('answers /healthz with ok and /readyz with the registry in service', async () => {
    const { app } = testApp();
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      registry: { handlers: createCatalogue().listHandlers().length, definitions: 0 },
      lastReload: { ok: true, diagnostics: [] },
    });
  });

  it('answers /readyz with 503 once shutdown has begun', async () => {
    const { app, state } = testApp();
    state.beginDrain();
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('draining');
  });

  it('answers HEAD on a GET route with its headers and no body', async () => {
    const { app } = testApp();
    const res = await request(app).head('/v1/capabilities');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBeUndefined();
  });

  it('serves openapi.yaml as application/yaml', async () => {
    const { app } = testApp();
    const res = await request(app).get('/openapi.yaml');
    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(res.text).toBe(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
  });

  it('exposes the series docs/service.md lists in the Prometheus text format', async () => {
    const { app } = testApp();
    await request(app).get('/healthz');
    await request(app).get('/nowhere');
    const res = await request(app).get('/metrics');
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const series of [
      'kurel_http_requests_total{method="GET",route="/healthz",status="200"} 1',
      'kurel_http_requests_total{method="GET",route="unmatched",status="404"} 1',
      'kurel_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/healthz"} 1',
      'kurel_definitions_loaded 0',
      'kurel_registry_last_reload_success 1',
      '# TYPE kurel_registry_last_reload_timestamp_seconds gauge',
      '# TYPE kurel_validations_total counter',
    ]) {
      expect(res.text).toContain(series);
    }
  });

  it('logs a successful request at debug with its id, route, status and duration', async () => {
    const { app, log } = testApp({ logLevel: 'debug' });
    const res = await request(app).get('/v1/capabilities/expose').set('X-Request-Id', 'trace-7');
    expect(res.status).toBe(200);
    const line = log.lines.find((l) => l['msg'] === 'request');
    expect(line).toMatchObject({
      level: 20,
      service: 'kurel',
      requestId: 'trace-7',
      method: 'GET',
      path: '/v1/capabilities/expose',
      route: '/v1/capabilities/:type',
      status: 200,
    });
    expect(typeof line?.['durationMs']).toBe('number');
  });

  it('logs no line for a successful request at the default info level, but one for a 404', async () => {
    const { app, log } = testApp();
    expect((await request(app).get('/v1/capabilities/expose')).status).toBe(200);
    expect(log.lines.filter((l) => l['msg'] === 'request')).toEqual([]);
    expect((await request(app).get('/v1/nowhere').set('X-Request-Id', 'trace-8')).status).toBe(404);
    expect(log.lines.find((l) => l['msg'] === 'request')).toMatchObject({ level: 30, requestId: 'trace-8', route: 'unmatched', status: 404 });
  });
});
