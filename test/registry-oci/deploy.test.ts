import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { findTool, skipWithout } from '../helpers/real-tool.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const KUBECTL = findTool('kubectl', ['version', '--client']);

interface Container {
  args: string[];
  env: { name: string; value: string }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface Pod {
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
}

describe.skipIf(skipWithout(KUBECTL))('deploy/registry-source, a kustomize component (docs/registries.md)', () => {
  it('serves an oci:// source with the pull secret mounted as the docker config.json DOCKER_CONFIG names', () => {
    const overlay = mkdtempSync(join(tmpdir(), 'kurel-overlay-'));
    try {
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        `resources: [${relative(overlay, DEPLOY)}]\ncomponents: [${relative(overlay, join(DEPLOY, 'registry-source'))}]\n`,
      );
      const objects = parseAllDocuments(execFileSync(KUBECTL.command, ['kustomize', overlay], { encoding: 'utf8' })).map(
        (d) => d.toJS() as { kind: string; spec: { template: { spec: Pod } } },
      );
      const pod = objects.find((o) => o.kind === 'Deployment')!.spec.template.spec;
      const container = pod.containers[0]!;
      const definitions = container.args[container.args.indexOf('--definitions') + 1];
      expect(definitions).toBe('oci://ghcr.io/acme/platform-definitions:^1');
      expect(container.args).not.toContain('--watch-definitions');
      const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
      expect(env).toMatchObject({ DOCKER_CONFIG: '/etc/kurel/registry', KUREL_CACHE_DIR: '/tmp/kurel-cache' });
      const volume = pod.volumes.find((v) => v.name === 'registry-credentials');
      expect(volume?.secret).toMatchObject({ secretName: 'kurel-registry-pull', items: [{ key: '.dockerconfigjson', path: 'config.json' }] });
      expect(container.volumeMounts).toContainEqual({ name: 'registry-credentials', mountPath: env.DOCKER_CONFIG, readOnly: true });
      expect(container.volumeMounts.some((m) => env.KUREL_CACHE_DIR!.startsWith(`${m.mountPath}/`))).toBe(true);
    } finally {
      rmSync(overlay, { recursive: true, force: true });
    }
  });
});
