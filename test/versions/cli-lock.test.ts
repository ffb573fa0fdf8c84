import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definitionDigest } from '../../src/documents/definition-digest.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { runKurel } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/versioned/', import.meta.url));
const DEFS = ['--definitions', 'definitions'];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-lock-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const kurel = (...args: string[]) => runKurel(args, { cwd: dir });
const json = async (...args: string[]) => {
  const run = await kurel(...args, '--format', 'json');
  return {
    code: run.code,
    json: JSON.parse(run.stdout) as Record<string, unknown> & { diagnostics: (Parameters<typeof pinDiagnostic>[0] & { message: string; hint?: string })[] },
  };
};
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(dir, file), text);
const digestOf = (file: string) => definitionDigest(parseYamlStream(read(file), file).documents[0]!.data);
const at = (file: string, code: string, line: number, column: number, path: string, severity = 'error') => ({ code, severity, file, line, column, path });
const DEPRECATED = at('clusters/exact.yaml', 'version-deprecated', 8, 16, '/spec/capabilities/redis-sidecar/version', 'warning');

function expectedLock(): string {
  const def = (version: string) =>
    `    ${version}: {digest: "${digestOf(`definitions/redis-sidecar-${version}.yaml`)}", file: definitions/redis-sidecar-${version}.yaml}`;
  return [
    '# Written by kurel lock. Commit it; kurel lint and build follow it when present.',
    'lockfileVersion: 1',
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityLock',
    'definitions:',
    '  redis-sidecar:',
    def('1.0.0'),
    def('1.1.0'),
    def('2.0.0-rc.1'),
    'profiles:',
    '  clusters/exact.yaml:',
    '    redis-sidecar: {pin: "1.0.0", version: 1.0.0}',
    '  clusters/partial.yaml:',
    '    redis-sidecar: {pin: "1", version: 1.1.0}',
    '  clusters/prerelease.yaml:',
    '    redis-sidecar: {pin: "2.0.0-rc.1", version: 2.0.0-rc.1}',
    '  clusters/range.yaml:',
    '    redis-sidecar: {pin: "^1.1.0", version: 1.1.0}',
    '  clusters/unpinned.yaml:',
    '    redis-sidecar: {version: 1.1.0}',
    '',
  ].join('\n');
}

