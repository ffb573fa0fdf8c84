import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { loadDefinitionFiles } from '../../src/catalogue/load-catalogue.js';
import { registryDigest, registryLines } from '../../src/catalogue/registry-digest.js';
import { writeLockText } from '../../src/documents/capability-lock.js';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { ServiceState } from '../../src/http/service-state.js';
import { planLock } from '../../src/operations/lock.js';
import { spawnKurel } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';
import { startServe } from '../helpers/serve.js';
import { lintWith, profileText } from '../versions/helpers.js';
import { testApp } from './support.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/versioned/', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-http-versions-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const definitionsDir = () => join(dir, 'definitions');
const lockfile = () => ({ path: join(dir, 'kurel.lock.yaml'), display: 'kurel.lock.yaml' });

async function serve(options: { lock?: boolean; requirePinned?: boolean } = {}) {
  const state = await ServiceState.start(
    await prepareCatalogueLoader({ definitionDirs: [definitionsDir()], plugins: [], cwd: dir, ...(options.lock ? { lockfile: lockfile() } : {}) }),
  );
  if (!(state instanceof ServiceState)) throw new Error(`refused: ${JSON.stringify(state.diagnostics)}`);
  return testApp({ state, ...(options.requirePinned ? { requirePinned: true } : {}) });
}

/** Locks the fixture's partial profile (redis-sidecar pinned "1": 1.1.0) in kurel.lock.yaml. */
function writeLock(): void {
  const files = Object.fromEntries(
    ['1.0.0', '1.1.0', '2.0.0-rc.1'].map((v) => [
      `definitions/redis-sidecar-${v}.yaml`,
      readFileSync(join(dir, `definitions/redis-sidecar-${v}.yaml`), 'utf8'),
    ]),
  );
  const report = lintWith(files, { 'clusters/partial.yaml': readFileSync(join(dir, 'clusters/partial.yaml'), 'utf8') });
  const plan = planLock(report.profiles, report.catalogue, undefined, { keyOf: (file) => file, exists: () => true });
  writeFileSync(lockfile().path, writeLockText(plan.lock));
}

const validate = (app: Parameters<typeof request>[0], body: unknown) =>
  request(app).post('/v1/validate').set('Content-Type', 'application/json').send(JSON.stringify(body));

describe('versions over HTTP (docs/service.md)', () => {
  it('lists each capability’s versions and latest', async () => {
    const { app } = await serve();
    const res = await request(app).get('/v1/capabilities');
    const redis = res.body.find((c: { type: string }) => c.type === 'redis-sidecar');
    expect(redis.versions.map((v: { version: string; file: string }) => [v.version, v.file.replace(`${dir}/`, '')])).toEqual([
      ['1.0.0', 'definitions/redis-sidecar-1.0.0.yaml'],
      ['1.1.0', 'definitions/redis-sidecar-1.1.0.yaml'],
      ['2.0.0-rc.1', 'definitions/redis-sidecar-2.0.0-rc.1.yaml'],
    ]);
    expect(redis.latest).toBe('1.1.0');
    expect(res.body.find((c: { type: string }) => c.type === 'expose')).toMatchObject({
      versions: [],
      latest: null,
      handlerVersion: '1.0.0',
    });
  });

  it('answers the schema of the version ?version= resolves to, from that version’s file', async () => {
    const { app } = await serve();
    const old = await request(app).get('/v1/capabilities/redis-sidecar?version=1.0');
    expect(old.status).toBe(200);
    expect(old.body.version).toBe('1.0.0');
    expect(old.body.source).toBe(join(definitionsDir(), 'redis-sidecar-1.0.0.yaml'));
    expect(Object.keys(old.body.schema.properties)).toEqual(['image', 'maxMemory']);
    const latest = await request(app).get('/v1/capabilities/redis-sidecar');
    expect(latest.body.version).toBe('1.1.0');
    expect(Object.keys(latest.body.schema.properties)).toEqual(['image', 'maxMemory', 'port']);
  });

  it('answers 404 naming the versions when none matches, and 400 for a malformed pin', async () => {
    const { app } = await serve();
    const missing = await request(app).get('/v1/capabilities/redis-sidecar?version=%5E3');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ detail: 'redis-sidecar has 1.0.0, 1.1.0, 2.0.0-rc.1; none matches ^3', versions: ['1.0.0', '1.1.0', '2.0.0-rc.1'] });
    for (const query of ['version=latest', 'version=', 'version=v1', 'version=1&version=2']) {
      expect((await request(app).get(`/v1/capabilities/redis-sidecar?${query}`)).status, query).toBe(400);
    }
  });

  it('reports the registry digest in /readyz and as kurel_registry_info in /metrics', async () => {
    const { app, state } = await serve();
    // The same files loaded apart: the service judges in its runner, and reports what it holds.
    const catalogue = (await loadDefinitionFiles(createCatalogue(), { definitionDirs: [definitionsDir()] })).catalogue;
    const digest = registryDigest(catalogue);
    expect(state.registry.digest).toBe(digest);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await request(app).get('/readyz')).body.registry.digest).toBe(digest);
    expect((await request(app).get('/metrics')).text).toContain(`kurel_registry_info{digest="${digest}"} 1\n`);
    const lines = registryLines(catalogue);
    expect(lines).toContain('kurel@0.1.0');
    expect(lines).toContain('handler expose@1.0.0 builtin');
    expect(lines.filter((l) => l.startsWith('def '))).toEqual(
      catalogue.definitionVersions('redis-sidecar').map((d) => `def redis-sidecar@${d.version} ${d.digest}`),
    );
    expect([...lines].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(lines);
  });

  it('answers resolved.versions and honours --require-pinned in requests', async () => {
    const { app } = await serve({ requirePinned: true });
    const pinned = await validate(app, { profile: profileText({ 'redis-sidecar': '"1.0"' }) });
    expect(pinned.body.resolved.versions).toEqual({ 'redis-sidecar': '1.0.0' });
    const unpinned = await validate(app, { profile: profileText({ 'redis-sidecar': undefined }) });
    expect(unpinned.body.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'unpinned-capability', severity: 'error', file: 'request', line: 7, column: 5, path: '/spec/capabilities/redis-sidecar' },
    ]);
  });
});

