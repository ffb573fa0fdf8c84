import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonEnvelope, runKurel } from '../helpers/cli.js';

// docs/configuration.md and docs/cli.md (issue 16, defect 1): a typo in kind never makes a folder pass,
// a folder or glob that yields no profile or definition is exit 2, globs and case-insensitive
// extensions, the configuration's ignore, and the skipped files listed at the end of the text.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
const GOOD = `${HEADER}spec:\n  capabilities:\n    expose:\n      rendering: {controllerType: gateway, gatewayName: public}\n`;
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';

let root: string;
const write = (path: string, content: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};
const lint = async (args: string[], cwd = '.') => {
  const run = await runKurel(['lint', ...args, '--format', 'json'], { cwd: join(root, cwd) });
  return { ...run, json: JSON.parse(run.stdout) as JsonEnvelope };
};
const lintText = (args: string[], cwd = '.') => runKurel(['lint', ...args], { cwd: join(root, cwd) });
const found = (json: JsonEnvelope) => json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message, d.hint]);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-inputs-'));
  write('typo/prod.yaml', GOOD.replace('kind: ClusterProfile', 'kind: ClusterProfle'));
  write('typo/configmap.yaml', CONFIG_MAP);
  write('capital/prod.yaml', GOOD.replace('kind: ClusterProfile', 'Kind: ClusterProfile'));
  write('foreign/configmap.yaml', CONFIG_MAP);
  write('foreign/values.yaml', 'replicas: 3\n');
  write('known/app.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: Application\nmetadata:\n  name: shop\nspec:\n  components: []\n');
  write('known/kurel.lock.yaml', 'lockfileVersion: 1\napiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityLock\ndefinitions: {}\nprofiles: {}\n');
  write('known/prod.yaml', GOOD);
  write('known/.kurel.yaml', 'strict: true\n');
  write('upper/PROD.YAML', GOOD);
  write('upper/staging.Yml', GOOD);
  write('upper/notes.txt', 'not yaml\n');
  write('globbed/clusters/eu/prod.yaml', GOOD);
  write('globbed/clusters/us/prod.YAML', GOOD);
  write('globbed/clusters/us/configmap.yaml', CONFIG_MAP);
  write('globbed/docs/readme.yaml', CONFIG_MAP);
  write('globbed/outside/secret.yaml', GOOD);
  // A ConfigMap mount: the real files live under ..<timestamp>/, reached through links beside them.
  write('mount/..2026_01_01_00_00_00.000000000/prod.yaml', GOOD);
  symlinkSync('..2026_01_01_00_00_00.000000000', join(root, 'mount/..data'));
  symlinkSync('..data/prod.yaml', join(root, 'mount/prod.yaml'));
  // A repository whose config ignores its archive.
  write('repo/.git/HEAD', '');
  write('repo/.kurel.yaml', 'ignore: ["clusters/archive/**"]\n');
  write('repo/clusters/prod.yaml', GOOD);
  write('repo/clusters/archive/old.yaml', GOOD.replace('gatewayName: public', 'gatewayName: ""'));
  write('repo/clusters/archive/older.yaml', GOOD.replace('gatewayName: public', 'gatewayName: ""'));
  write('repo/clusters/archive/oldest.yaml', GOOD.replace('gatewayName: public', 'gatewayName: ""'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a kind kurel does not know, in a folder (issue 16, defect 1)', () => {
  it('reports kind: ClusterProfle as invalid-value with did-you-mean, and exits 1', async () => {
    const run = await lint(['typo/']);
    expect(run.code).toBe(1);
    expect(found(run.json)).toEqual([
      ['invalid-value', 'typo/prod.yaml', 2, 7, 'kind must be ClusterProfile or CapabilityDefinition, found "ClusterProfle"', 'did you mean ClusterProfile?'],
    ]);
    expect(run.json.files.map((f) => [f.path, f.status])).toEqual([
      ['typo/configmap.yaml', 'skipped'],
      ['typo/prod.yaml', 'checked'],
    ]);
  });

  it('reports Kind: for kind: at the key, with did-you-mean', async () => {
    const run = await lint(['capital/']);
    expect(run.code).toBe(1);
    expect(found(run.json)).toEqual([
      [
        'unknown-field',
        'capital/prod.yaml',
        2,
        1,
        'unknown field "Kind": kind is required, expected ClusterProfile or CapabilityDefinition',
        'did you mean kind?',
      ],
    ]);
  });

  it('prints the error in text, and ends with the files skipped and why', async () => {
    const run = await lintText(['typo/']);
    expect(run.stdout).toBe(
      [
        'typo/prod.yaml:2:7 error invalid-value kind must be ClusterProfile or CapabilityDefinition, found "ClusterProfle"',
        '  kind: ClusterProfle',
        '        ^^^^^^^^^^^^^',
        '  hint: did you mean ClusterProfile?',
        '1 file checked: 1 error, 0 warnings',
        'skipped 1 file:',
        '  typo/configmap.yaml: kind ConfigMap is not linted',
        'run kurel explain invalid-value for details',
        '',
      ].join('\n'),
    );
  });
});