describe('kurel lock (docs/versions.md)', () => {
  it('writes every binding’s pin and version and every version used, sorted, and says so', async () => {
    const run = await kurel('lock', 'clusters', ...DEFS);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('wrote kurel.lock.yaml: 5 profiles, 3 definition versions');
    expect(read('kurel.lock.yaml')).toBe(expectedLock());
  });

  it('answers JSON with valid, diagnostics, the lockfile and whether it changed', async () => {
    const first = await json('lock', 'clusters', ...DEFS);
    expect(first.code).toBe(0);
    expect({ ...first.json, diagnostics: first.json.diagnostics.map(pinDiagnostic) }).toEqual({
      valid: true,
      diagnostics: [DEPRECATED],
      lockfile: 'kurel.lock.yaml',
      changed: true,
    });
    const second = await json('lock', 'clusters', ...DEFS);
    expect({ valid: second.json['valid'], changed: second.json['changed'] }).toEqual({ valid: true, changed: false });
  });

  it('writes the same bytes again, and on another layout of the same files', async () => {
    await kurel('lock', 'clusters', ...DEFS);
    const once = read('kurel.lock.yaml');
    const run = await kurel('lock', 'clusters', ...DEFS);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('kurel.lock.yaml is up to date');
    expect(read('kurel.lock.yaml')).toBe(once);
    // The same files, created one by one in the opposite order, in a folder elsewhere, named differently on the command line.
    const other = mkdtempSync(join(tmpdir(), 'kurel-lock-layout-'));
    try {
      for (const folder of ['definitions', 'clusters']) {
        mkdirSync(join(other, folder));
        for (const name of readdirSync(join(dir, folder)).reverse()) writeFileSync(join(other, folder, name), read(`${folder}/${name}`));
      }
      expect((await runKurel(['lock', 'clusters/', '--definitions', './definitions'], { cwd: other })).code).toBe(0);
      expect(readFileSync(join(other, 'kurel.lock.yaml'), 'utf8')).toBe(once);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps entries of profiles not given while their files exist, and drops those of deleted files', async () => {
    await kurel('lock', 'clusters', ...DEFS);
    rmSync(join(dir, 'clusters/prerelease.yaml'));
    const run = await kurel('lock', 'clusters/exact.yaml', ...DEFS);
    expect(run.code).toBe(0);
    const lock = read('kurel.lock.yaml');
    expect(lock).not.toContain('prerelease');
    expect(lock).not.toContain('2.0.0-rc.1');
    expect(lock).toContain('  clusters/unpinned.yaml:\n    redis-sidecar: {version: 1.1.0}\n');
  });

  it('keeps a locked version when a higher one matching the pin is published, until --update', async () => {
    await kurel('lock', 'clusters', ...DEFS);
    write('definitions/redis-sidecar-1.2.0.yaml', read('definitions/redis-sidecar-1.1.0.yaml').replace('version: 1.1.0', 'version: 1.2.0'));
    expect((await kurel('lock', 'clusters', ...DEFS)).stdout).toContain('kurel.lock.yaml is up to date');
    const lint = await json('lint', 'clusters', ...DEFS);
    expect(lint.code).toBe(0);
    const partial = (lint.json['files'] as { path: string; resolved?: { versions: object } }[]).find((f) => f.path === 'clusters/partial.yaml');
    expect(partial?.resolved?.versions).toEqual({ 'redis-sidecar': '1.1.0' });
    const outdated = await json('outdated', ...DEFS);
    expect((outdated.json['bindings'] as object[]).find((b) => (b as { path: string }).path === 'clusters/partial.yaml')).toEqual({
      path: 'clusters/partial.yaml',
      key: 'redis-sidecar',
      type: 'redis-sidecar',
      pin: '1',
      resolved: '1.1.0',
      locked: '1.1.0',
      wanted: '1.2.0',
      latest: '1.2.0',
    });
    const update = await kurel('lock', 'clusters', ...DEFS, '--update');
    expect(update.code).toBe(0);
    expect(read('kurel.lock.yaml')).toContain('  clusters/partial.yaml:\n    redis-sidecar: {pin: "1", version: 1.2.0}\n');
  });

  it('--check passes a reformatted lockfile with the same data and fails, writing nothing, when the data would change', async () => {
    await kurel('lock', 'clusters', ...DEFS);
    const reformatted = read('kurel.lock.yaml')
      .replace('# Written by kurel lock. Commit it; kurel lint and build follow it when present.\n', '')
      .replace(/\{pin: "1", version: 1\.1\.0\}/, '{version: "1.1.0", pin: "1"}');
    write('kurel.lock.yaml', reformatted);
    const pass = await kurel('lock', 'clusters', ...DEFS, '--check');
    expect(pass.code).toBe(0);
    expect(pass.stdout.trimEnd().split('\n').at(-1)).toBe('kurel.lock.yaml is up to date');
    write('clusters/partial.yaml', read('clusters/partial.yaml').replace('version: "1"', 'version: "1.0"'));
    const fail = await json('lock', 'clusters', ...DEFS, '--check');
    expect({ code: fail.code, valid: fail.json['valid'], changed: fail.json['changed'] }).toEqual({ code: 1, valid: false, changed: true });
    expect(read('kurel.lock.yaml')).toBe(reformatted);
  });

  it('refuses to write when the inputs have errors', async () => {
    write('clusters/partial.yaml', read('clusters/partial.yaml').replace('version: "1"', 'version: "9"'));
    const run = await json('lock', 'clusters', ...DEFS);
    expect(run.code).toBe(1);
    expect(run.json.diagnostics.map(pinDiagnostic)).toEqual([
      DEPRECATED,
      at('clusters/partial.yaml', 'version-not-found', 8, 16, '/spec/capabilities/redis-sidecar/version'),
    ]);
    expect(readdirSync(dir)).not.toContain('kurel.lock.yaml');
  });

  it('updates the target of a symbolic link kurel.lock.yaml and keeps the link and mode 600 (issue 25 row 11)', async () => {
    mkdirSync(join(dir, 'shared'));
    write('shared/kurel.lock.yaml', 'stale\n');
    chmodSync(join(dir, 'shared/kurel.lock.yaml'), 0o600);
    symlinkSync('shared/kurel.lock.yaml', join(dir, 'kurel.lock.yaml'));
    // A leftover of a killed run (its process gone) beside the target is removed.
    write('shared/.kurel-tmp-4194305-0-kurel.lock.yaml', 'half a lockfile');
    const run = await kurel('lock', 'clusters', ...DEFS, '--update');
    expect(run.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      'kurel.lock.yaml could not be read as a lockfile; --update writes a new one from the profiles given',
      'wrote kurel.lock.yaml: 5 profiles, 3 definition versions',
    ]);
    expect(run.code).toBe(0);
    expect(lstatSync(join(dir, 'kurel.lock.yaml')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'kurel.lock.yaml'))).toBe('shared/kurel.lock.yaml');
    expect(read('shared/kurel.lock.yaml')).toBe(expectedLock());
    expect(statSync(join(dir, 'shared/kurel.lock.yaml')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'shared'))).toEqual(['kurel.lock.yaml']);
  });

  it('leaves a folder named like a leftover beside the lockfile alone, with a warning, and writes (issue 36 row 5)', async () => {
    mkdirSync(join(dir, '.kurel-tmp-999999-0-x'));
    const run = await kurel('lock', 'clusters', ...DEFS);
    expect(run.stderr).toBe('warning: left .kurel-tmp-999999-0-x alone: a folder, not a temporary file kurel wrote\n');
    expect(run.code).toBe(0);
    expect(read('kurel.lock.yaml')).toBe(expectedLock());
    expect(readdirSync(dir)).toContain('.kurel-tmp-999999-0-x');
  });

  it('names the way out of a lockfile with merge markers, and --update writes a new one (issue 29 row 6)', async () => {
    expect((await kurel('lock', 'clusters', ...DEFS)).code).toBe(0);
    const markers = `<<<<<<< HEAD\n${read('kurel.lock.yaml')}=======\nlockfileVersion: 1\n>>>>>>> feature\n`;
    write('kurel.lock.yaml', markers);
    const refused = await kurel('lock', 'clusters', ...DEFS);
    expect(refused.code).toBe(2);
    expect(refused.stdout.trimEnd().split('\n').at(-1)).toBe(
      'kurel.lock.yaml cannot be read as a lockfile: remove it and run kurel lock to write a new one, or run kurel lock --update to replace it',
    );
    expect(read('kurel.lock.yaml')).toBe(markers);
    const replaced = await kurel('lock', 'clusters', ...DEFS, '--update');
    expect(replaced.code).toBe(0);
    expect(read('kurel.lock.yaml')).toBe(expectedLock());
  });
});

