import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileDiagnostic } from '../../src/core/diagnostics.js';
import { prepareCatalogueLoader } from '../../src/http/catalogue-loader.js';
import { type ReloadRecord, ServiceState } from '../../src/http/service-state.js';
import { REDIS_DEFINITION, REDIS_PROFILE, testApp } from './support.js';

// docs/service.md "Processes and the supervisor" and "Reload": a serving process under the
// supervisor is ready once every process serves, reloads only as the supervisor says (prepare,
// switch, settle), and reports a reloaded registry only once every process serves it.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-service-state-'));
  writeFileSync(join(dir, 'redis-sidecar.yaml'), REDIS_DEFINITION);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const WITH_TIER = `${REDIS_DEFINITION}      tier: {type: string, required: true}\n`;

async function supervised(): Promise<{ state: ServiceState; loader: Awaited<ReturnType<typeof prepareCatalogueLoader>>; asked: () => number }> {
  const loader = await prepareCatalogueLoader({ definitionDirs: [dir], plugins: [], cwd: dir });
  const state = await ServiceState.start(loader);
  if (!(state instanceof ServiceState)) throw new Error(JSON.stringify(state.diagnostics));
  let asked = 0;
  state.joinPeers({
    reloadEverywhere: async () => {
      asked += 1;
    },
  });
  return { state, loader, asked: () => asked };
}

const valid = async (app: Parameters<typeof request>[0]) =>
  (await request(app).post('/v1/validate').set('Content-Type', 'application/yaml').send(REDIS_PROFILE)).body.valid as boolean;

describe('a serving process under the supervisor', () => {
  it('is ready only once the supervisor says every process serves', async () => {
    const { state } = await supervised();
    const { app } = testApp({ state });
    expect((await request(app).get('/readyz')).body).toMatchObject({ status: 'starting' });
    expect((await request(app).get('/readyz')).status).toBe(503);
    state.everyProcessServing();
    expect((await request(app).get('/readyz')).status).toBe(200);
  });

  it('asks the supervisor for a reload instead of reading the disk itself', async () => {
    const { state, asked } = await supervised();
    const { app } = testApp({ state });
    writeFileSync(join(dir, 'redis-sidecar.yaml'), WITH_TIER);
    await state.reload();
    const res = await request(app).post('/v1/reload').set('Content-Type', 'application/json');
    expect(res.status).toBe(200);
    expect(asked()).toBe(2);
    // Nothing was switched: the definitions read at start are in service.
    expect(await valid(app)).toBe(true);
  });

  it('puts a prepared registry in service only on the switch, and reports it on /readyz only once settled', async () => {
    const { state, loader } = await supervised();
    state.everyProcessServing();
    const { app } = testApp({ state });
    const before = (await request(app).get('/readyz')).body.registry.digest as string;
    writeFileSync(join(dir, 'redis-sidecar.yaml'), WITH_TIER);
    expect(await state.prepare(loader)).toEqual({ ok: true, diagnostics: [] });
    expect(await valid(app)).toBe(true);
    expect((await request(app).get('/readyz')).body.registry.digest).toBe(before);

    const records: ReloadRecord[] = [];
    state.onReload((record) => records.push(record));
    const at = new Date('2026-01-02T03:04:05.000Z');
    state.switchTo({ ok: true, at, diagnostics: [] });
    expect(records).toEqual([{ at, ok: true, definitions: 1, diagnostics: [] }]);
    expect(await valid(app)).toBe(false);
    expect(state.settling).toBeInstanceOf(Promise);
    // The probe reaches the app before the settle; its answer is finished only after it.
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let settled = false;
    let finishedSettled: boolean | undefined;
    const arrived = new Promise<void>((resolve) =>
      server.once('request', (_req, res: ServerResponse) => {
        res.once('finish', () => {
          finishedSettled = settled;
        });
        setImmediate(resolve);
      }),
    );
    const readiness = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`).then(
      async (res) => (await res.json()) as { registry: { digest: string; loadedAt: string } },
    );
    await arrived;
    settled = true;
    state.settle();
    const answered = { body: await readiness };
    server.close();
    expect(finishedSettled).toBe(true);
    expect(answered.body.registry.digest).not.toBe(before);
    expect(answered.body.registry.loadedAt).toBe(at.toISOString());
    expect(state.settling).toBeUndefined();
    await state.close();
  });

  it('drops a prepared registry when the reload is refused elsewhere, and records why', async () => {
    const { state, loader } = await supervised();
    state.everyProcessServing();
    const { app } = testApp({ state });
    const before = (await request(app).get('/readyz')).body.registry.digest as string;
    writeFileSync(join(dir, 'redis-sidecar.yaml'), WITH_TIER);
    expect((await state.prepare(loader)).ok).toBe(true);
    const why = fileDiagnostic('kurel.lock.yaml', 'definition-changed', 'refused in another process');
    state.switchTo({ ok: false, at: new Date('2026-01-02T03:04:05.000Z'), diagnostics: [why] });
    expect(state.settling).toBeUndefined();
    const readiness = (await request(app).get('/readyz')).body as { registry: { digest: string }; lastReload: { ok: boolean; diagnostics: unknown[] } };
    expect(readiness.registry.digest).toBe(before);
    expect(readiness.lastReload).toMatchObject({ ok: false, diagnostics: [why] });
    expect(await valid(app)).toBe(true);
    await state.close();
  });
});
