import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runKurel, spawnKurel } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { type RunningRegistry, SKOPEO_TOOL, skipRegistryTests, startRegistry } from './registry.js';

const skip = skipRegistryTests();

const definition = (version: string, description: string) => `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: redis-sidecar
spec:
  version: ${version}
  description: ${JSON.stringify(description)}
  rendering:
    properties:
      image: {type: string, required: true}
`;

const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    redis-sidecar:
      version: "1"
      rendering:
        image: redis:7
`;

interface Lock {
  sources: Record<string, { range?: string; tag: string; digest: string }>;
  definitions: Record<string, Record<string, { digest: string; file: string }>>;
}

/**
 * The whole path of docs/registries.md: definitions pushed by kurel, locked by digest in a
 * profile repository, a re-tagged version refused by `lock --check` until `--update`, then
 * linted offline and served with the registry stopped.
 */
describe.skipIf(skip)('definitions from a registry, from push to a service with the registry gone', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    registry = await startRegistry();
    work = mkdtempSync(join(tmpdir(), 'kurel-done-'));
    env = { KUREL_CACHE_DIR: join(work, 'cache'), HOME: work, DOCKER_CONFIG: join(work, 'docker') };
  });
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('pushes, locks, refuses a moved tag until --update, lints offline and serves the locked digest', async () => {
    const platform = join(work, 'platform');
    mkdirSync(join(platform, 'v1'), { recursive: true });
    mkdirSync(join(platform, 'other'), { recursive: true });
    writeFileSync(join(platform, 'v1', 'redis-sidecar.yaml'), definition('1.0.0', 'the first'));
    writeFileSync(join(platform, 'other', 'redis-sidecar.yaml'), definition('1.0.0', 'pushed over the tag'));
    const repository = `oci://${registry.host}/platform/defs`;
    const pushed = await runKurel(['push', join(platform, 'v1'), `${repository}:1.0.0`], { cwd: work, env });
    expect(pushed.code, pushed.stdout).toBe(0);
    const firstDigest = pushed.stdout.trim().split('@')[1]!;

    const app = join(work, 'app');
    mkdirSync(join(app, 'clusters'), { recursive: true });
    writeFileSync(join(app, '.kurel.yaml'), `definitions: ["${repository}:^1"]\n`);
    writeFileSync(join(app, 'clusters', 'prod.yaml'), PROFILE);
    const locked = await runKurel(['lock', 'clusters/'], { cwd: app, env });
    expect(locked.code, locked.stdout).toBe(0);
    const lock = parse(readFileSync(join(app, 'kurel.lock.yaml'), 'utf8')) as Lock;
    expect(lock.sources).toEqual({ [`${repository}:^1`]: { range: '^1', tag: '1.0.0', digest: firstDigest } });
    expect(lock.definitions['redis-sidecar']?.['1.0.0']?.file).toBe(`${repository}@${firstDigest}#redis-sidecar.yaml`);
    expect((await runKurel(['lock', '--check', 'clusters/'], { cwd: app, env })).code).toBe(0);

    // Someone moves the tag 1.0.0 to other content (a registry allows it; kurel push does not).
    expect((await runKurel(['push', join(platform, 'other'), `${repository}:0.0.1`], { cwd: work, env })).code).toBe(0);
    const moved = spawnSync(
      SKOPEO_TOOL.command,
      [
        'copy',
        '--src-tls-verify=false',
        '--dest-tls-verify=false',
        `docker://${registry.host}/platform/defs:0.0.1`,
        `docker://${registry.host}/platform/defs:1.0.0`,
      ],
      { encoding: 'utf8' },
    );
    expect(moved.status, moved.stderr).toBe(0);
    const linted = await runKurel(['lint', 'clusters/'], { cwd: app, env });
    expect(linted.code, linted.stdout).toBe(0);
    const check = await runKurel(['lock', '--check', 'clusters/', '--format', 'json'], { cwd: app, env });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).diagnostics).toMatchObject([{ code: 'source-moved', file: 'kurel.lock.yaml', severity: 'error' }]);
    const update = await runKurel(['lock', '--update', 'clusters/'], { cwd: app, env });
    expect(update.code, update.stdout).toBe(0);
    const updated = parse(readFileSync(join(app, 'kurel.lock.yaml'), 'utf8')) as Lock;
    const secondDigest = updated.sources[`${repository}:^1`]!.digest;
    expect(secondDigest).not.toBe(firstDigest);
    expect((await runKurel(['lock', '--check', 'clusters/'], { cwd: app, env })).code).toBe(0);

    // A source whose reference (here its range) changed is not what the lockfile locked.
    writeFileSync(join(app, '.kurel.yaml'), `definitions: ["${repository}:^1.0"]\n`);
    const outdated = await runKurel(['lint', 'clusters/', '--format', 'json'], { cwd: app, env });
    expect(outdated.code).toBe(1);
    expect(JSON.parse(outdated.stdout).diagnostics).toMatchObject([
      { code: 'lock-outdated', file: 'kurel.lock.yaml', line: 1, column: 1, message: `the registry source ${repository}:^1.0 is not in kurel.lock.yaml` },
    ]);
    writeFileSync(join(app, '.kurel.yaml'), `definitions: ["${repository}:^1"]\n`);

    await registry.stop();
    const offline = await runKurel(['lint', 'clusters/', '--offline'], { cwd: app, env });
    expect(offline.code, offline.stdout).toBe(0);
    const pulled = await runKurel(['pull', `${repository}@${secondDigest}`, '--offline', '--output', join(work, 'pulled')], { cwd: work, env });
    expect(pulled.code, pulled.stdout).toBe(0);

    const fromRegistry = await startServe(['--port', '0', '--processes', '1', '--workers', '1', '--lockfile', 'kurel.lock.yaml'], { cwd: app, env });
    const fromFolder = await startServe(['--port', '0', '--processes', '1', '--workers', '1', '--no-config', '--definitions', join(work, 'pulled')], {
      cwd: work,
      env,
    });
    // Without a lockfile the range is resolved again, and the registry being gone, among the tags the cache saw.
    const fromCache = await startServe(['--port', '0', '--processes', '1', '--workers', '1'], { cwd: app, env });
    try {
      const digestOf = async (url: string) => ((await (await fetch(`${url}/readyz`)).json()) as { registry: { digest: string } }).registry.digest;
      const expected = await digestOf(fromFolder.url);
      expect(await digestOf(fromRegistry.url)).toBe(expected);
      expect(await digestOf(fromCache.url)).toBe(expected);
    } finally {
      await Promise.all([fromRegistry.stop(), fromFolder.stop(), fromCache.stop()]);
    }
  });

  it('refuses to start a service whose source can be neither fetched nor found in the cache: exit 2', async () => {
    const run = await spawnKurel(['serve', '--port', '0', '--processes', '1', '--no-config', '--definitions', 'oci://127.0.0.1:9/gone/defs:1.0.0'], {
      cwd: work,
      env: { ...env, KUREL_CACHE_DIR: join(work, 'empty-cache') },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'oci://127.0.0.1:9/gone/defs:1.0.0:1:1 error registry-unreachable oci://127.0.0.1:9/gone/defs:1.0.0: cannot reach 127.0.0.1:9 (ECONNREFUSED)\nkurel serve: refusing to start',
    );
  });

  it('resolves a range again on reload: a version pushed since the start is served after POST /v1/reload', async () => {
    const live = await startRegistry();
    const served = join(work, 'served');
    mkdirSync(join(served, 'v1'), { recursive: true });
    mkdirSync(join(served, 'v2'), { recursive: true });
    writeFileSync(join(served, 'v1', 'redis-sidecar.yaml'), definition('1.0.0', 'the first'));
    writeFileSync(join(served, 'v2', 'redis-sidecar.yaml'), definition('1.1.0', 'the second'));
    const repository = `oci://${live.host}/served/defs`;
    const cache = { ...env, KUREL_CACHE_DIR: join(work, 'reload-cache') };
    let service: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      expect((await runKurel(['push', join(served, 'v1'), `${repository}:1.0.0`], { cwd: work, env: cache })).code).toBe(0);
      service = await startServe(['--port', '0', '--processes', '1', '--workers', '1', '--no-config', '--definitions', `${repository}:^1`], {
        cwd: work,
        env: cache,
      });
      const versions = async () => {
        const body = (await (await fetch(`${service!.url}/v1/capabilities`)).json()) as { type: string; versions: { version: string; file: string }[] }[];
        return body.find((c) => c.type === 'redis-sidecar')?.versions.map((v) => [v.version, v.file.replace(/@sha256:[a-f0-9]{64}#/, '@…#')]);
      };
      expect(await versions()).toEqual([['1.0.0', `${repository}@…#redis-sidecar.yaml`]]);
      expect((await runKurel(['push', join(served, 'v2'), `${repository}:1.1.0`], { cwd: work, env: cache })).code).toBe(0);
      const reload = await fetch(`${service.url}/v1/reload`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(reload.status).toBe(200);
      expect(await versions()).toEqual([['1.1.0', `${repository}@…#redis-sidecar.yaml`]]);
    } finally {
      await service?.stop();
      await live.stop();
    }
  });
});
