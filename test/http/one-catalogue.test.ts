import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { type ServedProcess, startServe, waitFor } from '../helpers/serve.js';
import { REDIS_DEFINITION, REDIS_PROFILE } from './support.js';

// docs/service.md "Processes and the supervisor": the supervisor reads the definitions once, and
// every serving process, a replacement included, serves what it read; a reload is switched in
// every process or in none, and `/readyz` reports a digest only once every process serves it.

const started: ServedProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const served of started.splice(0)) await served.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const VERSIONED = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  version: 1.1.0
  description: Injects a Redis sidecar container.
  rendering:
    properties:
      image: {type: string, required: true}
`;

const PINNED_PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: partial
spec:
  capabilities:
    redis-sidecar:
      version: "1"
      rendering:
        image: redis:7
`;

/** A definition of redis-sidecar that also requires `tier`: REDIS_PROFILE is invalid under it. */
const WITH_TIER = `${REDIS_DEFINITION}      tier: {type: string, required: true}\n`;

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-one-catalogue-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function serve(dir: string, args: string[], until: 'listening' | 'ready' = 'ready'): Promise<ServedProcess> {
  const served = await startServe(['--port', '0', '--workers', '1', ...args], { cwd: dir, until });
  started.push(served);
  return served;
}

interface Readiness {
  http: number;
  status: string;
  registry: { digest: string };
  lastReload: { ok: boolean };
}

/** One request on a connection of its own (so the supervisor hands each to the next process). */
function once(url: string, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: body === undefined ? {} : { 'Content-Type': 'application/yaml' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const readiness = async (url: string): Promise<Readiness> => {
  const answer = await once(`${url}/readyz`);
  return { ...(JSON.parse(answer.body) as Omit<Readiness, 'http'>), http: answer.status };
};
const verdict = async (url: string, profile: string) => (JSON.parse((await once(`${url}/v1/validate`, 'POST', profile)).body) as { valid: boolean }).valid;
const servingPids = (served: ServedProcess) => served.lines.filter((l) => l['msg'] === 'listening').map((l) => Number(l['pid']));

describe('one catalogue for every serving process', () => {
  it('refuses a reload whose definitions no longer match the lockfile in every process, as soon as /readyz is 200, and keeps serving', async () => {
    const dir = workspace({ 'defs/redis-sidecar.yaml': VERSIONED, 'clusters/partial.yaml': PINNED_PROFILE });
    expect((await runKurel(['lock', 'clusters/partial.yaml', '--definitions', 'defs'], { cwd: dir })).code).toBe(0);
    const served = await serve(dir, ['--processes', '2', '--definitions', 'defs', '--lockfile', 'kurel.lock.yaml'], 'listening');
    const ready = await waitFor(async () => {
      const now = await readiness(served.url);
      return now.http === 200 ? now : undefined;
    }, '/readyz to be 200');
    // Ready only once every process serves.
    const metrics = (await once(`${served.url}/metrics`)).body;
    expect(metrics.split('\n').find((line) => line.startsWith('kurel_processes '))).toBe('kurel_processes 2');
    // Edited so that it no longer matches the lockfile, then a reload.
    writeFileSync(join(dir, 'defs/redis-sidecar.yaml'), VERSIONED.replace('Injects a Redis', 'Adds a Redis'));
    served.child.kill('SIGHUP');
    await waitFor(() => served.lines.find((l) => l['msg'] === 'reload refused: every process keeps the definitions in service'), 'the reload to be refused');
    const failed = served.lines.filter((l) => l['msg'] === 'reload failed: the previous definitions stay in service');
    expect(failed.map((l) => l['pid']).sort()).toEqual(servingPids(served).sort());
    expect(servingPids(served)).toHaveLength(2);
    // Each process in turn: ready, the previous definitions in service.
    for (let i = 0; i < 4; i++) {
      expect(await readiness(served.url)).toMatchObject({ http: 200, status: 'ready', registry: { digest: ready.registry.digest }, lastReload: { ok: false } });
      expect(await verdict(served.url, PINNED_PROFILE)).toBe(true);
    }
    expect(served.child.exitCode).toBeNull();
  });

  it('reports the reloaded digest on /readyz only once every process answers with it', async () => {
    const dir = workspace({ 'defs/redis-sidecar.yaml': REDIS_DEFINITION });
    const served = await serve(dir, ['--processes', '2', '--definitions', 'defs']);
    const before = await readiness(served.url);
    expect(await verdict(served.url, REDIS_PROFILE)).toBe(true);
    writeFileSync(join(dir, 'defs/redis-sidecar.yaml'), WITH_TIER);
    served.child.kill('SIGHUP');
    await waitFor(async () => ((await readiness(served.url)).registry.digest !== before.registry.digest ? true : undefined), 'the new digest');
    // From then on, every answer of every process uses the reloaded definitions.
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await verdict(served.url, REDIS_PROFILE));
    expect(verdicts).toEqual([false, false, false, false, false, false]);
  });

  it('has a process that replaces one that died serve the definitions the service read, not the files as they are now', async () => {
    const dir = workspace({ 'defs/redis-sidecar.yaml': REDIS_DEFINITION });
    const served = await serve(dir, ['--processes', '1', '--definitions', 'defs']);
    const before = await readiness(served.url);
    writeFileSync(join(dir, 'defs/redis-sidecar.yaml'), WITH_TIER);
    const [victim] = servingPids(served);
    process.kill(victim!, 'SIGKILL');
    await waitFor(() => (servingPids(served).length === 2 ? true : undefined), 'the replacement to listen');
    await waitFor(async () => ((await readiness(served.url)).http === 200 ? true : undefined), 'the replacement to be ready');
    expect((await readiness(served.url)).registry.digest).toBe(before.registry.digest);
    expect(await verdict(served.url, REDIS_PROFILE)).toBe(true);
    expect(readFileSync(join(dir, 'defs/redis-sidecar.yaml'), 'utf8')).toBe(WITH_TIER);
  });
});
