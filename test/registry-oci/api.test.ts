import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeText } from '../../src/lsp/judge.js';
import { openRepository } from '../../src/lsp/repository.js';
import { MEDIA_TYPES, pushArtifact, resolveSource, sourceFileName } from '../../src/registry/index.js';
import { registerSourceResolver } from '../../src/sources/definition-entries.js';
import { useRegistry } from '../../src/sources/registry-resolver.js';
import { type RunningRegistry, SKOPEO_TOOL, skipRegistryTests, startRegistry } from './registry.js';

const skip = skipRegistryTests();
const REDIS = readFileSync(new URL('../../definitions/redis-sidecar.yaml', import.meta.url));

describe.skipIf(skip)('the registry floor against docker-registry', () => {
  let registry: RunningRegistry;
  let cacheDir: string;
  const env = { HOME: '/nonexistent' };
  beforeAll(async () => {
    registry = await startRegistry();
    cacheDir = mkdtempSync(join(tmpdir(), 'kurel-cache-'));
  });
  afterAll(async () => {
    await registry?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('pushes an artifact skopeo reads as an OCI manifest of kurel media types, and pulls it back', async () => {
    const files = [{ name: 'redis-sidecar.yaml', bytes: REDIS }];
    const pushed = await pushArtifact(`oci://${registry.host}/acme/defs:1.0.0`, files, { cacheDir, env });
    expect(pushed).toMatchObject({ unchanged: false });
    if (!('digest' in pushed)) throw new Error(pushed.message);
    expect(pushed.reference).toBe(`oci://${registry.host}/acme/defs@${pushed.digest}`);
    const raw = spawnSync(SKOPEO_TOOL.command, ['inspect', '--raw', '--tls-verify=false', `docker://${registry.host}/acme/defs:1.0.0`], { encoding: 'utf8' });
    expect(raw.status, raw.stderr).toBe(0);
    const manifest = JSON.parse(raw.stdout);
    expect(manifest).toMatchObject({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.manifest,
      artifactType: MEDIA_TYPES.artifact,
      config: { mediaType: MEDIA_TYPES.config, size: 2 },
      layers: [{ mediaType: MEDIA_TYPES.layer }],
      annotations: { 'org.opencontainers.image.version': '1.0.0' },
    });
    const again = await pushArtifact(`oci://${registry.host}/acme/defs:1.0.0`, files, { cacheDir, env });
    expect(again).toEqual({ ...pushed, unchanged: true });
    const fresh = mkdtempSync(join(tmpdir(), 'kurel-cache-'));
    const resolved = await resolveSource(`oci://${registry.host}/acme/defs:^1`, { cacheDir: fresh, env });
    rmSync(fresh, { recursive: true, force: true });
    if ('code' in resolved) throw new Error(resolved.message);
    expect(resolved.tag).toBe('1.0.0');
    expect(resolved.digest).toBe(pushed.digest);
    expect(resolved.files.map((f) => [f.name, Buffer.from(f.bytes).equals(REDIS)])).toEqual([['redis-sidecar.yaml', true]]);
    expect(sourceFileName(resolved, resolved.files[0]!)).toBe(`oci://${registry.host}/acme/defs@${pushed.digest}#redis-sidecar.yaml`);
  });

  it("judges an open profile in the language server against .kurel.yaml's oci:// definitions", async () => {
    const queue = Buffer.from(
      'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata: {name: queue-depth}\nspec:\n  rendering:\n    properties:\n      depth: {type: integer, required: true}\n',
    );
    const pushed = await pushArtifact(`oci://${registry.host}/acme/lsp:1.0.0`, [{ name: 'queue-depth.yaml', bytes: queue }], { cacheDir, env });
    if (!('digest' in pushed)) throw new Error(pushed.message);
    const repo = mkdtempSync(join(tmpdir(), 'kurel-lsp-'));
    writeFileSync(join(repo, '.kurel.yaml'), `definitions: ["oci://${registry.host}/acme/lsp:^1"]\n`);
    useRegistry({ env: { ...env, KUREL_CACHE_DIR: cacheDir } });
    try {
      const repository = await openRepository(repo, {});
      const profile =
        'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: dev}\nspec:\n  capabilities:\n    queue-depth:\n      rendering: {depth: deep}\n';
      const judged = await judgeText(repository, join(repo, 'dev.yaml'), profile);
      expect(judged.diagnostics.map((d) => [d.file, d.line, d.column, d.code])).toEqual([['dev.yaml', 7, 26, 'wrong-type']]);
    } finally {
      registerSourceResolver(undefined);
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
