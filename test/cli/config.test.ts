import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKurelConfig } from '../../src/documents/kurel-config.js';
import { type JsonEnvelope, runKurel } from '../helpers/cli.js';

// docs/configuration.md: .kurel.yaml, found walking up from the working
// directory (stopping after the folder holding .git), --config, --no-config, checked strictly,
// and the order of severities.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
// queue is known only to the definition in defs/; exposee is known to nothing.
const QUEUE = `${HEADER}spec:\n  capabilities:\n    queue:\n      rendering: {size: 3}\n`;
const UNKNOWN = `${HEADER}spec:\n  capabilities:\n    exposee: {}\n`;
const QUEUE_DEFINITION =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: queue\nspec:\n  rendering:\n    properties:\n      size: {type: integer}\n';

let root: string;
const write = (path: string, content: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};
const lint = async (cwd: string, args: string[]) => {
  const run = await runKurel(['lint', ...args, '--format', 'json'], { cwd: join(root, cwd) });
  return { ...run, json: JSON.parse(run.stdout) as JsonEnvelope };
};
const found = (json: JsonEnvelope) => json.diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column]);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-config-'));
  // repo/: a repository with a config at its root and profiles two levels down.
  mkdirSync(join(root, 'repo', '.git'), { recursive: true });
  write('repo/.kurel.yaml', 'definitions: [defs/]\n');
  write('repo/defs/queue.yaml', QUEUE_DEFINITION);
  write('repo/clusters/prod/queue.yaml', QUEUE);
  write('repo/clusters/prod/unknown.yaml', UNKNOWN);
  // outer/: a config above a repository (a worktree: .git is a file) that must not apply to it.
  write('outer/.kurel.yaml', 'strictCapabilities: true\n');
  write('outer/inner/.git', 'gitdir: /elsewhere\n');
  write('outer/inner/unknown.yaml', UNKNOWN);
  // strict/: configs that change severities.
  write('strict/.git/HEAD', 'ref: refs/heads/main\n');
  write('strict/.kurel.yaml', 'strictCapabilities: true\n');
  write('strict/unknown.yaml', UNKNOWN);
  write('layers/.git/HEAD', '');
  write(
    'layers/.kurel.yaml',
    [
      'strictCapabilities: true',
      'severity: {unknown-capability: warning}',
      'overrides:',
      '  - files: ["legacy/**"]',
      '    severity: {unknown-capability: "off"}',
      '  - files: ["legacy/strict/*.yaml"]',
      '    severity: {unknown-capability: error}',
      '',
    ].join('\n'),
  );
  write('layers/unknown.yaml', UNKNOWN);
  write('layers/legacy/unknown.yaml', UNKNOWN);
  write('layers/legacy/strict/unknown.yaml', UNKNOWN);
  write('warnings/.git/HEAD', '');
  write('warnings/.kurel.yaml', 'strict: true\n');
  write('warnings/unknown.yaml', UNKNOWN);
  // broken/: configs that refuse the run.
  write('broken/.git/HEAD', '');
  write('broken/.kurel.yaml', 'definitions: [defs/]\nstrictCapabilites: true\nstrict: "yes"\n');
  write('broken/unknown.yaml', UNKNOWN);
  write('lowered/.git/HEAD', '');
  write('lowered/.kurel.yaml', 'severity:\n  yaml-syntax: warning\n  unknwn-capability: error\n');
  write('lowered/unknown.yaml', UNKNOWN);
  write('other.kurel.yaml', 'definitions: [repo/defs]\n');
  write('repo/more/cache.yaml', QUEUE_DEFINITION.replaceAll('queue', 'cache'));
  write(
    'repo/clusters/prod/both.yaml',
    `${HEADER}spec:\n  capabilities:\n    queue:\n      rendering: {size: 3}\n    cache:\n      rendering: {size: "big"}\n`,
  );
  // directives/: a comment in .kurel.yaml is only a comment (docs/configuration.md).
  write('directives/.git/HEAD', '');
  write('directives/.kurel.yaml', '# kurel-disable-next-line unknown-field\nstrictCapabilites: true\n');
  write('directives/unknown.yaml', UNKNOWN);
  // plugged/: plugins named by path (relative to the config) and by package (resolved from its folder).
  const handler = (type: string) =>
    `export default { type: '${type}', description: '${type}', capabilityAware: true, capabilityRequired: false, renderingSchema: { type: 'object' }, validateAndApplyDefaults: (r) => ({ rendering: r, issues: [] }) };\n`;
  write('plugged/.git/HEAD', '');
  write('plugged/.kurel.yaml', 'plugins: [./plugins/queue.mjs, kurel-plugin-cache]\n');
  write('plugged/plugins/queue.mjs', handler('queue'));
  write('plugged/node_modules/kurel-plugin-cache/package.json', '{"name": "kurel-plugin-cache", "type": "module", "exports": "./index.mjs"}\n');
  write('plugged/node_modules/kurel-plugin-cache/index.mjs', handler('cache'));
  write('plugged/clusters/both.yaml', `${HEADER}spec:\n  capabilities:\n    queue: {}\n    cache: {}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.concurrent('.kurel.yaml: discovery', () => {
  it('is found walking up from the working directory; its paths are relative to it', async () => {
    const run = await lint('repo/clusters/prod', ['queue.yaml', 'unknown.yaml']);
    expect(found(run.json)).toEqual([['unknown-capability', 'warning', 'unknown.yaml', 7, 5]]);
    expect(run.json.files.map((f) => f.path)).toEqual(['queue.yaml', 'unknown.yaml', '../../defs/queue.yaml']);
    expect(run.code).toBe(0);
  });

  it('is not looked for above the first folder holding .git (here a worktree .git file)', async () => {
    const run = await lint('outer/inner', ['unknown.yaml']);
    expect(found(run.json)).toEqual([['unknown-capability', 'warning', 'unknown.yaml', 7, 5]]);
  });

  it('is read from the folder holding .git itself', async () => {
    const run = await lint('strict', ['unknown.yaml']);
    expect(found(run.json)).toEqual([['unknown-capability', 'error', 'unknown.yaml', 7, 5]]);
    expect(run.code).toBe(1);
  });

  it('is replaced by --config FILE and ignored with --no-config', async () => {
    const named = await lint('repo/clusters/prod', ['queue.yaml', '--config', '../../../other.kurel.yaml']);
    expect(named.json.files.map((f) => f.path)).toEqual(['queue.yaml', '../../defs/queue.yaml']);
    const none = await lint('repo/clusters/prod', ['queue.yaml', '--no-config']);
    expect(found(none.json)).toEqual([['unknown-capability', 'warning', 'queue.yaml', 7, 5]]);
  });

  it('takes list flags in addition to its own lists', async () => {
    const run = await lint('repo/clusters/prod', ['both.yaml', '--definitions', '../../more']);
    expect(run.json.files.map((f) => f.path)).toEqual(['both.yaml', '../../defs/queue.yaml', '../../more/cache.yaml']);
    expect(found(run.json)).toEqual([['wrong-type', 'error', 'both.yaml', 10, 25]]);
  });

  it('gives suppression comments in .kurel.yaml no effect: they are comments', async () => {
    const run = await lint('directives', ['unknown.yaml']);
    expect({ code: run.code, found: run.json.diagnostics.map((d) => [d.code, d.file, d.line]) }).toEqual({
      code: 2,
      found: [['unknown-field', '.kurel.yaml', 2]],
    });
  });

  it('loads its plugins: paths relative to it, package names from its folder', async () => {
    const run = await lint('plugged/clusters', ['both.yaml']);
    expect({ code: run.code, diagnostics: run.json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
  });

  it('exits 2 when --config names a file that does not exist', async () => {
    const run = await lint('repo', ['clusters/prod/queue.yaml', '--config', 'missing.yaml']);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics).toMatchObject([{ code: 'io-error', file: 'missing.yaml', message: 'cannot read missing.yaml: no such file' }]);
  });
});

describe.concurrent('.kurel.yaml: checked as strictly as a profile', () => {
  it('reports unknown keys and wrong types at their place in .kurel.yaml, and exits 2 without linting', async () => {
    const run = await lint('broken', ['unknown.yaml']);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path, d.hint])).toEqual([
      ['unknown-field', '.kurel.yaml', 2, 1, '/strictCapabilites', 'did you mean strictCapabilities?'],
      ['wrong-type', '.kurel.yaml', 3, 9, '/strict', 'write true (YAML 1.2 reads "yes" as a string)'],
    ]);
    expect(run.json.files).toEqual([]);
  });

  it('refuses a severity that lowers a raise-only code, and names a misspelled code', async () => {
    const run = await lint('lowered', ['unknown.yaml']);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.hint])).toEqual([
      ['invalid-value', 2, 16, '/severity/yaml-syntax', 'remove yaml-syntax from this severity map'],
      ['unknown-field', 3, 3, '/severity/unknwn-capability', 'did you mean unknown-capability?'],
    ]);
    expect(run.json.diagnostics[0]!.message).toBe(
      'yaml-syntax may only be raised, never lowered or turned off: it decides whether a run can be trusted; found warning',
    );
  });

  it.each([
    ['strict', 'strict: 1\n', 'wrong-type'],
    ['definitions', 'definitions: defs/\n', 'wrong-type'],
    ['overrides without files', 'overrides: [{severity: {}}]\n', 'missing-required'],
    ['a platform version', 'platform: {kubernetes: 1.30}\n', 'wrong-type'],
    ['a severity value', 'severity: {unknown-capability: fatal}\n', 'invalid-value'],
  ])('reports a wrong %s', (_name, text, code) => {
    const read = readKurelConfig('.kurel.yaml', text);
    expect(read.config).toBeUndefined();
    expect(read.diagnostics.map((d) => d.code)).toEqual([code]);
  });

  it('accepts every key of docs/configuration.md', () => {
    const text = [
      'definitions: [definitions/, vendor/definitions/]',
      'capabilityDefs: []',
      'plugins: [./plugins/redis-sidecar.mjs]',
      'lockfile: kurel.lock.yaml',
      'strict: false',
      'strictCapabilities: true',
      'requirePinned: true',
      'platform: {kubernetes: "1.30"}',
      'ignore: ["clusters/archive/**"]',
      'severity: {unknown-capability: error, definition-duplicate: "off"}',
      'overrides: [{files: ["legacy/**"], severity: {unknown-capability: warning}}]',
      '',
    ].join('\n');
    const read = readKurelConfig('.kurel.yaml', text);
    expect(read.diagnostics).toEqual([]);
    expect(read.config).toEqual({
      definitions: ['definitions/', 'vendor/definitions/'],
      capabilityDefs: [],
      plugins: ['./plugins/redis-sidecar.mjs'],
      lockfile: 'kurel.lock.yaml',
      strict: false,
      strictCapabilities: true,
      requirePinned: true,
      platform: { kubernetes: '1.30' },
      ignore: ['clusters/archive/**'],
      severity: { 'unknown-capability': 'error', 'definition-duplicate': 'off' },
      overrides: [{ files: ['legacy/**'], severity: { 'unknown-capability': 'warning' } }],
    });
  });

  it('is an empty configuration when the file is empty or holds only comments', () => {
    expect(readKurelConfig('.kurel.yaml', '# nothing yet\n').config).toMatchObject({ definitions: [], severity: {}, overrides: [] });
  });
});

describe.concurrent('.kurel.yaml: the order of severities', () => {
  it('applies strictCapabilities, then severity, then overrides in order, by path relative to the config', async () => {
    const run = await lint('layers', ['unknown.yaml', 'legacy/unknown.yaml', 'legacy/strict/unknown.yaml']);
    expect(found(run.json)).toEqual([
      ['unknown-capability', 'error', 'legacy/strict/unknown.yaml', 7, 5],
      ['unknown-capability', 'warning', 'unknown.yaml', 7, 5],
    ]);
  });

  it('lets --strict-capabilities beat the config, and --no-strict-capabilities turn its strictCapabilities off', async () => {
    const raised = await lint('layers', ['legacy/unknown.yaml', '--strict-capabilities']);
    expect(found(raised.json)).toEqual([['unknown-capability', 'error', 'legacy/unknown.yaml', 7, 5]]);
    const relaxed = await lint('strict', ['unknown.yaml', '--no-strict-capabilities']);
    expect(found(relaxed.json)).toEqual([['unknown-capability', 'warning', 'unknown.yaml', 7, 5]]);
    expect(relaxed.code).toBe(0);
  });

  it('takes strict from the config, and --no-strict turns it off', async () => {
    expect((await lint('warnings', ['unknown.yaml'])).code).toBe(1);
    expect((await lint('warnings', ['unknown.yaml', '--no-strict'])).code).toBe(0);
  });
});
