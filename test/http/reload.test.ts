import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Catalogue, createCatalogue } from '../../src/catalogue/catalogue.js';
import { loadDefinitionFiles } from '../../src/catalogue/load-catalogue.js';
import { fileDiagnostic } from '../../src/core/diagnostics.js';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { HttpProblem } from '../../src/http/problem.js';
import { reloadAccess } from '../../src/http/reload-access.js';
import { startServer } from '../../src/http/server.js';
import { ServiceState } from '../../src/http/service-state.js';
import { inProcessRunner } from '../../src/http/work/in-process.js';
import type { EveryWorker, TaskRunner } from '../../src/http/work/task.js';
import { waitFor } from '../helpers/serve.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE, sleep, startSlowRequest, testApp } from './support.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-reload-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function startState(): Promise<ServiceState> {
  const state = await ServiceState.start(await prepareCatalogueLoader({ definitionDirs: [dir], plugins: [], cwd: dir }));
  if (!(state instanceof ServiceState)) throw new Error(`the definitions did not load: ${JSON.stringify(state.diagnostics)}`);
  return state;
}

const validate = (app: Parameters<typeof request>[0], body: string) => request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(body);
/** `POST /v1/reload` as a loopback caller sends it: the JSON media type is required. */
const postReload = (app: Parameters<typeof request>[0]) => request(app).post('/v1/reload').set('Content-Type', 'application/json');
const PORT_PROFILE = REDIS_PROFILE.replace('image: redis:7', 'image: redis:7\n        port: "6380"');