describe('the service with a lockfile (docs/versions.md)', () => {
  it('serves only the locked versions, and a request is never lock-outdated', async () => {
    writeLock();
    const { app } = await serve({ lock: true });
    const unpinned = await validate(app, { profile: profileText({ 'redis-sidecar': undefined }) });
    expect(unpinned.body).toMatchObject({ valid: true, resolved: { versions: { 'redis-sidecar': '1.1.0' } } });
    const old = await validate(app, { profile: profileText({ 'redis-sidecar': '"1.0.0"' }) });
    expect(old.body.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message])).toEqual([
      ['version-not-found', 'capability "redis-sidecar": redis-sidecar has 1.1.0; none matches 1.0.0'],
    ]);
    expect((await request(app).get('/v1/capabilities/redis-sidecar')).body.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0']);
  });

  it('lets definitions sent with a request replace their name’s versions, outside the lockfile', async () => {
    writeLock();
    const { app } = await serve({ lock: true });
    const definition = readFileSync(join(dir, 'definitions/redis-sidecar-1.0.0.yaml'), 'utf8').replace('256Mi', '1Gi');
    const res = await validate(app, { profile: profileText({ 'redis-sidecar': '"1.0.0"' }), definitions: [definition] });
    expect(res.body.valid).toBe(true);
    expect(res.body.resolved.capabilities['redis-sidecar']).toEqual({ image: 'redis:7', maxMemory: '1Gi' });
  });

  it('refuses to start when a locked definition’s digest differs, or a locked version is missing', async () => {
    writeLock();
    const file = join(dir, 'definitions/redis-sidecar-1.1.0.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('6379', '6380'));
    const loader = await prepareCatalogueLoader({ definitionDirs: [definitionsDir()], plugins: [], cwd: dir, lockfile: lockfile() });
    const changed = await ServiceState.start(loader);
    expect(changed instanceof ServiceState).toBe(false);
    expect((changed as { diagnostics: { code: string; line: number; column: number }[] }).diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['definition-changed', 6, 12],
    ]);
    rmSync(file);
    const missing = await ServiceState.start(loader);
    expect((missing as { diagnostics: unknown[] }).diagnostics.map((d) => pinDiagnostic(d as Parameters<typeof pinDiagnostic>[0]))).toEqual([
      { code: 'lock-outdated', severity: 'error', file: 'kurel.lock.yaml', line: 7, column: 5, path: '/definitions/redis-sidecar/1.1.0' },
    ]);
  });

  it('keeps the old registry when a reload finds a changed digest', async () => {
    writeLock();
    const { app, state } = await serve({ lock: true });
    const before = state.runner;
    const file = join(dir, 'definitions/redis-sidecar-1.1.0.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('6379', '6380'));
    const reload = await request(app).post('/v1/reload').set('Content-Type', 'application/json');
    expect(reload.body).toMatchObject({ reloaded: false, ok: false });
    expect(reload.body.diagnostics.map((d: { code: string }) => d.code)).toEqual(['definition-changed']);
    expect(state.runner).toBe(before);
  });
});

describe('kurel serve --lockfile', () => {
  // The service also loads the package's own definitions/, whose redis-sidecar is unversioned;
  // the fixture's versions go by another name here so the two do not conflict.
  beforeEach(() => {
    for (const file of ['1.0.0', '1.1.0', '2.0.0-rc.1'].map((v) => `definitions/redis-sidecar-${v}.yaml`).concat('clusters/partial.yaml')) {
      writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replaceAll('redis-sidecar', 'redis-cache'));
    }
  });

  it('serves the locked versions and reports the registry digest it logs', async () => {
    writeLock();
    const served = await startServe(['--port', '0', '--definitions', definitionsDir(), '--lockfile', 'kurel.lock.yaml'], { cwd: dir });
    try {
      const listening = served.lines.find((line) => line['msg'] === 'listening')!;
      const ready = (await (await fetch(`${served.url}/readyz`)).json()) as { registry: { digest: string } };
      expect(ready.registry.digest).toBe(listening['registryDigest']);
      expect(listening['lockfile']).toBe('kurel.lock.yaml');
      const capability = (await (await fetch(`${served.url}/v1/capabilities/redis-cache`)).json()) as { versions: { version: string }[] };
      expect(capability.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0']);
    } finally {
      await served.stop();
    }
  });

  it('refuses to start, exit 2, when a locked definition was edited in place', async () => {
    writeLock();
    const file = join(dir, 'definitions/redis-sidecar-1.1.0.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('6379', '6380'));
    const run = await spawnKurel(['serve', '--port', '0', '--definitions', 'definitions', '--lockfile', 'kurel.lock.yaml'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('definition-changed');
    expect(run.stderr).toContain('kurel serve: refusing to start: the definitions have errors');
  });
});
