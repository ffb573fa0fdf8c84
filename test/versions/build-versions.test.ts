import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { buildApplication } from '../../src/operations/build-application.js';
import { runKurel } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';
import { profileText, REDIS_VERSIONS } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/versioned/', import.meta.url));
const PLUGIN = ['--plugin', './plugins/redis-sidecar.mjs'];
const HANDLER = { type: 'redis-sidecar', version: '1.0.0', description: 'Injects a Redis sidecar', capabilityAware: false as const };

function app(type: string): string {
  return `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata: {name: shop}
spec:
  components:
  - name: api
    type: webservice
    traits:
    - type: ${type}
`;
}

function build(type: string, bindings: Record<string, string | undefined>, definitions = REDIS_VERSIONS) {
  return buildApplication(
    {
      application: { file: 'app.yaml', content: app(type) },
      profile: { file: 'cluster.yaml', content: profileText(bindings) },
      definitions: Object.entries(definitions).map(([file, content]) => ({ file, content, origin: 'definition' as const })),
    },
    createCatalogue({ handlers: [{ handler: HANDLER, source: 'plugin:./redis.mjs' }] }),
  );
}

describe('a trait written for a version: type: name@<pin> (docs/versions.md)', () => {
  it('builds when the profile’s version satisfies the pin, keeping the bare type and the version', () => {
    const report = build('redis-sidecar@^1.1', { 'redis-sidecar': '"1"' });
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[0]).toEqual({
      type: 'redis-sidecar',
      capabilityKey: 'redis-sidecar',
      capabilityVersion: '1.1.0',
      properties: { image: 'redis:7', maxMemory: '256Mi', port: 6379 },
    });
  });

  it('fails with version-mismatch at the trait’s type, naming both versions, the component, the trait and the profile', () => {
    const report = build('redis-sidecar@^1.1', { 'redis-sidecar': '"1.0.0"' });
    expect(report.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'version-mismatch', severity: 'error', file: 'app.yaml', line: 9, column: 13, path: '/spec/components/0/traits/0/type' },
    ]);
    expect(report.diagnostics[0]!.message).toBe(
      'component "api" trait "redis-sidecar" was written for redis-sidecar ^1.1, but ClusterProfile "prod" (cluster.yaml) resolves redis-sidecar to 1.0.0',
    );
    expect(report.application).toBeNull();
  });

  it.each(['redis-sidecar@latest', 'redis-sidecar@', 'redis-sidecar@v1', 'redis-sidecar@1.2.3.4', `redis-sidecar@${'1'.repeat(10_000)}`])(
    'reports the malformed pin in %s as invalid-value at the trait’s type',
    (type) => {
      const report = build(type, { 'redis-sidecar': '"1"' });
      expect(report.diagnostics.map(pinDiagnostic)).toEqual([
        { code: 'invalid-value', severity: 'error', file: 'app.yaml', line: 9, column: 13, path: '/spec/components/0/traits/0/type' },
      ]);
    },
  );

  it('holds a pin on a handler-only type to its handler’s version', () => {
    expect(build('redis-sidecar@^1', { 'redis-sidecar': undefined }, {}).diagnostics.map((d) => d.code)).toEqual(['unvalidated-capability']);
    const report = build('redis-sidecar@^2', { 'redis-sidecar': undefined }, {});
    expect(report.diagnostics.map((d) => d.code)).toEqual(['version-mismatch', 'unvalidated-capability']);
    expect(report.diagnostics[0]!.message).toBe(
      'component "api" trait "redis-sidecar" was written for redis-sidecar ^2, but ClusterProfile "prod" (cluster.yaml) resolves redis-sidecar to 1.0.0',
    );
    expect(report.application).toBeNull();
  });

  it('does not check a pin whose binding has its own version error, nor one without a binding', () => {
    const report = build('redis-sidecar@^1.1', { 'redis-sidecar': '"7"' });
    expect(report.diagnostics.map((d) => d.code)).toEqual(['version-not-found']);
    expect(build('redis-sidecar@^1.1', {}).diagnostics).toEqual([]);
  });

  it('reports version-not-found and unpinned-capability on bindings no trait uses', () => {
    const report = buildApplication(
      {
        application: { file: 'app.yaml', content: app('expose') },
        profile: {
          file: 'cluster.yaml',
          content: `${profileText({ 'redis-sidecar': '"5"', 'redis-sidecar.b': undefined })}    expose:\n      rendering: {controllerType: ingress, ingressClassName: nginx}\n`,
        },
        definitions: Object.entries(REDIS_VERSIONS).map(([file, content]) => ({ file, content, origin: 'definition' as const })),
      },
      createCatalogue(),
      { requirePinned: true },
    );
    expect(report.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'version-not-found', severity: 'error', file: 'cluster.yaml', line: 8, column: 16, path: '/spec/capabilities/redis-sidecar/version' },
      { code: 'unpinned-capability', severity: 'error', file: 'cluster.yaml', line: 10, column: 5, path: '/spec/capabilities/redis-sidecar.b' },
    ]);
  });
});

