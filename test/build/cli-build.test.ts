import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runKurel, runKurelJson } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const PLUGIN = '../../examples/plugins/redis-sidecar.mjs';
const PACKAGE = 'packages/custom-capability';
const PROFILE = 'profiles/custom-capability.yaml';
const NO_DEFINITIONS_CASE = '../conformance/cases/125-build-custom-trait-without-definition';

const pin = pinDiagnostic;

/** The custom-capability package built with the example plugin: expose merged with its binding, redis-sidecar with the definition's defaults. */
const RESOLVED = {
  name: 'my-app',
  components: [
    {
      name: 'api',
      type: 'webservice',
      traits: [
        {
          type: 'expose',
          capabilityKey: 'expose',
          capabilityVersion: null,
          properties: {
            controllerType: 'ingress',
            ingressClassName: 'nginx',
            rules: [{ host: 'my-app.example.com', paths: [{ path: '/', port: 8080 }] }],
          },
        },
        {
          type: 'redis-sidecar',
          capabilityKey: 'redis-sidecar',
          capabilityVersion: null,
          properties: { image: 'redis:7-alpine', maxMemory: '512Mi', port: 6379 },
        },
      ],
    },
  ],
};

describe.concurrent('kurel build', () => {
  it('builds the custom-capability package directory with the example plugin into one JSON envelope', async () => {
    const run = await runKurelJson(['build', PACKAGE, '--profile', PROFILE, '--plugin', PLUGIN], { cwd: FIXTURES });
    expect(run.code).toBe(0);
    expect(run.json.valid).toBe(true);
    expect(run.json.diagnostics).toEqual([]);
    expect(run.json.application).toEqual(RESOLVED);
    expect(run.json.files.map((f) => [f.path, f.kind, f.status])).toEqual([
      ['packages/custom-capability/app.yaml', 'Application', 'checked'],
      ['profiles/custom-capability.yaml', 'ClusterProfile', 'checked'],
      ['packages/custom-capability/definitions/redis-sidecar.yaml', 'CapabilityDefinition', 'checked'],
    ]);
  });

  it('fails the same package with unknown-trait when no plugin registers redis-sidecar', async () => {
    const run = await runKurelJson(['build', `${PACKAGE}/app.yaml`, '--profile', PROFILE], { cwd: FIXTURES });
    expect(run.code).toBe(1);
    expect(run.json.valid).toBe(false);
    expect(run.json.diagnostics.map(pin)).toEqual([
      { code: 'unknown-trait', severity: 'error', file: 'packages/custom-capability/app.yaml', line: 24, column: 13, path: '/spec/components/0/traits/1/type' },
    ]);
    expect(run.json.application).toBeNull();
  });

  it('prints the application as YAML on stdout by default and nothing on stderr', async () => {
    const run = await runKurel(['build', `${PACKAGE}/app.yaml`, '--profile', PROFILE, '--plugin', PLUGIN], { cwd: FIXTURES });
    expect(run.code).toBe(0);
    expect(parse(run.stdout)).toEqual(RESOLVED);
    expect(run.stdout).toContain('capabilityKey: redis-sidecar\n');
    expect(run.stderr).toBe('');
  });

  it('prints the application as JSON with --output json', async () => {
    const run = await runKurel(['build', PACKAGE, '--profile', PROFILE, '--plugin', PLUGIN, '--output', 'json'], { cwd: FIXTURES });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(RESOLVED);
  });

  it('prints text diagnostics on stderr and no application on stdout when the build fails', async () => {
    const run = await runKurel(['build', PACKAGE, '--profile', PROFILE, '--output', 'json'], { cwd: FIXTURES });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(
      'packages/custom-capability/app.yaml:24:13 error unknown-trait no handler for trait type "redis-sidecar" in component "api": a CapabilityDefinition validates its rendering but does not implement the trait',
    );
  });

  it('reads a definition named by --capability-def and found in the package definitions/ once', async () => {
    const run = await runKurelJson(
      ['build', 'app.yaml', '--profile', `../../${PROFILE}`, '--capability-def', 'definitions/redis-sidecar.yaml', '--plugin', `../../${PLUGIN}`],
      { cwd: `${FIXTURES}${PACKAGE}` },
    );
    expect(run.code).toBe(0);
    expect(run.json.diagnostics).toEqual([]);
    expect(run.json.files.filter((f) => f.kind === 'CapabilityDefinition').map((f) => f.path)).toEqual(['definitions/redis-sidecar.yaml']);
  });

  it('reports all five mistakes of a package: three in app.yaml and two in cluster.yaml', async () => {
    const run = await runKurelJson(['build', '.', '--profile', 'cluster.yaml'], { cwd: `${FIXTURES}packages/five-mistakes` });
    expect(run.code).toBe(1);
    expect(run.json.diagnostics.map(pin)).toEqual([
      { code: 'unknown-field', severity: 'error', file: 'app.yaml', line: 5, column: 3, path: '/metadata/lables' },
      { code: 'platform-reserved', severity: 'error', file: 'app.yaml', line: 15, column: 9, path: '/spec/components/0/traits/0/properties/controllerType' },
      { code: 'missing-capability', severity: 'error', file: 'app.yaml', line: 16, column: 13, path: '/spec/components/0/traits/1' },
      { code: 'wrong-type', severity: 'error', file: 'cluster.yaml', line: 11, column: 22, path: '/spec/capabilities/expose/rendering/sslRedirect' },
      { code: 'unknown-field', severity: 'error', file: 'cluster.yaml', line: 14, column: 9, path: '/spec/capabilities/pvc/rendering/storageClasName' },
    ]);
  });

  it('warns about a used capability nothing validates and still prints the application', async () => {
    const run = await runKurel(['build', 'app.yaml', '--profile', 'cluster.yaml', '--plugin', '../../../fixtures/plugins/schemaless-redis-sidecar.mjs'], {
      cwd: `${FIXTURES}${NO_DEFINITIONS_CASE}`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(
      'cluster.yaml:14:5 warning unvalidated-capability capability "redis-sidecar" is used but its rendering is not validated: the handler from plugin:../../../fixtures/plugins/schemaless-redis-sidecar.mjs declares no rendering schema and no CapabilityDefinition exists',
    );
    expect(parse(run.stdout).components[0].traits[1]).toEqual({
      type: 'redis-sidecar',
      capabilityKey: 'redis-sidecar',
      capabilityVersion: null,
      properties: { image: 'redis:7-alpine', maxMemory: '512Mi' },
    });
  });

  it('makes the unvalidated capability an error with --strict-capabilities', async () => {
    const run = await runKurelJson(
      ['build', 'app.yaml', '--profile', 'cluster.yaml', '--plugin', '../../../fixtures/plugins/schemaless-redis-sidecar.mjs', '--strict-capabilities'],
      { cwd: `${FIXTURES}${NO_DEFINITIONS_CASE}` },
    );
    expect(run.code).toBe(1);
    expect(run.json.diagnostics.map(pin)).toEqual([
      { code: 'unvalidated-capability', severity: 'error', file: 'cluster.yaml', line: 14, column: 5, path: '/spec/capabilities/redis-sidecar' },
    ]);
    expect(run.json.application).toBeNull();
  });
});

describe.concurrent('kurel build refuses to start', () => {
  it.each([
    ['claims a built-in type', 'claims-builtin.mjs', 'the plugin claims the type of the built-in handler "expose"'],
    ['throws while loading', 'throws-on-load.mjs', 'the plugin failed to load: REDIS_URL is not set'],
    ['exports something that is not a handler', 'not-a-handler.mjs', 'a handler must be an object, found string'],
    [
      'is capability-aware without validateAndApplyDefaults',
      'aware-without-validate.mjs',
      'a capability-aware handler must implement validateAndApplyDefaults',
    ],
  ])('with exit 2 naming a plugin that %s', async (_what, file, reason) => {
    const plugin = `plugins/${file}`;
    const run = await runKurelJson(['build', PACKAGE, '--profile', PROFILE, '--plugin', plugin], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.json.valid).toBe(false);
    expect(run.json.application).toBeNull();
    expect(run.json.diagnostics).toHaveLength(1);
    expect(run.json.diagnostics[0]).toMatchObject({ code: 'usage', severity: 'error', file: `plugin:${plugin}` });
    expect(run.json.diagnostics[0]?.message).not.toContain('refusing to start');
    expect(run.json.diagnostics[0]?.message).toContain(plugin);
    expect(run.json.diagnostics[0]?.message).toContain(reason);
  });

  it('with exit 2 and the reason on stderr in text format', async () => {
    const run = await runKurel(['build', PACKAGE, '--profile', PROFILE, '--plugin', 'plugins/throws-on-load.mjs'], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'plugin:plugins/throws-on-load.mjs: error usage plugin plugins/throws-on-load.mjs: the plugin failed to load: REDIS_URL is not set',
    );
  });
});

describe.concurrent('kurel build usage', () => {
  it('exits 2 with the application envelope when --profile is missing', async () => {
    const run = await runKurelJson(['build', PACKAGE], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.json).toMatchObject({ valid: false, files: [], application: null });
    expect(run.json.diagnostics.map((d) => d.code)).toEqual(['usage']);
  });

  it('exits 2 when the profile cannot be read', async () => {
    const run = await runKurelJson(['build', PACKAGE, '--profile', 'profiles/absent.yaml'], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['io-error', 'profiles/absent.yaml', 'cannot read profiles/absent.yaml: no such file'],
    ]);
  });

  it('exits 2 when the package directory holds no app.yaml', async () => {
    const run = await runKurelJson(['build', 'plugins', '--profile', PROFILE], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.file])).toEqual([['io-error', 'plugins/app.yaml']]);
  });

  it('rejects an unknown --output with exit 2', async () => {
    const run = await runKurel(['build', PACKAGE, '--profile', PROFILE, '--output', 'toml'], { cwd: FIXTURES });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("argument 'toml' is invalid");
  });
});