describe('many skipped files in a folder (docs/configuration.md)', () => {
  const deployments = (n: number) => {
    write('many/prod.yaml', GOOD);
    for (let i = 0; i < n; i++) write(`many/deploy-${String(i).padStart(3, '0')}.yaml`, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n');
  };

  it('names the first 20 in text and counts the rest, one line with --quiet, every one in JSON', async () => {
    deployments(25);
    const listed = Array.from({ length: 20 }, (_, i) => `  many/deploy-${String(i).padStart(3, '0')}.yaml: kind Deployment is not linted`);
    expect(await lintText(['many/'])).toEqual({
      code: 0,
      stdout: ['1 profile checked: no problems', 'skipped 25 files:', ...listed, '  and 5 more (--format json lists every file)', ''].join('\n'),
      stderr: '',
    });
    expect(await lintText(['many/', '--quiet'])).toEqual({
      code: 0,
      stdout: '1 profile checked: no problems\nskipped 25 files (--format json lists them)\n',
      stderr: '',
    });
    const json = (await lint(['many/', '--quiet'])).json;
    expect(json.files.filter((f) => f.status === 'skipped')).toHaveLength(25);
  });
});

describe('a folder or glob that yields no profile or definition (docs/configuration.md)', () => {
  it('is exit 2, io-error at the argument, never 0 files checked', async () => {
    const run = await lint(['foreign/']);
    expect(run.code).toBe(2);
    expect(found(run.json)).toEqual([['io-error', 'foreign/', 1, 1, 'no profile or definition found in foreign/', undefined]]);
    expect(run.json.files.map((f) => [f.path, f.status, f.reason])).toEqual([
      ['foreign/configmap.yaml', 'skipped', 'kind ConfigMap is not linted'],
      ['foreign/values.yaml', 'skipped', 'no kind: not a kurel document'],
    ]);
  });

  it('is judged per argument: a good folder beside an empty one still exits 2', async () => {
    const run = await lint(['known/', 'foreign/']);
    expect(run.code).toBe(2);
    expect(found(run.json).map((d) => d.slice(0, 2))).toEqual([['io-error', 'foreign/']]);
  });

  it('is exit 2 for a glob that matches no file', async () => {
    const run = await lint(['nowhere/**/*.yaml']);
    expect(run.code).toBe(2);
    expect(found(run.json)).toEqual([['io-error', 'nowhere/**/*.yaml', 1, 1, 'no file matches nowhere/**/*.yaml', undefined]]);
  });

  it('is exit 2 for a glob whose files hold no profile', async () => {
    const run = await lint(['globbed/docs/*.yaml']);
    expect(run.code).toBe(2);
    expect(found(run.json)).toEqual([['io-error', 'globbed/docs/*.yaml', 1, 1, 'no profile or definition found in globbed/docs/*.yaml', undefined]]);
  });

  it('says so when every file under it is ignored by .kurel.yaml', async () => {
    const run = await lint(['clusters/archive/'], 'repo');
    expect(run.code).toBe(2);
    expect(found(run.json)).toEqual([['io-error', 'clusters/archive/', 1, 1, 'all 3 files under clusters/archive/ are ignored by .kurel.yaml', undefined]]);
  });
});

describe('folder searches (docs/configuration.md)', () => {
  it('list known kinds kurel does not check (Application, CapabilityLock) and .kurel.yaml as skipped', async () => {
    const run = await lint(['known/']);
    expect(run.code).toBe(0);
    expect(run.json.files.map(({ resolved: _r, ...f }) => f)).toEqual([
      { path: 'known/.kurel.yaml', kind: 'unknown', status: 'skipped', reason: '.kurel.yaml configures kurel; it is not linted' },
      { path: 'known/app.yaml', kind: 'Application', status: 'skipped', reason: 'kind Application is not linted' },
      { path: 'known/kurel.lock.yaml', kind: 'CapabilityLock', status: 'skipped', reason: 'kind CapabilityLock is not linted' },
      { path: 'known/prod.yaml', kind: 'ClusterProfile', status: 'checked' },
    ]);
  });

  it('match extensions in any case (.YAML, .Yml) and leave other files alone', async () => {
    const run = await lint(['upper']);
    expect(run.code).toBe(0);
    expect(run.json.files.map((f) => [f.path, f.status])).toEqual([
      ['upper/PROD.YAML', 'checked'],
      ['upper/staging.Yml', 'checked'],
    ]);
  });

  it('pass over names starting with .. (a ConfigMap mount), reading each file once through its link', async () => {
    const run = await lint(['mount']);
    expect(run.code).toBe(0);
    expect(run.json.files.map((f) => [f.path, f.status])).toEqual([['mount/prod.yaml', 'checked']]);
  });

  it("leave out the files the configuration's ignore names, but never a file named on the command line", async () => {
    const searched = await lint(['clusters/'], 'repo');
    expect({ code: searched.code, files: searched.json.files.map((f) => f.path) }).toEqual({ code: 0, files: ['clusters/prod.yaml'] });
    const named = await lint(['clusters/archive/old.yaml'], 'repo');
    expect({ code: named.code, codes: named.json.diagnostics.map((d) => [d.code, d.file]) }).toEqual({
      code: 1,
      codes: [['invalid-value', 'clusters/archive/old.yaml']],
    });
  });
});

describe('glob arguments (docs/configuration.md)', () => {
  it('are expanded by kurel, quoted or not, matching the extension in any case', async () => {
    const run = await lint(['globbed/clusters/**/*.yaml']);
    expect(run.code).toBe(0);
    expect(run.json.files.map((f) => [f.path, f.status])).toEqual([
      ['globbed/clusters/eu/prod.yaml', 'checked'],
      ['globbed/clusters/us/configmap.yaml', 'skipped'],
      ['globbed/clusters/us/prod.YAML', 'checked'],
    ]);
  });

  it('are taken literally when the argument names an existing path', async () => {
    write('globbed/[literal].yaml', GOOD);
    const run = await lint(['globbed/[literal].yaml']);
    expect({ code: run.code, files: run.json.files.map((f) => f.path) }).toEqual({ code: 0, files: ['globbed/[literal].yaml'] });
  });

  it('refuse a match reached through a link that leaves the glob folder', async () => {
    mkdirSync(join(root, 'linked/clusters'), { recursive: true });
    symlinkSync(join(root, 'globbed/outside/secret.yaml'), join(root, 'linked/clusters/secret.yaml'));
    write('linked/clusters/prod.yaml', GOOD);
    const run = await lint(['linked/clusters/*.yaml']);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => [d.code, d.file])).toEqual([['io-error', 'linked/clusters/secret.yaml']]);
    expect(run.json.diagnostics[0]!.message).toMatch(/^linked\/clusters\/secret\.yaml is a symbolic link that leaves linked\/clusters \(to /);
    expect(run.json.files.map((f) => f.path)).toEqual(['linked/clusters/prod.yaml']);
  });
});