describe('the version flags', () => {
  it('refuses --check with --update, and --no-lockfile for kurel lock, as usage errors', async () => {
    for (const args of [['--check', '--update'], ['--no-lockfile']]) {
      const run = await json('lock', 'clusters', ...DEFS, ...args);
      expect({ code: run.code, codes: run.json.diagnostics.map((d) => d.code), lockfile: run.json['lockfile'] }).toEqual({
        code: 2,
        codes: ['usage'],
        lockfile: null,
      });
    }
  });

  it('refuses standard input without --stdin-filepath as a usage error, and locks it under the name given', async () => {
    const profile = read('clusters/unpinned.yaml');
    const unnamed = await runKurel(['lock', '-', ...DEFS], { cwd: dir, input: profile });
    expect(unnamed).toMatchObject({
      code: 2,
      stdout:
        '<command line>:1:1 error usage kurel lock keys each profile by its file, and standard input has none\n  hint: name it with --stdin-filepath, such as --stdin-filepath clusters/prod.yaml, or give the file instead of -\n0 files checked: 1 error, 0 warnings\n',
    });
    expect(readdirSync(dir)).not.toContain('kurel.lock.yaml');
    const named = await runKurel(['lock', '-', ...DEFS, '--stdin-filepath', 'clusters/unpinned.yaml'], { cwd: dir, input: profile });
    expect(named.code).toBe(0);
    expect(read('kurel.lock.yaml')).toContain('  clusters/unpinned.yaml:\n');
  });

  it('turns --require-pinned off with a later --no-require-pinned', async () => {
    expect((await json('lint', 'clusters/unpinned.yaml', ...DEFS, '--require-pinned')).json.diagnostics.map(pinDiagnostic)).toEqual([
      at('clusters/unpinned.yaml', 'unpinned-capability', 7, 5, '/spec/capabilities/redis-sidecar'),
    ]);
    expect((await kurel('lint', 'clusters/unpinned.yaml', ...DEFS, '--require-pinned', '--no-require-pinned')).code).toBe(0);
  });
});