describe('reloading definitions', () => {
  it('swaps in the new definitions after a good reload', async () => {
    const { app, log } = testApp({ state: await startState() });
    const before = await validate(app, REDIS_PROFILE);
    expect(before.body.diagnostics.map((d: { code: string }) => d.code)).toEqual(['unknown-capability']);

    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const reload = await postReload(app);
    expect(reload.status).toBe(200);
    expect(reload.body).toMatchObject({ reloaded: true, ok: true, definitions: 1, diagnostics: [] });

    const after = await validate(app, REDIS_PROFILE);
    expect(after.body).toEqual({
      valid: true,
      diagnostics: [],
      resolved: { gitopsEngine: 'fluxcd', capabilities: { 'redis-sidecar': { image: 'redis:7', port: 6379 } }, versions: {} },
    });
    const ready = await request(app).get('/readyz');
    expect(ready.body).toMatchObject({ status: 'ready', registry: { definitions: 1 }, lastReload: { ok: true, definitions: 1 } });
    expect(log.lines.find((l) => l['msg'] === 'definitions reloaded')).toMatchObject({ definitions: 1 });
  });

  it('keeps the old definitions in service after a failed reload, and says why in the answer, /readyz, the log and /metrics', async () => {
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const { app, log } = testApp({ state: await startState() });
    const loadedAt = (await request(app).get('/readyz')).body.registry.loadedAt as string;

    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION.replace('port: {type: integer, default: 6379}', 'port: {type: string}'));
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [CapabilityDefinition\n');
    const reload = await postReload(app);
    expect(reload.status).toBe(200);
    expect(reload.body).toMatchObject({ reloaded: false, ok: false, definitions: 1 });
    expect(reload.body.diagnostics.map((d: { code: string; file: string; line: number }) => [d.code, d.file, d.line])).toEqual([
      ['yaml-syntax', join(dir, 'broken.yaml'), 1],
    ]);

    // The old definition still judges: port is an integer, not the string the new file allows.
    const judged = await validate(app, PORT_PROFILE);
    expect(judged.body.diagnostics.map((d: { code: string; path: string }) => [d.code, d.path])).toEqual([
      ['wrong-type', '/spec/capabilities/redis-sidecar/rendering/port'],
    ]);

    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', registry: { loadedAt, definitions: 1 }, lastReload: { ok: false, definitions: 1 } });
    expect(ready.body.lastReload.diagnostics).toEqual(reload.body.diagnostics);

    const failure = log.lines.find((l) => l['msg'] === 'reload failed: the previous definitions stay in service');
    expect(failure?.['level']).toBe(50);
    expect(failure?.['errors']).toEqual([`${join(dir, 'broken.yaml')}:1:7 error yaml-syntax ${reload.body.diagnostics[0].message}`]);

    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toContain('kurel_registry_last_reload_success 0');
    expect(metrics).toContain('kurel_registry_reloads_total{result="failure"} 1');
    expect(metrics).toContain('kurel_registry_reloads_total{result="success"} 0');
    expect(metrics).toContain('kurel_definitions_loaded 1');
  });

  it('recovers with the next good reload after a failed one', async () => {
    const { app } = testApp({ state: await startState() });
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [');
    expect((await postReload(app)).body.reloaded).toBe(false);
    rmSync(join(dir, 'broken.yaml'));
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    expect((await postReload(app)).body.reloaded).toBe(true);
    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toContain('kurel_registry_last_reload_success 1');
    expect(metrics).toContain('kurel_registry_reloads_total{result="failure"} 1');
    expect(metrics).toContain('kurel_registry_reloads_total{result="success"} 1');
    expect((await request(app).get('/readyz')).body.lastReload).toMatchObject({ ok: true, definitions: 1, diagnostics: [] });
  });

  it('refuses a definition conflict at reload as it would at start', async () => {
    writeFileSync(join(dir, 'a.yaml'), REDIS_DEFINITION);
    const { app } = testApp({ state: await startState() });
    writeFileSync(join(dir, 'b.yaml'), REDIS_DEFINITION.replace('default: 6379', 'default: 6380'));
    const reload = await postReload(app);
    expect(reload.body.reloaded).toBe(false);
    expect(reload.body.diagnostics.map((d: { code: string; file: string }) => [d.code, d.file])).toEqual([['definition-conflict', join(dir, 'b.yaml')]]);
  });

  it('runs reloads one at a time, each reading the files afresh', async () => {
    const state = await startState();
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const first = state.reload();
    const second = state.reload();
    expect((await first).ok).toBe(true);
    expect((await second).definitions).toBe(1);
    expect(state.lastReload).toBe(await second);
  });

  it('refuses to start when the definitions have errors', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [');
    const started = await ServiceState.start(await prepareCatalogueLoader({ definitionDirs: [dir], plugins: [], cwd: dir }));
    expect(started).toMatchObject({ ok: false });
    expect(started instanceof ServiceState).toBe(false);
  });

  it('answers validations with the registry in service while a reload runs', async () => {
    const state = await startState();
    const { app } = testApp({ state });
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const reloading = state.reload();
    const during = await validate(app, GATEWAY_PROFILE);
    expect(during.body.valid).toBe(true);
    await reloading;
    expect(state.registry.definitions).toBe(1);
  });
});

describe('reload access (docs/service.md)', () => {
  const problemOf = (res: { status: number; body: Record<string, unknown>; headers: Record<string, string> }) => ({ status: res.status, body: res.body });

  it('needs the admin token when the service has one, from loopback too', async () => {
    const { app } = testApp({ state: await startState(), adminToken: 's3cret-token' });
    const missing = await postReload(app);
    expect(problemOf(missing)).toEqual({
      status: 403,
      body: {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'reloading needs the admin token: send Authorization: Bearer <token>, the token in --admin-token-file',
        requestId: missing.headers['x-request-id'],
      },
    });
    const wrong = await postReload(app).set('Authorization', 'Bearer s3cret-tokeN');
    expect(problemOf(wrong)).toEqual({
      status: 403,
      body: {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'the bearer token is not the admin token in --admin-token-file',
        requestId: wrong.headers['x-request-id'],
      },
    });
    expect((await postReload(app).set('Authorization', 'Basic s3cret-token')).status).toBe(403);
    const right = await postReload(app).set('Authorization', 'Bearer s3cret-token');
    expect(right.status).toBe(200);
    expect(right.body.reloaded).toBe(true);
  });

  it('lets only loopback callers reload when the service has no token', () => {
    const handler = reloadAccess(undefined);
    const call = (remoteAddress: string | undefined) => {
      let passed = false;
      const req = { headers: {}, socket: { remoteAddress } } as unknown as Request;
      try {
        handler(req, {} as Response, () => {
          passed = true;
        });
        return passed ? 'passed' : 'stopped';
      } catch (err) {
        return err instanceof HttpProblem ? `${err.status} ${err.detail}` : 'threw';
      }
    };
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].map(call)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(call('10.0.0.7')).toBe(
      '403 reloading is open to loopback callers only, and this request came from 10.0.0.7; give kurel serve --admin-token-file to reload from elsewhere',
    );
    expect(['::ffff:10.0.0.7', 'fe80::1', '0.0.0.0', '128.0.0.1', undefined].map((a) => call(a).slice(0, 3))).toEqual(['403', '403', '403', '403', '403']);
  });

  it('requires the JSON media type, which a browser cannot send to another origin without asking first', async () => {
    const { app } = testApp({ state: await startState() });
    const plain = await request(app).post('/v1/reload').set('Content-Type', 'text/plain').send('{}');
    expect([plain.status, plain.body.detail]).toEqual([415, 'media type "text/plain" is not accepted here; expected one of application/json']);
    const none = await request(app).post('/v1/reload');
    expect([none.status, none.body.detail]).toEqual([415, 'the request has no Content-Type; expected one of application/json']);
    expect((await postReload(app).send('{}')).status).toBe(200);
  });

  it('takes no admission slot: a service at its limit still reloads', async () => {
    const kurel = testApp({ state: await startState(), limits: { maxConcurrentRequests: 1 } });
    const server = await startServer(kurel, { host: '127.0.0.1', port: 0 });
    try {
      const slow = startSlowRequest(server.url, '/v1/validate', GATEWAY_PROFILE);
      // Admitted once the service counts it in flight (with the metrics request asking): waited for, not slept on.
      await waitFor(async () => {
        const metrics = (await request(server.url).get('/metrics')).text;
        return Number(/^kurel_http_requests_in_flight (\d+)$/m.exec(metrics)?.[1]) >= 2 ? true : undefined;
      }, 'the slow request to be admitted');
      expect((await validate(server.url, GATEWAY_PROFILE)).status).toBe(503);
      const reload = await postReload(server.url);
      expect([reload.status, reload.body.reloaded]).toEqual([200, true]);
      slow.finish();
      expect((await slow.response).status).toBe(200);
    } finally {
      await server.shutdown();
    }
  });

  it('coalesces concurrent reloads: one running and one waiting, whatever the number of callers', async () => {
    let loads = 0;
    const inner = await prepareCatalogueLoader({ definitionDirs: [dir], plugins: [], cwd: dir });
    const loader = async () => {
      loads += 1;
      await sleep(50);
      return inner();
    };
    const started = await ServiceState.start(loader);
    if (!(started instanceof ServiceState)) throw new Error('the definitions did not load');
    const first = started.reload();
    const rest = Array.from({ length: 19 }, () => started.reload());
    // Every caller during the first reload shares the one that waits for it.
    expect(new Set(rest).size).toBe(1);
    const records = await Promise.all([first, ...rest]);
    expect(loads).toBe(1 + 2);
    expect(records.map((r) => r.ok)).toEqual(Array(20).fill(true));
    // Once both are over, the next caller starts a reload of its own.
    await started.reload();
    expect(loads).toBe(1 + 3);
  });
});

