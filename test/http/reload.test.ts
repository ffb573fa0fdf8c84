import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { ServiceState } from '../../src/http/service-state.js';
import { GATEWAY_PROFILE, REDIS_DEFINITION, REDIS_PROFILE, testApp } from './support.js';

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
const PORT_PROFILE = REDIS_PROFILE.replace('image: redis:7', 'image: redis:7\n        port: "6380"');

describe('reloading definitions', () => {
  it('swaps in the new definitions after a good reload', async () => {
    const { app, log } = testApp({ state: await startState() });
    const before = await validate(app, REDIS_PROFILE);
    expect(before.body.diagnostics.map((d: { code: string }) => d.code)).toEqual(['unknown-capability']);

    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    const reload = await request(app).post('/v1/reload');
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
    const reload = await request(app).post('/v1/reload');
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
    expect((await request(app).post('/v1/reload')).body.reloaded).toBe(false);
    rmSync(join(dir, 'broken.yaml'));
    writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
    expect((await request(app).post('/v1/reload')).body.reloaded).toBe(true);
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
    const reload = await request(app).post('/v1/reload');
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
    expect(state.catalogue.definition('redis-sidecar')).toBeDefined();
  });
});