describe('lint and build following the lockfile (docs/versions.md)', () => {
  beforeEach(async () => {
    expect((await kurel('lock', 'clusters', ...DEFS)).code).toBe(0);
  });

  it('reports definition-changed at the spec.version of a locked version edited in place, and kurel lock writes nothing', async () => {
    const before = read('kurel.lock.yaml');
    write('definitions/redis-sidecar-1.0.0.yaml', read('definitions/redis-sidecar-1.0.0.yaml').replace('256Mi', '512Mi'));
    const lint = await json('lint', 'clusters', ...DEFS);
    expect(lint.code).toBe(1);
    expect(lint.json.diagnostics.map(pinDiagnostic)).toEqual([
      DEPRECATED,
      at('definitions/redis-sidecar-1.0.0.yaml', 'definition-changed', 6, 12, '/spec/version'),
    ]);
    expect(lint.json.diagnostics[1]!.message).toMatch(
      /^definition "redis-sidecar" 1\.0\.0 in definitions\/redis-sidecar-1\.0\.0\.yaml differs from the one kurel\.lock\.yaml locks \(sha256:[0-9a-f]{12}… locked, sha256:[0-9a-f]{12}… loaded\): a published version is immutable$/,
    );
    expect((await kurel('lock', 'clusters', ...DEFS)).code).toBe(1);
    expect(read('kurel.lock.yaml')).toBe(before);
    expect((await kurel('lock', 'clusters', ...DEFS, '--update')).code).toBe(0);
    expect(read('kurel.lock.yaml')).toContain(digestOf('definitions/redis-sidecar-1.0.0.yaml'));
    expect((await kurel('lint', 'clusters', ...DEFS)).code).toBe(0);
  });

  it('ignores spec.deprecation when comparing digests', async () => {
    write(
      'definitions/redis-sidecar-1.1.0.yaml',
      read('definitions/redis-sidecar-1.1.0.yaml').replace('  version: 1.1.0\n', '  version: 1.1.0\n  deprecation: use 2\n'),
    );
    const lint = await json('lint', 'clusters/partial.yaml', ...DEFS);
    expect(lint.json.diagnostics.map((d) => d.code)).toEqual(['version-deprecated']);
  });

  it('reports lock-outdated at a changed pin, at the key of a pin removed, and at 1:1 of a profile the lock does not list', async () => {
    write('clusters/partial.yaml', read('clusters/partial.yaml').replace('version: "1"', 'version: "1.1"'));
    write('clusters/range.yaml', read('clusters/range.yaml').replace('      version: "^1.1.0"\n', ''));
    write('clusters/new.yaml', read('clusters/unpinned.yaml').replace('name: unpinned', 'name: new'));
    const lint = await json('lint', 'clusters', ...DEFS);
    expect(lint.code).toBe(1);
    expect(lint.json.diagnostics.map(pinDiagnostic)).toEqual([
      DEPRECATED,
      at('clusters/new.yaml', 'lock-outdated', 1, 1, ''),
      at('clusters/partial.yaml', 'lock-outdated', 8, 16, '/spec/capabilities/redis-sidecar/version'),
      at('clusters/range.yaml', 'lock-outdated', 7, 5, '/spec/capabilities/redis-sidecar'),
    ]);
    expect(lint.json.diagnostics.map((d) => d.message).slice(1)).toEqual([
      'clusters/new.yaml is not in kurel.lock.yaml',
      'capability "redis-sidecar" is pinned 1.1 but kurel.lock.yaml locked it pinned 1',
      'capability "redis-sidecar" is unpinned but kurel.lock.yaml locked it pinned ^1.1.0',
    ]);
    expect(lint.json.diagnostics[1]!.hint).toBe('run kurel lock');
    // kurel lock raises no lock-outdated on its own inputs: it resolves them afresh.
    expect((await kurel('lock', 'clusters', ...DEFS)).code).toBe(0);
    expect((await kurel('lint', 'clusters', ...DEFS)).code).toBe(0);
  });

  it('reports lock-outdated when a locked version is no longer loaded', async () => {
    rmSync(join(dir, 'definitions/redis-sidecar-2.0.0-rc.1.yaml'));
    const lint = await json('lint', 'clusters/prerelease.yaml', ...DEFS);
    expect(lint.json.diagnostics.map(pinDiagnostic)).toEqual([
      at('clusters/prerelease.yaml', 'lock-outdated', 8, 16, '/spec/capabilities/redis-sidecar/version'),
      at('clusters/prerelease.yaml', 'version-not-found', 8, 16, '/spec/capabilities/redis-sidecar/version'),
    ]);
  });

  it('ignores the lockfile with --no-lockfile', async () => {
    write('definitions/redis-sidecar-1.0.0.yaml', read('definitions/redis-sidecar-1.0.0.yaml').replace('256Mi', '512Mi'));
    expect((await kurel('lint', 'clusters', ...DEFS, '--no-lockfile')).code).toBe(0);
  });

  it('resolves standard input without --stdin-filepath as if unlocked, and with one under its name', async () => {
    const profile = read('clusters/partial.yaml').replace('version: "1"', 'version: "1.1"');
    const unnamed = await runKurel(['lint', '-', ...DEFS, '--format', 'json'], { cwd: dir, input: profile });
    expect(JSON.parse(unnamed.stdout).valid).toBe(true);
    const named = await runKurel(['lint', '-', ...DEFS, '--stdin-filepath', 'clusters/partial.yaml', '--format', 'json'], { cwd: dir, input: profile });
    expect(JSON.parse(named.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual(['lock-outdated']);
  });

  it('builds against the locked versions', async () => {
    write('definitions/redis-sidecar-1.2.0.yaml', read('definitions/redis-sidecar-1.1.0.yaml').replace('version: 1.1.0', 'version: 1.2.0'));
    const run = await json('build', '.', '--profile', 'clusters/partial.yaml', '--plugin', './plugins/redis-sidecar.mjs');
    expect(run.code).toBe(0);
    const trait = (run.json['application'] as { components: { traits: { capabilityVersion: string }[] }[] }).components[0]!.traits[0]!;
    expect(trait.capabilityVersion).toBe('1.1.0');
  });
});

describe('a malformed lockfile (docs/versions.md)', () => {
  it.each([
    ['kind: [', 'yaml-syntax', 1, 8, ''],
    ['lockfileVersion: 1\napiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\ndefinitions: {}\nprofiles: {}\n', 'invalid-value', 3, 7, '/kind'],
    [
      'lockfileVersion: 2\napiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityLock\ndefinitions: {}\nprofiles: {}\n',
      'invalid-value',
      1,
      18,
      '/lockfileVersion',
    ],
    [
      'lockfileVersion: 1\napiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityLock\ndefinitions:\n  x:\n    v1.0.0: {digest: "sha256:0", file: a.yaml}\nprofiles: {}\n',
      'invalid-key',
      6,
      5,
      '/definitions/x/v1.0.0',
    ],
    [
      'lockfileVersion: 1\napiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityLock\ndefinitions: {}\nprofiles:\n  a.yaml:\n    x: {pin: latest, version: 1.0.0}\n',
      'invalid-value',
      7,
      14,
      '/profiles/a.yaml/x/pin',
    ],
    ['', 'empty-document', 1, 1, ''],
  ])('is positioned in the lockfile and exits 2: %j', async (text, code, line, column, path) => {
    write('kurel.lock.yaml', text);
    const lint = await json('lint', 'clusters', ...DEFS);
    expect(lint.code).toBe(2);
    expect(lint.json.diagnostics.map(pinDiagnostic)).toContainEqual(at('kurel.lock.yaml', code, line, column, path));
  });

  it('names a lockfile outside the working directory in full', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kurel-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'kurel.lock.yaml'), 'kind: [');
      const lint = await json('lint', 'clusters', ...DEFS, '--lockfile', join(elsewhere, 'kurel.lock.yaml'));
      expect(lint.code).toBe(2);
      expect(lint.json.diagnostics.map((d) => d.file)).toContain(join(elsewhere, 'kurel.lock.yaml'));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('exits 2 when a named lockfile does not exist', async () => {
    const lint = await json('lint', 'clusters', ...DEFS, '--lockfile', 'missing.lock.yaml');
    expect(lint.code).toBe(2);
    expect(lint.json.diagnostics.map(pinDiagnostic)).toContainEqual(at('missing.lock.yaml', 'io-error', 1, 1, ''));
  });
});

describe('kurel outdated (docs/versions.md)', () => {
  it('lists every binding of a versioned definition with its pin, resolved, locked, wanted and latest versions', async () => {
    const run = await json('outdated', 'clusters', ...DEFS);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json)).toEqual(['valid', 'diagnostics', 'bindings']);
    const row = (path: string, pin: string | null, version: string, wanted: string) => ({
      path: `clusters/${path}.yaml`,
      key: 'redis-sidecar',
      type: 'redis-sidecar',
      pin,
      resolved: version,
      locked: null,
      wanted,
      latest: '1.1.0',
    });
    expect(run.json['bindings']).toEqual([
      row('exact', '1.0.0', '1.0.0', '1.0.0'),
      row('partial', '1', '1.1.0', '1.1.0'),
      row('prerelease', '2.0.0-rc.1', '2.0.0-rc.1', '2.0.0-rc.1'),
      row('range', '^1.1.0', '1.1.0', '1.1.0'),
      row('unpinned', null, '1.1.0', '1.1.0'),
    ]);
  });

  it('--check exits 1 when a binding resolves below WANTED or LATEST, and 0 when none does (issue 29)', async () => {
    const behind = await kurel('outdated', 'clusters/exact.yaml', 'clusters/partial.yaml', ...DEFS, '--check');
    expect(behind.code).toBe(1);
    expect(behind.stderr.split('\n').slice(-2)).toEqual(['1 of 2 bindings outdated: below WANTED or LATEST', '']);
    const current = await kurel('outdated', 'clusters/partial.yaml', 'clusters/prerelease.yaml', ...DEFS, '--check');
    expect({ code: current.code, stderr: current.stderr }).toEqual({ code: 0, stderr: '' });
    // Without --check, an outdated binding is only shown.
    expect((await kurel('outdated', 'clusters/exact.yaml', ...DEFS)).code).toBe(0);
    const locked = await json('outdated', 'clusters/exact.yaml', ...DEFS, '--check');
    expect({ code: locked.code, valid: locked.json['valid'] }).toEqual({ code: 1, valid: false });
  });

  it('prints the same as a table, and without paths reads the profiles the lockfile lists', async () => {
    await kurel('lock', 'clusters/exact.yaml', 'clusters/unpinned.yaml', ...DEFS);
    const run = await kurel('outdated', ...DEFS);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'PATH                    KEY            TYPE           PIN    RESOLVED  LOCKED  WANTED  LATEST',
        'clusters/exact.yaml     redis-sidecar  redis-sidecar  1.0.0  1.0.0     1.0.0   1.0.0   1.1.0',
        'clusters/unpinned.yaml  redis-sidecar  redis-sidecar  -      1.1.0     1.1.0   1.1.0   1.1.0',
        '',
      ].join('\n'),
    );
  });

  it('exits 2 without paths and without a lockfile', async () => {
    const run = await json('outdated', ...DEFS);
    expect(run.code).toBe(2);
    expect(run.json.diagnostics.map((d) => d.code)).toEqual(['usage']);
    // The usage error alone: no table.
    expect(await kurel('outdated', ...DEFS)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: '<command line>:1:1 error usage kurel outdated needs profiles to read: name them, or run it where a lockfile lists them\n',
    });
  });

  it('says so, instead of a bare header, when no binding is of a versioned definition', async () => {
    write('clusters/plain.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: plain\nspec:\n  capabilities: {}\n');
    expect(await kurel('outdated', 'clusters/plain.yaml', ...DEFS)).toEqual({
      code: 0,
      stdout: 'no binding of a versioned definition in the profiles read\n',
      stderr: '',
    });
  });
});
