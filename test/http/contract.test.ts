import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics.js';
import type { KurelApp } from '../../src/http/app.js';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { startServer } from '../../src/http/server.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import { startServe, waitFor } from '../helpers/serve.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE, startSlowRequest, testApp } from './support.js';

interface Operation {
  responses: Record<string, ResponseSpec | { $ref: string }>;
}
interface ResponseSpec {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: object }>;
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; responses: Record<string, ResponseSpec> };
}

const SPEC_FILE = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const COSTLY_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/costly.mjs', import.meta.url));
const GATED_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/gated.mjs', import.meta.url));
const spec = parse(readFileSync(SPEC_FILE, 'utf8')) as OpenApi;
const SCHEMA_BASE = 'https://kurel.invalid/openapi/schemas/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
for (const [name, schema] of Object.entries(spec.components.schemas)) ajv.addSchema({ ...localRefs(schema), $id: `${SCHEMA_BASE}${name}` });

/** `POST /v1/reload` as a loopback caller sends it: the JSON media type is required. */
const postReload = (app: Parameters<typeof request>[0]) => request(app).post('/v1/reload').set('Content-Type', 'application/json');
/** Every (method, path template, status) answered during the run. */
const observed = new Set<string>();

/** Checks an answer against the contract: its status is documented, and its media type and body are the documented ones. */
function expectDocumented(method: string, template: string, res: { status: number; headers: Record<string, string | undefined>; text: string }): void {
  const operation = spec.paths[template]?.[method];
  expect(operation, `${method.toUpperCase()} ${template} is documented`).toBeDefined();
  const response = resolveResponse(operation!.responses[String(res.status)]);
  expect(response, `${method.toUpperCase()} ${template} ${res.status} is documented`).toBeDefined();
  // A response documented without content (the server's own 431) has no body.
  if (response!.content === undefined) {
    expect(res.text ?? '', `${method.toUpperCase()} ${template} ${res.status} has no body`).toBe('');
    observed.add(`${method} ${template} ${res.status}`);
    return;
  }
  const mediaType = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
  const content = response!.content?.[mediaType];
  expect(content, `${method.toUpperCase()} ${template} ${res.status} documents ${mediaType}`).toBeDefined();
  const body = mediaType.endsWith('json') ? JSON.parse(res.text) : res.text;
  const validate = ajv.compile(localRefs(content!.schema));
  expect(validate(body) ? [] : validate.errors, `${method.toUpperCase()} ${template} ${res.status} body matches its schema`).toEqual([]);
  for (const [header, declared] of Object.entries(response!.headers ?? {})) {
    // A header is required unless it says otherwise (Retry-After comes with some 503s only).
    if ((declared as { required?: boolean }).required !== false) expect(res.headers[header.toLowerCase()], `${header} header`).toBeDefined();
  }
  observed.add(`${method} ${template} ${res.status}`);
}

let scratch: string;
let reloadable: KurelApp;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'kurel-contract-'));
  writeFileSync(join(scratch, 'redis-sidecar.yaml'), REDIS_DEFINITION);
  const state = await ServiceState.start(await prepareCatalogueLoader({ definitionDirs: [scratch], plugins: [], cwd: scratch }));
  if (!(state instanceof ServiceState)) throw new Error('the test definitions did not load');
  reloadable = testApp({ state });
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('openapi.yaml', () => {
  it('is OpenAPI 3.1 whose schemas all compile as JSON Schema 2020-12', () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    for (const name of Object.keys(spec.components.schemas)) expect(() => ajv.getSchema(`${SCHEMA_BASE}${name}`)).not.toThrow();
  });

  it('lists exactly the diagnostic codes kurel emits', () => {
    const diagnostic = spec.components.schemas['Diagnostic'] as { properties: { code: { enum: string[] } } };
    expect(diagnostic.properties.code.enum).toEqual([...DIAGNOSTIC_CODES]);
  });

  it('is served at /openapi.yaml as it is in the repository', async () => {
    const { app } = testApp();
    const res = await request(app).get('/openapi.yaml');
    expectDocumented('get', '/openapi.yaml', res);
    expect(res.text).toBe(readFileSync(SPEC_FILE, 'utf8'));
  });
});