describe('kurel build and kurel lint agree on a profile (docs/build.md)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kurel-agree-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const profile = (comment: string) =>
    `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    expose:\n      rendering: {controllerType: ingress, ingressClassName: nginx}\n${comment}    vendor-thing:\n      rendering: {a: 1}\n`;
  const app =
    'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  components:\n    - name: web\n      type: webservice\n      traits:\n        - type: expose\n';

  it.each([
    ['an unknown binding no trait uses fails both', '', 1],
    ['its suppression comment passes both, used by each', '    # kurel-disable-next-line unknown-capability\n', 0],
  ])('with --strict-capabilities, %s', async (_name, comment, code) => {
    writeFileSync(join(dir, 'cluster.yaml'), profile(comment));
    writeFileSync(join(dir, 'app.yaml'), app);
    const lint = await runKurel(['lint', 'cluster.yaml', '--strict-capabilities'], { cwd: dir });
    const build = await runKurel(['build', 'app.yaml', '--profile', 'cluster.yaml', '--strict-capabilities', '--format', 'json'], { cwd: dir });
    expect([lint.code, build.code]).toEqual([code, code]);
    const diagnostics = (JSON.parse(build.stdout) as { diagnostics: { code: string; suppressed?: unknown }[] }).diagnostics;
    expect(diagnostics.map((d) => [d.code, d.suppressed !== undefined])).toEqual([['unknown-capability', code === 0]]);
    expect(lint.stdout).not.toContain('unused-suppression');
  });
});
