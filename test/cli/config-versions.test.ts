import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonEnvelope, runKurel } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';

// .kurel.yaml feeds the versions work of docs/versions.md as docs/versions.md says: requirePinned and platform come
// from it (flags win), the lockfile is its `lockfile` (relative to it), else kurel.lock.yaml next
// to it; kurel serve reads it too, and definitions it names replace the embedded ones.

const FIXTURE = fileURLToPath(new URL('../fixtures/versioned/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EDGE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: edge\nspec:\n  capabilities:\n    service-routing:\n      rendering: {trafficDistribution: PreferSameZone}\n';

let repo: string;
const write = (path: string, text: string) => {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const kurelJson = async (args: string[], cwd = '.') => {
  const run = await runKurel([...args, '--format', 'json'], { cwd: join(repo, cwd) });
  return { ...run, json: JSON.parse(run.stdout) as JsonEnvelope };
};
const pinned = (json: JsonEnvelope) => json.diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column]);

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'kurel-config-versions-'));
  cpSync(FIXTURE, repo, { recursive: true });
  mkdirSync(join(repo, '.git'));
  write('.kurel.yaml', 'definitions: [definitions/]\nrequirePinned: true\nlockfile: locks/kurel.lock.yaml\n');
  mkdirSync(join(repo, 'locks'));
  // platform/: a repository whose config says its clusters run Kubernetes 1.29 unless a profile says otherwise.
  write('platform/.git/HEAD', '');
  write('platform/.kurel.yaml', 'capabilityDefs: [service-routing.yaml]\nplatform: {kubernetes: "1.29"}\n');
  write('platform/service-routing.yaml', readFileSync(join(ROOT, 'definitions/service-routing.yaml'), 'utf8'));
  write('platform/edge.yaml', EDGE);
  write('platform/edge-1.33.yaml', EDGE.replace('spec:\n', 'spec:\n  platform: {kubernetes: "1.33"}\n'));
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('requirePinned in .kurel.yaml', () => {
  it('makes an unpinned binding of a versioned definition an error, and --no-require-pinned turns it off', async () => {
    const required = await kurelJson(['lint', 'clusters/unpinned.yaml', '--no-lockfile']);
    expect({ code: required.code, found: pinned(required.json) }).toEqual({
      code: 1,
      found: [['unpinned-capability', 'error', 'clusters/unpinned.yaml', 7, 5]],
    });
    const relaxed = await kurelJson(['lint', 'clusters/unpinned.yaml', '--no-lockfile', '--no-require-pinned']);
    expect({ code: relaxed.code, found: pinned(relaxed.json) }).toEqual({ code: 0, found: [] });
  });
});

describe('the lockfile named by .kurel.yaml', () => {
  it('is where kurel lock writes, relative to the config, and what kurel lint and build follow', async () => {
    const lock = await runKurel(['lock', 'clusters/partial.yaml'], { cwd: repo });
    expect({ code: lock.code, stdout: lock.stdout }).toEqual({ code: 0, stdout: 'wrote locks/kurel.lock.yaml: 1 profile, 1 definition version\n' });
    expect(existsSync(join(repo, 'locks/kurel.lock.yaml'))).toBe(true);
    expect(existsSync(join(repo, 'kurel.lock.yaml'))).toBe(false);

    write('clusters/partial.yaml', readFileSync(join(repo, 'clusters/partial.yaml'), 'utf8').replace('version: "1"', 'version: "1.1"'));
    const lint = await kurelJson(['lint', 'clusters/partial.yaml']);
    expect({ code: lint.code, found: pinned(lint.json) }).toEqual({ code: 1, found: [['lock-outdated', 'error', 'clusters/partial.yaml', 8, 16]] });
    expect(lint.json.diagnostics[0]!.message).toBe('capability "redis-sidecar" is pinned 1.1 but locks/kurel.lock.yaml locked it pinned 1');

    const build = await kurelJson(['build', 'app.yaml', '--profile', 'clusters/partial.yaml', '--plugin', './plugins/redis-sidecar.mjs']);
    expect(build.json.diagnostics.map((d) => [d.code, d.file])).toContainEqual(['lock-outdated', 'clusters/partial.yaml']);

    // The same from a folder below the config: the lockfile is still the config's.
    const below = await kurelJson(['lint', 'partial.yaml'], 'clusters');
    // Outside the working directory, the lockfile is named by its full path.
    expect(below.json.diagnostics[0]!.message).toBe(`capability "redis-sidecar" is pinned 1.1 but ${join(repo, 'locks/kurel.lock.yaml')} locked it pinned 1`);
    expect((await kurelJson(['lint', 'partial.yaml', '--no-lockfile'], 'clusters')).code).toBe(0);
  });
});