describe('kurel build against several profiles', () => {
  const kurel = (...args: string[]) => runKurel(args, { cwd: FIXTURE });

  it('judges the application against each profile of a glob, ending with a table, exit 1 when any fails', async () => {
    const run = await kurel('build', '.', '--profile', 'clusters/*.yaml', ...PLUGIN);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')).toEqual([
      'PROFILE                   VERDICT  VERSIONS                  FIRST ERROR',
      'clusters/exact.yaml       invalid  redis-sidecar@1.0.0       app.yaml:10:13 version-mismatch component "api" trait "redis-sidecar" was written for redis-sidecar ^1.1, but ClusterProfile "exact" (clusters/exact.yaml) resolves redis-sidecar to 1.0.0',
      'clusters/partial.yaml     valid    redis-sidecar@1.1.0       -',
      'clusters/prerelease.yaml  invalid  redis-sidecar@2.0.0-rc.1  app.yaml:10:13 version-mismatch component "api" trait "redis-sidecar" was written for redis-sidecar ^1.1, but ClusterProfile "prerelease" (clusters/prerelease.yaml) resolves redis-sidecar to 2.0.0-rc.1',
      'clusters/range.yaml       valid    redis-sidecar@1.1.0       -',
      'clusters/unpinned.yaml    valid    redis-sidecar@1.1.0       -',
      '',
    ]);
    expect(run.stderr.split('\n').filter((line) => /^\S+:\d+:\d+ /.test(line))).toEqual([
      'app.yaml:10:13 error version-mismatch component "api" trait "redis-sidecar" was written for redis-sidecar ^1.1, but ClusterProfile "exact" (clusters/exact.yaml) resolves redis-sidecar to 1.0.0',
      'app.yaml:10:13 error version-mismatch component "api" trait "redis-sidecar" was written for redis-sidecar ^1.1, but ClusterProfile "prerelease" (clusters/prerelease.yaml) resolves redis-sidecar to 2.0.0-rc.1',
      'clusters/exact.yaml:8:16 warning version-deprecated capability "redis-sidecar": redis-sidecar 1.0.0 is deprecated: use 1.1.0, which adds port',
    ]);
  });

  it('gives one result per profile in JSON, with --profile given more than once', async () => {
    const run = await kurel('build', '.', '--profile', 'clusters/range.yaml', '--profile', 'clusters/exact.yaml', ...PLUGIN, '--format', 'json');
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(Object.keys(json)).toEqual(['valid', 'diagnostics', 'files', 'results']);
    expect(json.valid).toBe(false);
    expect(
      json.results.map((r: { profile: string; valid: boolean; diagnostics: { code: string }[] }) => [r.profile, r.valid, r.diagnostics.map((d) => d.code)]),
    ).toEqual([
      ['clusters/range.yaml', true, []],
      ['clusters/exact.yaml', false, ['version-mismatch', 'version-deprecated']],
    ]);
    expect(json.results[0].application.components[0].traits[0].capabilityVersion).toBe('1.1.0');
    expect(json.results[1].application).toBeNull();
  });

  it('keeps the one-profile envelope exactly as it was', async () => {
    const run = await kurel('build', '.', '--profile', 'clusters/range.yaml', ...PLUGIN, '--format', 'json');
    expect(run.code).toBe(0);
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(['valid', 'diagnostics', 'files', 'application']);
  });

  it('exits 2 when a glob matches no profile', async () => {
    const run = await kurel('build', '.', '--profile', 'nowhere/*.yaml', ...PLUGIN, '--format', 'json');
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'io-error', severity: 'error', file: 'nowhere/*.yaml', line: 1, column: 1, path: '' },
    ]);
  });

  it('exits 0 when the application builds against every profile', async () => {
    const run = await kurel('build', '.', '--profile', 'clusters/partial.yaml', '--profile', 'clusters/unpinned.yaml', ...PLUGIN);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
