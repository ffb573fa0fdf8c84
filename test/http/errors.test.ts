import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import { waitFor } from '../helpers/serve.js';
import { GATEWAY_DOCUMENT, GATEWAY_PROFILE, startSlowRequest, testApp } from './support.js';

const MIB = 1024 * 1024;
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.shutdown()));
});

function expectProblem(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(res.body).toMatchObject({ type: 'about:blank', status, requestId: res.headers['x-request-id'] });
  expect(typeof res.body['title']).toBe('string');
  expect(typeof res.body['detail']).toBe('string');
}

describe('request errors are RFC 9457 problems', () => {
  it.each([
    ['a body that is not JSON', '{"profile": ', 'the request body is not valid JSON: '],
    ['an empty body', '', 'the request body is empty; expected a JSON document'],
    ['an envelope whose profile is a number', '{"profile": 1}', '"profile" must be a YAML text or an object, found a number'],
    [
      'an envelope with an unknown member',
      '{"profile": "", "definition": []}',
      'unknown member "definition" in the request body; expected profile, definitions',
    ],
    [
      'an envelope whose definitions are not a list',
      '{"profile": "", "definitions": "x"}',
      '"definitions" must be a list of YAML texts or objects, found a string',
    ],
    [
      'an envelope with a definition that is a number',
      '{"profile": "", "definitions": ["", 2]}',
      '"definitions[1]" must be a YAML text or an object, found a number',
    ],
    [
      'an envelope repeating a member name',
      '{"profile": {"kind": "a", "kind": "b"}}',
      'an object in the request body repeats a member name; every name must be unique',
    ],
    ['an envelope nesting too deep', `{"profile": {"a": ${'['.repeat(200)}${']'.repeat(200)}}}`, 'the request body nests deeper than 128 levels'],
  ])('answers 400 to validate %s', async (_name, body, detail) => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(body);
    expectProblem(res, 400);
    expect(res.body.detail.startsWith(detail)).toBe(true);
  });

  it.each([
    ['JSON', 'application/json', [0x7b, 0xff, 0x7d]],
    ['YAML', 'application/yaml', [...Buffer.from('kind: ClusterProfile\nmetadata:\n  name: caf'), 0xe9, 0x0a]],
    ['YAML with a UTF-16 byte order mark', 'text/yaml', [0xff, 0xfe, 0x6b, 0x00]],
  ])('answers 400 to a %s body that is not UTF-8', async (_name, type, bytes) => {
    const server = await startServer(testApp(), { host: '127.0.0.1', port: 0 });
    running.push(server);
    const res = await fetch(`${server.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': type }, body: new Uint8Array(bytes) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, detail: 'the request body is not valid UTF-8' });
  });

  it.each([
    ['a list', '[]', 'the request body must be a JSON object with members application, profile, definitions, platform'],
    ['an envelope without application', '{"profile": ""}', 'the request body has no "application" member'],
  ])('answers 400 to build %s', async (_name, body, detail) => {
    const { app } = testApp();
    const res = await request(app).post('/v1/build').set('Content-Type', 'application/json').send(body);
    expectProblem(res, 400);
    expect(res.body.detail).toBe(detail);
  });

  // `/` is the web console (docs/console.md); the paths around it are not routes.
  it.each(['/v1/nothing', '/HEALTHZ', '/healthz/', '/v1/validate/extra', '/index.html', '/assets/', '/codes/'])('answers 404 to %s', async (path) => {
    const { app } = testApp();
    const res = await request(app).get(path);
    expectProblem(res, 404);
  });

  it('answers 404 to a capability type nothing knows', async () => {
    const { app } = testApp();
    const res = await request(app).get('/v1/capabilities/exposse');
    expectProblem(res, 404);
    expect(res.body.detail).toBe('no handler or definition knows the capability type "exposse"');
  });

  it.each([
    ['GET', '/v1/validate', 'POST'],
    ['PUT', '/v1/validate', 'POST'],
    ['DELETE', '/v1/build', 'POST'],
    ['POST', '/v1/capabilities', 'GET, HEAD'],
    ['PATCH', '/v1/capabilities/expose', 'GET, HEAD'],
    ['POST', '/v1/schema/cluster-profile', 'GET, HEAD'],
    ['GET', '/v1/reload', 'POST'],
    ['POST', '/healthz', 'GET, HEAD'],
    ['DELETE', '/readyz', 'GET, HEAD'],
    ['PUT', '/metrics', 'GET, HEAD'],
    ['OPTIONS', '/openapi.yaml', 'GET, HEAD'],
  ])('answers 405 to %s %s with Allow: %s', async (method, path, allow) => {
    const { app } = testApp();
    const res = await request(app)[method.toLowerCase() as 'get'](path);
    expectProblem(res, 405);
    expect(res.headers['allow']).toBe(allow);
  });

  it('answers 413 to a body one byte over the 1 MiB limit, and takes a body of exactly 1 MiB', async () => {
    const { app } = testApp();
    const over = await request(app)
      .post('/v1/validate')
      .set('Content-Type', 'application/yaml')
      .send(`#${'x'.repeat(MIB)}`);
    expectProblem(over, 413);
    expect(over.body).toMatchObject({ limitBytes: MIB, detail: 'the request body is larger than the limit of 1048576 bytes' });
    const at = await request(app)
      .post('/v1/validate')
      .set('Content-Type', 'application/yaml')
      .send(`#${'x'.repeat(MIB - 1)}`);
    expect(at.status).toBe(200);
  });

  it('answers 413 at once, before any byte of the body, to a declared Content-Length over the limit, and closes the connection', async () => {
    const server = await startServer(testApp(), { host: '127.0.0.1', port: 0 });
    running.push(server);
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Only the head: were the server to wait for the body, the connection would stay open.
    socket.write('POST /v1/validate HTTP/1.1\r\nHost: kurel\r\nContent-Type: application/yaml\r\nContent-Length: 99999999999\r\n\r\n');
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(head).toContain('\r\nConnection: close\r\n');
    const requestId = /\r\nX-Request-Id: ([^\r]+)/.exec(head)?.[1];
    expect(JSON.parse(body)).toEqual({
      type: 'about:blank',
      title: 'Content Too Large',
      status: 413,
      detail: 'the request body is larger than the limit of 1048576 bytes',
      limitBytes: MIB,
      requestId,
    });
  });

  it('answers 400 to a path with a malformed percent escape, logged at info without a stack', async () => {
    const { app, log } = testApp();
    const res = await request(app).get('/v1/capabilities/%');
    expectProblem(res, 400);
    expect(res.body.detail).toBe('the path "/v1/capabilities/%" holds a malformed percent escape');
    expect(log.lines.filter((l) => (l['level'] as number) >= 50)).toEqual([]);
    expect(log.lines.find((l) => l['requestId'] === res.headers['x-request-id'])).toMatchObject({ level: 30, status: 400 });
  });

  it('decodes a gzip body, and answers 413 when it inflates beyond the limit', async () => {
    const { app } = testApp();
    const small = await request(app)
      .post('/v1/validate')
      .set('Content-Type', 'application/yaml')
      .set('Content-Encoding', 'gzip')
      .send(gzipSync(GATEWAY_PROFILE));
    expect(small.status).toBe(200);
    expect(small.body.valid).toBe(true);
    const bomb = gzipSync(`#${'x'.repeat(4 * MIB)}`);
    expect(bomb.length).toBeLessThan(MIB / 100);
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').set('Content-Encoding', 'gzip').send(bomb);
    expectProblem(res, 413);
  });

  it('answers 413 to a build body over the limit', async () => {
    const { app } = testApp();
    const res = await request(app)
      .post('/v1/build')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ profile: 'x'.repeat(MIB), application: '' }));
    expectProblem(res, 413);
  });

  it.each([
    ['validate', 'text/plain', '/v1/validate'],
    ['validate', 'application/xml', '/v1/validate'],
    ['validate', 'application/json; charset=iso-8859-1', '/v1/validate'],
    ['build', 'application/yaml', '/v1/build'],
  ])('answers 415 to %s sent as %s', async (_name, type, path) => {
    const { app } = testApp();
    const res = await request(app).post(path).set('Content-Type', type).send('{}');
    expectProblem(res, 415);
  });

  it('answers 415 to a body without a Content-Type', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').send(Buffer.from('kind: x'));
    expectProblem(res, 415);
    expect(res.body.detail).toBe('the request has no Content-Type; expected one of application/json, application/yaml, application/x-yaml, text/yaml');
  });

  it('answers 415 to a Content-Encoding it cannot decode', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').set('Content-Encoding', 'compress').send('kind: x');
    expectProblem(res, 415);
  });

  it.each([
    ['YAML', 'application/yaml'],
    ['JSON', 'application/json'],
  ])('answers 200 with a plugin-error when a plugin throws while checking a %s profile (issue 16, defect 3)', async (_name, type) => {
    const catalogue = createCatalogue().withHandlers([
      {
        source: 'plugin:./flaky.mjs',
        handler: {
          type: 'flaky',
          description: 'a plugin whose check throws',
          capabilityAware: true,
          capabilityRequired: false,
          renderingSchema: { type: 'object' },
          validateAndApplyDefaults() {
            throw new Error('flaky exploded');
          },
        },
      },
    ]);
    const { app } = testApp({ catalogue });
    const document = { ...GATEWAY_DOCUMENT, spec: { capabilities: { flaky: { rendering: {} } } } };
    const body = type === 'application/json' ? JSON.stringify(document) : GATEWAY_PROFILE.replace(/expose:[\s\S]*$/, 'flaky:\n      rendering: {}\n');
    const res = await request(app).post('/v1/validate').set('Content-Type', type).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: false,
      resolved: null,
      diagnostics: [
        {
          code: 'plugin-error',
          severity: 'error',
          file: 'request',
          message: 'capability "flaky": plugin ./flaky.mjs: validateAndApplyDefaults threw Error: flaky exploded',
        },
      ],
    });
  });

  it('answers 500 without a stack trace on an unexpected failure, and logs the stack', async () => {
    // A runner that fails: what neither the request nor a plugin explains.
    const broken = new ServiceState({
      ...inProcessRunner(createCatalogue()),
      run: () => Promise.reject(new Error('flaky exploded')),
    });
    const { app, log } = testApp({ state: broken });
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE);
    expectProblem(res, 500);
    expect(res.body.detail).toBe('an unexpected error occurred; the server log has the details under this request id');
    expect(res.text).not.toContain('flaky exploded');
    expect(res.text).not.toMatch(/\bat .*:\d+:\d+/);
    const failure = log.lines.find((line) => line['msg'] === 'unexpected failure');
    expect(failure?.['requestId']).toBe(res.headers['x-request-id']);
    expect((failure?.['err'] as { stack: string } | undefined)?.stack).toContain('flaky exploded');
    const health = await request(app).get('/healthz');
    expect(health.status).toBe(200);
  });

  it('answers 408 and closes the connection when a body does not arrive within the time limit', async () => {
    const kurel = testApp({ limits: { requestTimeoutMs: 300 } });
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    running.push(server);
    const slow = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
    const res = await slow.response;
    expect(res.status).toBe(408);
    expect(res.headers['connection']).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ status: 408, limitMs: 300, detail: 'the request was not complete within the time limit of 300 ms' });
  });

  it('answers 503 with Retry-After beyond the concurrency limit, and still answers probes', async () => {
    const kurel = testApp({ limits: { maxConcurrentRequests: 1 } });
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    running.push(server);
    const slow = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
    await waitForInFlight(server.url, 2);
    const refused = await request(server.url).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE);
    expectProblem(refused, 503);
    expect(refused.headers['retry-after']).toBe('1');
    // Overload is the client's load, not a fault of the service: warn, under the route it asked for.
    // The access line is written once the answer has been sent: waited for, not slept on.
    const logged = await waitFor(
      () => kurel.log.lines.find((l) => l['requestId'] === refused.headers['x-request-id']),
      'the access line of the refused request',
    );
    expect(logged).toMatchObject({ level: 40, route: '/v1/validate', status: 503 });
    expect((await request(server.url).get('/metrics')).text).toContain('kurel_http_requests_total{method="POST",route="/v1/validate",status="503"} 1');
    // Every route that reads documents or the catalogue shares the one limit.
    const others = [
      request(server.url).post('/v1/build').set('Content-Type', 'application/json').send('{}'),
      request(server.url).post('/v1/migrate').set('Content-Type', 'application/json').send('{}'),
      request(server.url).get('/v1/capabilities'),
      request(server.url).get('/v1/capabilities/expose'),
      request(server.url).get('/v1/schema/cluster-profile'),
    ];
    expect((await Promise.all(others)).map((r) => [r.status, r.headers['retry-after']])).toEqual(Array(5).fill([503, '1']));
    expect((await request(server.url).get('/healthz')).status).toBe(200);
    expect((await request(server.url).get('/readyz')).status).toBe(200);
    slow.finish();
    expect((await slow.response).status).toBe(200);
    const after = await request(server.url).post('/v1/validate').set('Content-Type', 'application/yaml').send(GATEWAY_PROFILE);
    expect(after.status).toBe(200);
  });

  it('echoes a client request id that is a plain token and replaces any other', async () => {
    const { app } = testApp();
    const given = await request(app).get('/v1/nothing').set('X-Request-Id', 'portal-42.a:b');
    expect(given.headers['x-request-id']).toBe('portal-42.a:b');
    expect(given.body.requestId).toBe('portal-42.a:b');
    const replaced = await request(app).get('/healthz').set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('hostile bodies', () => {
  const POLLUTERS = `"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": {"polluted": "yes"}`;

  afterEach(() => {
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('reports __proto__, constructor and prototype keys of a JSON profile as unknown fields without touching a prototype', async () => {
    const { app } = testApp();
    const body = JSON.stringify(GATEWAY_DOCUMENT).replace(/^\{/, `{${POLLUTERS}, `);
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map((d: { code: string; path: string }) => [d.code, d.path])).toEqual([
      ['unknown-field', '/__proto__'],
      ['unknown-field', '/constructor'],
      ['unknown-field', '/prototype'],
    ]);
  });

  it('keeps __proto__ and constructor as plain data in an open rendering, from YAML and from JSON alike', async () => {
    const { app } = testApp();
    const yaml = `${GATEWAY_PROFILE}    ingress:\n      rendering:\n        __proto__: {polluted: yes}\n        constructor: {prototype: {polluted: yes}}\n`;
    const fromYaml = await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(yaml);
    const document = JSON.parse(JSON.stringify(GATEWAY_DOCUMENT)) as { spec: { capabilities: Record<string, unknown> } };
    const body = JSON.stringify(document).replace('"capabilities":{', `"capabilities":{"ingress":{"rendering":{${POLLUTERS}}},`);
    const fromJson = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(body);
    expect(fromYaml.body.valid).toBe(true);
    expect(fromJson.body.valid).toBe(true);
    expect(fromYaml.text).toContain('"ingress":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}');
    expect(fromJson.text).toContain(`"ingress":{${POLLUTERS.replace(/ /g, '')}}`);
  });

  it('refuses an envelope with a __proto__ member as an unknown member', async () => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', 'application/json').send(`{"__proto__": {"polluted": "yes"}, "profile": ""}`);
    expectProblem(res, 400);
    expect(res.body.detail).toBe('unknown member "__proto__" in the request body; expected profile, definitions, platform');
  });

  it.each([
    ['JSON nested 100,000 deep', 'application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'too-deep'],
    ['YAML nested 10,000 deep', 'application/yaml', `a: ${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'too-deep'],
    [
      'a YAML alias bomb',
      'application/yaml',
      ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join(
        '\n',
      ),
      'alias-limit',
    ],
  ])('answers %s with a diagnostic, and keeps serving', async (_name, type, body, code) => {
    const { app } = testApp();
    const res = await request(app).post('/v1/validate').set('Content-Type', type).send(body);
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map((d: { code: string }) => d.code)).toContain(code);
    expect((await request(app).get('/healthz')).status).toBe(200);
  });
});

/** Waits until the service counts `count` requests in flight (the metrics request included), however slow the machine. */
async function waitForInFlight(url: string, count: number): Promise<void> {
  await waitFor(async () => {
    const metrics = await request(url).get('/metrics');
    const match = /^kurel_http_requests_in_flight (\d+)$/m.exec(metrics.text);
    return match && Number(match[1]) >= count ? true : undefined;
  }, `${count} requests in flight`);
}