/** A runner judging with `catalogue` whose workers have all loaded once `ready` settles; `closed` tells whether it was closed. */
function runnerLoadingUntil(catalogue: Catalogue, ready: Promise<EveryWorker>): TaskRunner & { closed: boolean } {
  const runner = { ...inProcessRunner(catalogue), ready, closed: false };
  runner.close = async () => {
    runner.closed = true;
  };
  return runner;
}

/** A promise and the function that settles it. */
function pending<T>(): { promise: Promise<T>; settle(value: T): void } {
  let settle: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

describe('readiness follows every worker (docs/service.md)', () => {
  it('answers requests while workers still load at start, but reports 503 starting until every one has loaded', async () => {
    const every = pending<EveryWorker>();
    const { app } = testApp({ state: new ServiceState(runnerLoadingUntil(createCatalogue(), every.promise)) });
    const starting = await request(app).get('/readyz');
    expect([starting.status, starting.body.status]).toEqual([503, 'starting']);
    expect((await validate(app, GATEWAY_PROFILE)).body).toMatchObject({ valid: true });
    every.settle({ ok: true });
    const ready = await request(app).get('/readyz');
    expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
  });

  it('stays 503 starting when a worker could not load at start', async () => {
    const every = pending<EveryWorker>();
    const state = new ServiceState(runnerLoadingUntil(createCatalogue(), every.promise));
    const { app } = testApp({ state });
    every.settle({ ok: false, diagnostics: [fileDiagnostic('<worker>', 'usage', 'a worker thread failed while loading: boom')] });
    expect(await state.whenStarted()).toMatchObject({ ok: false });
    const answer = await request(app).get('/readyz');
    expect([answer.status, answer.body.status]).toEqual([503, 'starting']);
  });

  it('puts a reloaded runner in service only once every one of its workers has loaded', async () => {
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const every = pending<EveryWorker>();
    const next = runnerLoadingUntil((await loadCatalogue()).catalogue, every.promise);
    const state = new ServiceState(inProcessRunner(createCatalogue()), async () => ({ ok: true, runner: next, diagnostics: [] }));
    const { app } = testApp({ state });
    let reloaded = false;
    const reload = state.reload().then((record) => {
      reloaded = true;
      return record;
    });
    await sleep(50);
    expect(reloaded).toBe(false);
    expect((await request(app).get('/readyz')).body).toMatchObject({ status: 'ready', registry: { definitions: 0 } });
    every.settle({ ok: true });
    expect(await reload).toMatchObject({ ok: true, definitions: 1 });
    expect((await request(app).get('/readyz')).body).toMatchObject({ status: 'ready', registry: { definitions: 1 } });
  });

  it('refuses a reload when one of the new workers cannot load, closes it, and keeps the previous runner ready', async () => {
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const failure = fileDiagnostic('<worker>', 'usage', 'a worker thread failed while loading: boom');
    const next = runnerLoadingUntil((await loadCatalogue()).catalogue, Promise.resolve({ ok: false, diagnostics: [failure] }));
    const state = new ServiceState(inProcessRunner(createCatalogue()), async () => ({ ok: true, runner: next, diagnostics: [] }));
    const { app } = testApp({ state });
    expect(await state.reload()).toMatchObject({ ok: false, definitions: 0, diagnostics: [failure] });
    expect(next.closed).toBe(true);
    const ready = await request(app).get('/readyz');
    expect([ready.status, ready.body.status, ready.body.registry.definitions]).toEqual([200, 'ready', 0]);
  });
});

/** The built-ins and the definitions of `dir`. */
function loadCatalogue(): ReturnType<typeof loadDefinitionFiles> {
  return loadDefinitionFiles(createCatalogue(), { definitionDirs: [dir] });
}
