import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, testApp } from './support.js';

/** An application whose component `web` has one expose trait; line 10 is `- type: expose`. */
const APPLICATION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata:
  name: shop
spec:
  components:
  - name: web
    type: webservice
    traits:
    - type: expose
      properties: {host: shop.example.com}
`;

const build = (app: Parameters<typeof request>[0], body: unknown) =>
  request(app).post('/v1/build').set('Content-Type', 'application/json').send(JSON.stringify(body));

describe('POST /v1/build', () => {
  it('answers the resolved application with the profile rendering merged under the trait properties', async () => {
    const { app } = testApp();
    const res = await build(app, { application: APPLICATION, profile: GATEWAY_PROFILE });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      diagnostics: [],
      application: {
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
                properties: { controllerType: 'gateway', gatewayName: 'public-gw', gatewayNamespace: 'gateway-system', host: 'shop.example.com' },
              },
            ],
          },
        ],
      },
    });
  });

  it('takes the documents as objects too', async () => {
    const { app } = testApp();
    const { parse } = await import('yaml');
    const res = await build(app, { application: parse(APPLICATION), profile: parse(GATEWAY_PROFILE) });
    expect(res.body.valid).toBe(true);
    expect(res.body.application.components[0].traits[0].capabilityKey).toBe('expose');
  });

  it('names the application and the profile in diagnostics, with null for the application', async () => {
    const { app } = testApp();
    const res = await build(app, {
      application: APPLICATION.replace('type: expose', 'type: certificate'),
      profile: GATEWAY_PROFILE.replace('gatewayName: public-gw', 'gatewayName: ""'),
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.application).toBeNull();
    expect(res.body.diagnostics.map((d: { code: string; file: string; line: number; column: number }) => [d.code, d.file, d.line, d.column])).toEqual([
      ['missing-capability', 'application', 10, 13],
      ['invalid-value', 'profile', 10, 22],
    ]);
  });

  it('applies the definitions of the request, which do not implement a trait', async () => {
    const { app } = testApp();
    const application = APPLICATION.replace('type: expose\n      properties: {host: shop.example.com}', 'type: redis-sidecar');
    const profile = `${GATEWAY_PROFILE}    redis-sidecar:\n      rendering: {image: redis:7}\n`;
    const res = await build(app, { application, profile, definitions: [REDIS_DEFINITION] });
    expect(res.body.diagnostics.map((d: { code: string; file: string; line: number }) => [d.code, d.file, d.line])).toEqual([
      ['unknown-trait', 'application', 10],
    ]);
  });

  it('counts builds by verdict in /metrics', async () => {
    const { app } = testApp({ catalogue: createCatalogue() });
    await build(app, { application: APPLICATION, profile: GATEWAY_PROFILE });
    await build(app, { application: APPLICATION, profile: '' });
    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toContain('kurel_validations_total{operation="build",verdict="valid"} 1');
    expect(metrics).toContain('kurel_validations_total{operation="build",verdict="invalid"} 1');
  });
});