describe('the running app against openapi.yaml', () => {
  it('registers exactly the documented routes with exactly the documented methods', () => {
    const { app } = testApp();
    const stack = (app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
    const served = Object.fromEntries(
      stack
        .filter((layer) => layer.route)
        .map((layer) => [
          layer.route!.path.replace(/:(\w+)/g, '{$1}'),
          Object.keys(layer.route!.methods)
            .filter((m) => m !== '_all')
            .sort(),
        ]),
    );
    const documented = Object.fromEntries(Object.entries(spec.paths).map(([path, item]) => [path, Object.keys(item).sort()]));
    expect(served).toEqual(documented);
  });

  it.each(Object.keys(spec.paths))('answers every undocumented method on %s with 405 and an Allow header naming the documented ones', async (template) => {
    const { app } = testApp();
    const path = template.replace('{type}', 'expose');
    const documented = Object.keys(spec.paths[template]!);
    const allow = documented.map((m) => m.toUpperCase());
    if (documented.includes('get')) allow.push('HEAD');
    for (const method of METHODS.filter((m) => !documented.includes(m))) {
      const res = await request(app)[method](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers['allow']).toBe(allow.join(', '));
      expect(ajv.validate(`${SCHEMA_BASE}Problem`, res.body)).toBe(true);
    }
  });

  it('answers paths outside the contract with a 404 problem', async () => {
    const { app } = testApp();
    for (const path of ['/v1', '/v2/validate', '/v1/capabilities/expose/schema', '/openapi.json', '/debug']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(404);
      expect(ajv.validate(`${SCHEMA_BASE}Problem`, res.body)).toBe(true);
    }
  });

  it('answers POST /v1/validate as documented', async () => {
    const { app } = reloadable;
    const yaml = (body: string, type = 'application/yaml') => request(app).post('/v1/validate').set('Content-Type', type).send(body);
    const json = (body: string) => request(app).post('/v1/validate').set('Content-Type', 'application/json').send(body);
    for (const res of [
      await yaml(GATEWAY_PROFILE),
      await yaml(GATEWAY_PROFILE, 'text/yaml'),
      await yaml(GATEWAY_PROFILE.replace('gateway', 'gatewy'), 'application/x-yaml'),
      await yaml(REDIS_PROFILE),
      await yaml('not: valid: yaml: ['),
      await json(JSON.stringify(GATEWAY_DOCUMENT)),
      await json(
        JSON.stringify({ profile: REDIS_PROFILE.replace('redis:7', '7'), definitions: [REDIS_DEFINITION.replace('redis-sidecar', 'other'), { kind: 'x' }] }),
      ),
      await json(JSON.stringify({ profile: GATEWAY_DOCUMENT })),
      await json(JSON.stringify({ profile: GATEWAY_DOCUMENT, platform: { kubernetes: '1.30', 'gateway-api': '1.2.0' } })),
      await json(JSON.stringify({ profile: GATEWAY_PROFILE, platform: { kubernetes: 'v1.30' } })),
      await json('{"profile": 3}'),
      await yaml('kind: x', 'text/plain'),
      await yaml(`#${'x'.repeat(1024 * 1024)}`),
    ]) {
      expectDocumented('post', '/v1/validate', res);
    }
  });

  it('answers POST /v1/build as documented', async () => {
    const { app } = testApp();
    const application =
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n  - name: web\n    type: webservice\n    traits:\n    - type: expose\n';
    const build = (body: unknown) => request(app).post('/v1/build').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const valid = await build({ application, profile: GATEWAY_PROFILE });
    expect(valid.body.valid).toBe(true);
    const invalid = await build({ application: application.replace('expose', 'certificate'), profile: GATEWAY_PROFILE });
    expect(invalid.body.valid).toBe(false);
    const atPlatform = await build({ application, profile: GATEWAY_PROFILE, platform: { kubernetes: '1.29' } });
    expect(atPlatform.body.valid).toBe(true);
    const badPlatform = await build({ application, profile: GATEWAY_PROFILE, platform: { kubernetes: 1.29 } });
    expect(badPlatform.status).toBe(400);
    for (const res of [
      valid,
      invalid,
      atPlatform,
      badPlatform,
      await build({ profile: '' }),
      await request(app).post('/v1/build').set('Content-Type', 'text/yaml').send('a: 1'),
    ]) {
      expectDocumented('post', '/v1/build', res);
    }
  });

  it('answers POST /v1/admission as documented', async () => {
    const { app } = testApp();
    const kind = { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' };
    const object = {
      apiVersion: 'launcher.gokure.dev/v1alpha1',
      kind: 'ClusterProfile',
      metadata: { name: 'staging' },
      spec: { capabilities: { exposee: null, expose: { rendering: { controllerType: 'ingress' } } } },
    };
    const review = (request: Record<string, unknown>) => ({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'a1', kind, ...request },
    });
    const admit = (body: unknown) => request(app).post('/v1/admission').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const denied = await admit(review({ operation: 'CREATE', object }));
    expect(denied.body.response).toMatchObject({ allowed: false, status: { code: 422 }, warnings: [expect.stringContaining('(unknown-capability)')] });
    for (const res of [
      denied,
      await admit(review({ operation: 'DELETE', oldObject: object })),
      await admit(review({ operation: 'PATCH' })),
      await admit({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
      await request(app).post('/v1/admission').set('Content-Type', 'text/yaml').send('a: 1'),
    ]) {
      expectDocumented('post', '/v1/admission', res);
    }
  });

  it('answers POST /v1/migrate as documented', async () => {
    const { app } = testApp();
    const versioned = (version: string, property: string) =>
      REDIS_DEFINITION.replace('spec:\n', `spec:\n  version: ${version}\n`).replace('port: {type: integer, default: 6379}', property);
    const definitions = [
      versioned('1.0.0', 'port: {type: integer, default: 6379}'),
      versioned('2.0.0', 'redisPort: {type: integer, default: 6379, renamedFrom: port}'),
    ];
    const profile = REDIS_PROFILE.replace('      rendering:', '      version: "1.0.0"\n      rendering:').replace(
      'image: redis:7',
      'image: redis:7\n        port: 6380',
    );
    const migrate = (body: unknown) => request(app).post('/v1/migrate').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const migrated = await migrate({ profile, to: ['redis-sidecar@2.0.0'], definitions });
    expect(migrated.body).toMatchObject({ valid: true, changed: true, profile: profile.replace('"1.0.0"', '"2.0.0"').replace('port:', 'redisPort:') });
    const lossy = await migrate({ profile, to: ['redis-sidecar@1.0.0'], definitions: [versioned('1.0.0', 'size: {type: integer}')] });
    expect(lossy.body.valid).toBe(false);
    for (const res of [
      migrated,
      lossy,
      await migrate({ profile, to: ['redis-sidecar@1.0.0'], definitions, platform: { kubernetes: '1.30' } }),
      await migrate({ profile, to: ['redis-sidecar@3.0.0'], definitions }),
      await migrate({ profile: GATEWAY_DOCUMENT, to: ['redis-sidecar@2.0.0'] }),
      await request(app).post('/v1/migrate').set('Content-Type', 'text/yaml').send(profile),
    ]) {
      expectDocumented('post', '/v1/migrate', res);
    }
  });

  it('answers the catalogue routes as documented, for every known capability', async () => {
    const { app } = reloadable;
    const list = await request(app).get('/v1/capabilities');
    expectDocumented('get', '/v1/capabilities', list);
    const types = (list.body as { type: string }[]).map((c) => c.type);
    expect(types).toContain('redis-sidecar');
    for (const type of [...types, 'nothing-knows-this', '%'])
      expectDocumented('get', '/v1/capabilities/{type}', await request(app).get(`/v1/capabilities/${type}`));
    for (const query of ['version=1', 'version=%5E1.0.0', 'version=2', 'version=latest', 'version=1&version=2']) {
      expectDocumented('get', '/v1/capabilities/{type}', await request(app).get(`/v1/capabilities/expose?${query}`));
    }
    expectDocumented('get', '/v1/capabilities/{type}', await request(app).get('/v1/capabilities/redis-sidecar?version=1'));
    for (const query of ['platform=kubernetes=1.29', 'platform=kubernetes=1.29&platform=gateway-api=1.1', 'platform=kubernetes=v1.29', 'platform=kubernetes']) {
      expectDocumented('get', '/v1/capabilities/{type}', await request(app).get(`/v1/capabilities/expose?${query}`));
      expectDocumented('get', '/v1/schema/cluster-profile', await request(app).get(`/v1/schema/cluster-profile?${query}`));
    }
    expect((await request(app).get('/v1/capabilities/expose?platform=kubernetes')).status).toBe(400);
    expectDocumented('get', '/v1/schema/cluster-profile', await request(app).get('/v1/schema/cluster-profile'));
  });

  it('answers the console, its assets and the code explanations as documented', async () => {
    const { app } = testApp();
    const page = await request(app).get('/');
    expectDocumented('get', '/', page);
    const assets = [...page.text.matchAll(/"assets\/([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((name) => name.split('.').pop()).sort()).toEqual(['css', 'js']);
    for (const name of [...assets, 'nothing-here.js', '%zz']) expectDocumented('get', '/assets/{name}', await request(app).get(`/assets/${name}`));
    for (const code of ['yaml-syntax', 'no-such-code', 'Not_A_Code', '%E0%A4%A'])
      expectDocumented('get', '/codes/{code}', await request(app).get(`/codes/${code}`));
  });

  it('answers the operations routes as documented', async () => {
    const { app, state } = reloadable;
    expectDocumented('get', '/healthz', await request(app).get('/healthz'));
    expectDocumented('get', '/readyz', await request(app).get('/readyz'));
    expectDocumented('get', '/metrics', await request(app).get('/metrics'));
    expectDocumented('post', '/v1/reload', await postReload(app));
    expectDocumented('post', '/v1/reload', await request(app).post('/v1/reload').set('Content-Type', 'text/plain').send('x'));
    expectDocumented('post', '/v1/reload', await postReload(app).send(`{"pad": "${'x'.repeat(2048)}"}`));
    const guarded = testApp({ state: reloadable.state, adminToken: 'contract-token' });
    expectDocumented('post', '/v1/reload', await postReload(guarded.app));
    expectDocumented('post', '/v1/reload', await postReload(guarded.app).set('Authorization', 'Bearer contract-token'));
    writeFileSync(join(scratch, 'broken.yaml'), 'kind: [');
    expectDocumented('post', '/v1/reload', await postReload(app));
    expectDocumented('get', '/readyz', await request(app).get('/readyz'));
    rmSync(join(scratch, 'broken.yaml'));
    state.beginDrain();
    expectDocumented('get', '/readyz', await request(app).get('/readyz'));
  });

  it('answers header fields over 16 KiB with 431 from the HTTP server, as documented for the routes that have no other 4XX', async () => {
    const { app } = testApp();
    const big = 'x'.repeat(20 * 1024);
    for (const [template, operation] of Object.entries(spec.paths)) {
      if (!operation.get?.responses['431']) continue;
      expectDocumented('get', template, await request(app).get(template).set('X-Padding', big));
    }
    expect([...observed].filter((entry) => entry.endsWith(' 431')).sort()).toEqual(
      ['/', '/healthz', '/metrics', '/openapi.yaml', '/readyz', '/v1/capabilities'].map((template) => `get ${template} 431`),
    );
  });

  it('answers unexpected failures, time-outs and overload as documented', async () => {
    // A plugin's own failure is a plugin-error diagnostic now; a service whose state breaks is not.
    // A runner that fails: what neither the request nor a plugin explains.
    const broken = new ServiceState({
      ...inProcessRunner(createCatalogue()),
      run: () => Promise.reject(new Error('flaky')),
    });
    const failing = testApp({ state: broken });
    const profile = GATEWAY_PROFILE;
    expectDocumented('post', '/v1/validate', await request(failing.app).post('/v1/validate').set('Content-Type', 'application/yaml').send(profile));
    expectDocumented(
      'post',
      '/v1/build',
      await request(failing.app)
        .post('/v1/build')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ application: '', profile })),
    );

    // The deadline is counted on a clock the test moves: the slow request holds the one slot
    // until the overload has been seen, however loaded the machine, and only then passes it.
    vi.useFakeTimers({ toFake: ['performance'] });
    const slow = await startServer(testApp({ limits: { requestTimeoutMs: 200, maxConcurrentRequests: 1 } }), { host: '127.0.0.1', port: 0 });
    try {
      const pending = startSlowRequest(slow.url, '/v1/validate', GATEWAY_PROFILE);
      const overloaded = await retryUntil(
        () => request(slow.url).post('/v1/build').set('Content-Type', 'application/json').send('{}'),
        (res) => res.status === 503,
      );
      expectDocumented('post', '/v1/build', overloaded);
      vi.advanceTimersByTime(201);
      const timedOut = await pending.response;
      expect(timedOut.status).toBe(408);
      expectDocumented('post', '/v1/validate', { status: timedOut.status, headers: timedOut.headers as Record<string, string>, text: timedOut.body });
    } finally {
      vi.useRealTimers();
      await slow.shutdown();
    }
    expectDocumented(
      'post',
      '/v1/validate',
      await (async () => {
        const busy = await startServer(testApp({ limits: { maxConcurrentRequests: 1 } }), { host: '127.0.0.1', port: 0 });
        try {
          const pending = startSlowRequest(busy.url, '/v1/validate', GATEWAY_PROFILE);
          const res = await retryUntil(
            () => request(busy.url).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE),
            (r) => r.status === 503,
          );
          pending.finish();
          await pending.response;
          return res;
        } finally {
          await busy.shutdown();
        }
      })(),
    );
  });

  it('answers as documented while the built kurel serve is starting, every answer with its request id, and once it has started', async () => {
    // The plugin's import waits on this gate: until the test opens it, no serving process can judge.
    const held: ServerResponse[] = [];
    let opened = false;
    let knocked: () => void = () => undefined;
    const knock = new Promise<void>((resolve) => (knocked = resolve));
    const gate = createServer((_req, res) => {
      knocked();
      if (opened) res.end('open');
      else held.push(res);
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const serving = startServe(['--host', '127.0.0.1', '--port', String(port), '--processes', '1', '--plugin', GATED_PLUGIN], {
      env: { KUREL_TEST_GATE_URL: `http://127.0.0.1:${(gate.address() as AddressInfo).port}/` },
    });
    const answer = async (method: string, path: string, init: RequestInit = {}) => {
      const res = await fetch(`${url}${path}`, { method, ...init });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    };
    try {
      await knock;
      await waitFor(() => answer('GET', '/healthz').catch(() => undefined), 'the supervisor to answer');
      const json = { 'Content-Type': 'application/json' };
      const starting = {
        health: await answer('GET', '/healthz', { headers: { 'X-Request-Id': 'start-1' } }),
        readiness: await answer('GET', '/readyz'),
        metrics: await answer('GET', '/metrics'),
        validate: await answer('POST', '/v1/validate', { headers: json, body: JSON.stringify(GATEWAY_DOCUMENT) }),
        capabilities: await answer('GET', '/v1/capabilities'),
        reload: await answer('POST', '/v1/reload', { headers: json, body: '{}' }),
      };
      expect([starting.health.status, starting.health.headers['x-request-id']]).toEqual([200, 'start-1']);
      expect([starting.readiness.status, JSON.parse(starting.readiness.text)]).toEqual([503, { status: 'starting' }]);
      for (const refused of [starting.metrics, starting.validate, starting.capabilities, starting.reload]) {
        expect([refused.status, refused.headers['retry-after']]).toEqual([503, '1']);
        expect(JSON.parse(refused.text).requestId).toBe(refused.headers['x-request-id']);
      }
      expectDocumented('get', '/healthz', starting.health);
      expectDocumented('get', '/readyz', starting.readiness);
      expectDocumented('get', '/metrics', starting.metrics);
      expectDocumented('post', '/v1/validate', starting.validate);
      expectDocumented('get', '/v1/capabilities', starting.capabilities);
      expectDocumented('post', '/v1/reload', starting.reload);
      for (const path of ['/healthz', '/readyz']) {
        const head = await answer('HEAD', path, { headers: { 'X-Request-Id': `head${path.replace('/', '-')}` } });
        expect([head.status, head.headers['x-request-id'], head.text]).toEqual([path === '/healthz' ? 200 : 503, `head${path.replace('/', '-')}`, '']);
      }
      opened = true;
      for (const res of held.splice(0)) res.end('open');
      const served = await serving;
      try {
        const ready = await answer('GET', '/readyz');
        expect([ready.status, JSON.parse(ready.text).status]).toEqual([200, 'ready']);
        expectDocumented('get', '/readyz', ready);
      } finally {
        await served.stop();
      }
    } finally {
      opened = true;
      for (const res of held.splice(0)) res.end('open');
      await serving.then((s) => s.stop()).catch(() => undefined);
      await new Promise((resolve) => gate.close(resolve));
    }
  });

  it("answers the worker pool's deadline, memory limit and queue as documented, on the built kurel serve", async () => {
    const costly = (requestTimeout: string) =>
      startServe(
        ['--port', '0', '--processes', '1', '--plugin', COSTLY_PLUGIN, '--workers', '1', '--worker-memory', '64', '--request-timeout', requestTimeout],
        {
          cwd: fileURLToPath(new URL('../../', import.meta.url)),
        },
      );
    const poster = (url: string) => async (body: string) => {
      const res = await fetch(`${url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    };
    const bind = (type: string, rendering: object) => JSON.stringify({ ...GATEWAY_DOCUMENT, spec: { capabilities: { [type]: { rendering } } } });
    // The heap limit, under a deadline no machine reaches before the worker's heap runs out: on a
    // loaded machine, a shorter one could pass first and answer 503 instead.
    const roomy = await costly('600s');
    try {
      const exhausted = await poster(roomy.url)(bind('hog', {}));
      expect(exhausted.status).toBe(413);
      expectDocumented('post', '/v1/validate', exhausted);
      const declared = await new Promise<{ status: number; headers: Record<string, string>; text: string }>((resolve, reject) => {
        const req = httpRequest(
          `${roomy.url}/v1/validate`,
          { method: 'POST', headers: { 'Content-Type': 'application/yaml', 'Content-Length': 99_999_999_999 } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, text }));
          },
        );
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(declared.status).toBe(413);
      expectDocumented('post', '/v1/validate', declared);
    } finally {
      await roomy.stop();
    }
    const served = await costly('10s');
    const signals = mkdtempSync(join(tmpdir(), 'kurel-spin-'));
    try {
      const post = poster(served.url);
      // A request whose first byte comes before the spin's, and whose body is complete once the
      // spin runs, waits for the one worker's slot until its deadline passes.
      const inFlight = async () => Number(/^kurel_http_requests_in_flight (\d+)$/m.exec(await (await fetch(`${served.url}/metrics`)).text())?.[1]);
      const early = startSlowRequest(served.url, '/v1/validate', bind('spin', { ms: 0 }), { contentType: 'application/json' });
      await waitFor(async () => ((await inFlight()) >= 2 ? true : undefined), 'the early request to be in flight');
      const started = join(signals, 'started');
      const running = post(bind('spin', { ms: 600_000, started }));
      // The spin has the one worker's slot once its worker has begun it.
      await waitFor(() => (existsSync(started) ? true : undefined), 'the spin to run in the worker');
      early.finish();
      const wire = await early.response;
      const queued = { status: wire.status, headers: wire.headers as Record<string, string>, text: wire.body };
      expect([queued.status, queued.headers['retry-after']]).toEqual([503, '1']);
      expectDocumented('post', '/v1/validate', queued);
      const cancelled = await running;
      expect([cancelled.status, cancelled.headers['retry-after']]).toEqual([503, undefined]);
      expectDocumented('post', '/v1/validate', cancelled);
    } finally {
      await served.stop();
      rmSync(signals, { recursive: true, force: true });
    }
  });

  it('has answered every documented success response, and every documented status somewhere', () => {
    const documented = Object.entries(spec.paths).flatMap(([template, item]) =>
      Object.entries(item).flatMap(([method, operation]) => Object.keys(operation.responses).map((status) => `${method} ${template} ${status}`)),
    );
    const successes = documented.filter((entry) => / 2\d\d$/.test(entry));
    expect(successes.filter((entry) => !observed.has(entry))).toEqual([]);
    const statuses = (entries: Iterable<string>) => [...new Set([...entries].map((entry) => entry.split(' ')[2]))].sort();
    expect(statuses(observed)).toEqual(statuses(documented));
    expect(documented.filter((entry) => entry.startsWith('post /v1/validate ') && !observed.has(entry))).toEqual([]);
  });
});

/** The schema with references into `#/components/schemas/` pointed at the schemas added to ajv. */
function localRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMA_BASE}`)) as object;
}

function resolveResponse(response: ResponseSpec | { $ref: string } | undefined): ResponseSpec | undefined {
  if (response && '$ref' in response) return spec.components.responses[response.$ref.replace('#/components/responses/', '')];
  return response;
}

/** Repeats `attempt` until `done` holds of its value: a condition waited for, bounded by waitFor's generous deadline, not by a count a loaded machine can exhaust. */
async function retryUntil<T>(attempt: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return waitFor(async () => {
    const value = await attempt();
    return done(value) ? { value } : undefined;
  }, 'the condition').then(({ value }) => value);
}

/** A port no one listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