describe('kurel migrate and kurel compat read .kurel.yaml too', () => {
  it("migrate finds the versions in the config's definitions", async () => {
    const run = await runKurel(['migrate', 'clusters/exact.yaml', '--to', 'redis-sidecar@1.1.0', '--no-lockfile'], { cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((line) => /^[-+] /.test(line))).toEqual(['-      version: "1.0.0"', '+      version: "1.1.0"']);
  });

  it("compat with no argument compares every version of the config's definitions", async () => {
    const run = await runKurel(['compat', '--format', 'json'], { cwd: repo });
    const json = JSON.parse(run.stdout) as { pairs: { name: string; from: string; to: string }[] };
    expect(json.pairs.map((p) => [p.name, p.from, p.to])).toEqual([
      ['redis-sidecar', '1.0.0', '1.1.0'],
      ['redis-sidecar', '1.1.0', '2.0.0-rc.1'],
    ]);
  });
});

describe('kurel.lock.yaml next to .kurel.yaml', () => {
  it('is the lockfile when the config names none, from any folder below it', async () => {
    const next = join(repo, 'nextto');
    cpSync(FIXTURE, next, { recursive: true });
    mkdirSync(join(next, '.git'));
    writeFileSync(join(next, '.kurel.yaml'), 'definitions: [definitions/]\n');
    expect((await runKurel(['lock', 'clusters/partial.yaml'], { cwd: next })).stdout).toBe('wrote kurel.lock.yaml: 1 profile, 1 definition version\n');
    writeFileSync(join(next, 'clusters/partial.yaml'), readFileSync(join(next, 'clusters/partial.yaml'), 'utf8').replace('version: "1"', 'version: "1.1"'));
    const below = await kurelJson(['lint', 'partial.yaml'], 'nextto/clusters');
    expect(below.json.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['lock-outdated', `capability "redis-sidecar" is pinned 1.1 but ${join(next, 'kurel.lock.yaml')} locked it pinned 1`],
    ]);
  });
});

describe('platform in .kurel.yaml', () => {
  it("supplies the version of a component a profile does not name; the profile's own wins, and --platform over both", async () => {
    const defaulted = await kurelJson(['lint', 'edge.yaml'], 'platform');
    expect({ code: defaulted.code, found: pinned(defaulted.json) }).toEqual({ code: 1, found: [['field-unavailable', 'error', 'edge.yaml', 8, 19]] });
    expect(defaulted.json.diagnostics[0]!.message).toBe('capability "service-routing": trafficDistribution needs kubernetes 1.30; this cluster runs 1.29');
    expect((await kurelJson(['lint', 'edge-1.33.yaml'], 'platform')).code).toBe(0);
    expect((await kurelJson(['lint', 'edge.yaml', '--platform', 'kubernetes=1.33'], 'platform')).code).toBe(0);
  });

  it('narrows kurel schema the same way', async () => {
    const run = await runKurel(['schema', 'service-routing'], { cwd: join(repo, 'platform') });
    const schema = JSON.parse(run.stdout) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).not.toContain('trafficDistribution');
  });
});

describe('kurel serve and .kurel.yaml', () => {
  it("judges at the config's platform, with the definitions it names", async () => {
    const started = await startServe(['--port', '0'], { cwd: join(repo, 'platform') });
    try {
      const res = await fetch(`${started.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: EDGE });
      const answer = (await res.json()) as { valid: boolean; diagnostics: { code: string; line: number }[] };
      expect({ valid: answer.valid, found: answer.diagnostics.map((d) => [d.code, d.line]) }).toEqual({ valid: false, found: [['field-unavailable', 8]] });
    } finally {
      await started.stop();
    }
  });

  it('starts with a versioned redis-sidecar named by --definitions: named definitions replace the embedded ones', async () => {
    const started = await startServe(['--port', '0', '--no-config', '--definitions', 'definitions'], { cwd: repo });
    try {
      const capability = (await (await fetch(`${started.url}/v1/capabilities/redis-sidecar`)).json()) as { versions: { version: string }[] };
      expect(capability.versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0', '2.0.0-rc.1']);
      const capabilities = (await (await fetch(`${started.url}/v1/capabilities`)).json()) as { type: string }[];
      // The embedded rate-limit and service-routing are not served: only what was named.
      expect(capabilities.map((c) => c.type)).not.toContain('rate-limit');
    } finally {
      await started.stop();
    }
  });

  it('uses the lockfile its config names, and requires pins as the config says', async () => {
    const lock = await runKurel(['lock', 'clusters/unpinned.yaml', '--no-require-pinned'], { cwd: repo });
    expect(lock.code).toBe(0);
    const started = await startServe(['--port', '0'], { cwd: repo });
    try {
      expect(started.lines.find((line) => line['msg'] === 'listening')?.['lockfile']).toBe('locks/kurel.lock.yaml');
      const body = readFileSync(join(repo, 'clusters/unpinned.yaml'), 'utf8');
      const res = await fetch(`${started.url}/v1/validate`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body });
      const answer = (await res.json()) as { diagnostics: { code: string; line: number; column: number }[] };
      expect(answer.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['unpinned-capability', 7, 5]]);
    } finally {
      await started.stop();
    }
  });
});
