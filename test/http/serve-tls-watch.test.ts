import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnKurel } from '../helpers/cli.js';
import { type ServedProcess, startServe, waitFor } from '../helpers/serve.js';
import { httpsGet, makePair, type PemPair, writeSecretVolume } from '../helpers/tls.js';
import { writeVolume } from '../helpers/volume.js';
import { REDIS_DEFINITION } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let first: PemPair;
let second: PemPair;
beforeAll(async () => {
  [first, second] = await Promise.all([makePair('kurel-serve-first'), makePair('kurel-serve-second')]);
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-serve-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(args: string[]): Promise<ServedProcess> {
  const served = await startServe(['--port', '0', ...args], { cwd: ROOT });
  cleanups.push(() => served.stop());
  return served;
}

const definitionNamed = (name: string) => REDIS_DEFINITION.replace('redis-sidecar', name);

describe('kurel serve --tls-cert --tls-key', () => {
  it('serves HTTPS and follows a rotation of its Secret volume', async () => {
    const tls = tempDir();
    writeSecretVolume(tls, first);
    const served = await serve(['--tls-cert', join(tls, 'tls.crt'), '--tls-key', join(tls, 'tls.key')]);
    expect(served.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(served.lines.find((l) => l['msg'] === 'listening')?.['tls']).toBe(true);
    const ca = [first.cert, second.cert];
    expect(await httpsGet(`${served.url}/readyz`, ca)).toMatchObject({ status: 200, fingerprint: new X509Certificate(first.cert).fingerprint256 });
    writeSecretVolume(tls, second);
    const rotated = new X509Certificate(second.cert).fingerprint256;
    await waitFor(async () => ((await httpsGet(`${served.url}/healthz`, ca)).fingerprint === rotated ? true : undefined), 'the rotated certificate');
    expect(served.lines.some((l) => l['msg'] === 'tls certificate reloaded' && l['fingerprint'] === rotated)).toBe(true);
    expect(await served.stop()).toBe(0);
  });

  it.each([
    [
      'only --tls-cert',
      (dir: string) => ['--tls-cert', join(dir, 'tls.crt')],
      '<command line>:1:1 error usage --tls-cert and --tls-key go together; found only --tls-cert\n',
    ],
    [
      'only --tls-key',
      (dir: string) => ['--tls-key', join(dir, 'tls.key')],
      '<command line>:1:1 error usage --tls-cert and --tls-key go together; found only --tls-key\n',
    ],
    [
      'a key of another certificate',
      (dir: string) => {
        writeFileSync(join(dir, 'other.key'), second.key);
        return ['--tls-cert', join(dir, 'tls.crt'), '--tls-key', join(dir, 'other.key')];
      },
      (dir: string) =>
        `kurel serve: refusing to start: cannot serve TLS: the key in ${join(dir, 'other.key')} does not belong to the certificate in ${join(dir, 'tls.crt')}\n`,
    ],
    [
      'a missing key',
      (dir: string) => ['--tls-cert', join(dir, 'tls.crt'), '--tls-key', join(dir, 'missing.key')],
      (dir: string) => `kurel serve: refusing to start: cannot serve TLS: cannot read ${join(dir, 'missing.key')}: no such file\n`,
    ],
  ])('exits 2 without listening for %s', async (_name, args, stderr) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tls.crt'), first.cert);
    writeFileSync(join(dir, 'tls.key'), first.key);
    const run = await spawnKurel(['serve', '--port', '0', ...args(dir)], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(typeof stderr === 'string' ? stderr : stderr(dir));
    expect(run.stdout).not.toContain('"msg":"listening"');
  });
});

// One serving process: each process watches and reloads by itself, and these tests follow one.
describe('kurel serve --watch-definitions', () => {
  const readiness = async (url: string) =>
    (await (await fetch(`${url}/readyz`)).json()) as { registry: { definitions: number }; lastReload: { ok: boolean; at: string } };
  const types = async (url: string) => ((await (await fetch(`${url}/v1/capabilities`)).json()) as { type: string }[]).map((c) => c.type);

  it('reloads by itself when a file in a definitions folder is added, changed or removed', async () => {
    const dir = tempDir();
    const served = await serve(['--processes', '1', '--definitions', dir, '--watch-definitions']);
    expect(served.lines.find((l) => l['msg'] === 'listening')?.['watchDefinitions']).toBe(true);
    const base = (await readiness(served.url)).registry.definitions;
    writeFileSync(join(dir, 'cache.yaml'), definitionNamed('cache-sidecar'));
    await waitFor(async () => ((await readiness(served.url)).registry.definitions === base + 1 ? true : undefined), 'the added definition');
    expect(await types(served.url)).toContain('cache-sidecar');
    writeFileSync(join(dir, 'cache.yaml'), definitionNamed('store-sidecar'));
    await waitFor(async () => ((await types(served.url)).includes('store-sidecar') ? true : undefined), 'the changed definition');
    expect(await types(served.url)).not.toContain('cache-sidecar');
    rmSync(join(dir, 'cache.yaml'));
    await waitFor(async () => ((await readiness(served.url)).registry.definitions === base ? true : undefined), 'the removed definition');
    expect(served.lines.filter((l) => l['msg'] === 'definition files changed: reloading').length).toBeGreaterThanOrEqual(3);
  });

  it('reloads when a mounted ConfigMap swaps its ..data link, and keeps the definitions when the new ones are broken', async () => {
    const dir = tempDir();
    writeVolume(dir, { 'cache.yaml': definitionNamed('cache-sidecar') });
    const served = await serve(['--processes', '1', '--definitions', dir, '--watch-definitions']);
    const base = (await readiness(served.url)).registry.definitions;
    expect(await types(served.url)).toContain('cache-sidecar');
    writeVolume(dir, { 'cache.yaml': definitionNamed('cache-sidecar'), 'queue.yaml': definitionNamed('queue-sidecar') });
    await waitFor(async () => ((await types(served.url)).includes('queue-sidecar') ? true : undefined), 'the swapped-in definitions');
    expect((await readiness(served.url)).registry.definitions).toBe(base + 1);

    const good = await readiness(served.url);
    writeVolume(dir, { 'cache.yaml': 'kind: [' });
    const failed = await waitFor(async () => {
      const now = await readiness(served.url);
      return now.lastReload.at !== good.lastReload.at ? now : undefined;
    }, 'the failed reload');
    expect(failed.lastReload.ok).toBe(false);
    expect(await types(served.url)).toEqual(expect.arrayContaining(['cache-sidecar', 'queue-sidecar']));
  });

  it('makes one reload of a burst of changes', async () => {
    const dir = tempDir();
    const served = await serve(['--processes', '1', '--definitions', dir, '--watch-definitions']);
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `d${i}.yaml`), definitionNamed(`burst-${i}`));
    await waitFor(async () => ((await types(served.url)).includes('burst-4') ? true : undefined), 'the burst to load');
    // A change after the burst has loaded reloads once more: a reload the burst still had
    // pending would come before it, and be counted.
    writeFileSync(join(dir, 'after.yaml'), definitionNamed('after-burst'));
    await waitFor(async () => ((await types(served.url)).includes('after-burst') ? true : undefined), 'the change after the burst to load');
    const reloading = served.lines.filter((l) => l['msg'] === 'definition files changed: reloading');
    // Each reload's files, whatever events (add, change) each had.
    const files = (l: Record<string, unknown>) =>
      [...new Set((l['changes'] as string[]).map((change) => basename(change.slice(change.indexOf(' ') + 1))))].sort();
    expect(reloading.map(files)).toEqual([['d0.yaml', 'd1.yaml', 'd2.yaml', 'd3.yaml', 'd4.yaml'], ['after.yaml']]);
    expect(served.lines.filter((l) => l['msg'] === 'definitions reloaded')).toHaveLength(2);
  });

  it('warns that there is nothing to watch without --definitions', async () => {
    const served = await serve(['--watch-definitions']);
    expect(served.lines.find((l) => l['msg'] === '--watch-definitions has no --definitions folder to watch')?.['level']).toBe(40);
    expect(served.lines.find((l) => l['msg'] === 'listening')?.['watchDefinitions']).toBe(false);
  });
});
