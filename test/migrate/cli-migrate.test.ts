import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { pinDiagnostic } from '../helpers/pin.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/migrate/', import.meta.url));
const TO_2 = ['--definitions', 'definitions', '--to', 'redis-sidecar@2.0.0'];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-migrate-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const kurel = (...args: string[]) => runKurel(args, { cwd: dir });
const read = (file: string) => readFileSync(join(dir, file), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(dir, file), text);

const PROD = readFileSync(join(FIXTURE, 'clusters/prod.yaml'), 'utf8');
const STAGING = readFileSync(join(FIXTURE, 'clusters/staging.yaml'), 'utf8');
const PROD_AT_2 = PROD.replace('version: "1.1"', 'version: "2.0.0"').replace('maxMemory: 2Gi', 'memoryLimit: 2Gi');
const STAGING_AT_2 = STAGING.replace('"1.1.0"', '"2.0.0"').replace('maxMemory', 'memoryLimit');

const PROD_DIFF = [
  '--- a/clusters/prod.yaml',
  '+++ b/clusters/prod.yaml',
  '@@ -6,9 +6,9 @@',
  ' spec:',
  '   capabilities:',
  '     redis-sidecar:',
  '-      version: "1.1"      # the 1.1 line until the cache team signs off 2.0',
  '+      version: "2.0.0"      # the 1.1 line until the cache team signs off 2.0',
  '       rendering:',
  '         image: redis:7.2  # pinned for CVE-2024-31449',
  '         # 2Gi: the session store peaks at 1.6Gi',
  '-        maxMemory: 2Gi    # do not lower',
  '+        memoryLimit: 2Gi    # do not lower',
  '         port: 6380',
  '',
].join('\n');
const STAGING_DIFF = [
  '--- a/clusters/staging.yaml',
  '+++ b/clusters/staging.yaml',
  '@@ -4,4 +4,4 @@',
  '   name: staging',
  ' spec:',
  '   capabilities:',
  '-    redis-sidecar: {version: "1.1.0", rendering: {image: "redis:7.2", maxMemory: 512Mi}}',
  '+    redis-sidecar: {version: "2.0.0", rendering: {image: "redis:7.2", memoryLimit: 512Mi}}',
  '',
].join('\n');

describe('kurel migrate', () => {
  it('prints the unified diff of every file that would change, and writes nothing', async () => {
    const run = await kurel('migrate', 'clusters', ...TO_2);
    expect(run).toEqual({ code: 0, stdout: PROD_DIFF + STAGING_DIFF, stderr: '2 files would change; run again with --write to rewrite them\n' });
    expect(read('clusters/prod.yaml')).toBe(PROD);
  });

  it('--check exits 1 while a file would change, and 0 once the files are migrated', async () => {
    expect(await kurel('migrate', 'clusters', ...TO_2, '--check')).toEqual({
      code: 1,
      stdout: PROD_DIFF + STAGING_DIFF,
      stderr: '2 files would change: run kurel migrate with --write\n',
    });
    expect(await kurel('migrate', 'clusters', ...TO_2, '--write')).toEqual({
      code: 0,
      stdout: PROD_DIFF + STAGING_DIFF,
      stderr: 'migrated 2 files: clusters/prod.yaml, clusters/staging.yaml\n',
    });
    expect(read('clusters/prod.yaml')).toBe(PROD_AT_2);
    expect(read('clusters/staging.yaml')).toBe(STAGING_AT_2);
    expect(await kurel('migrate', 'clusters', ...TO_2, '--check')).toEqual({
      code: 0,
      stdout: '',
      stderr: 'nothing to migrate: every binding is already at the version asked for\n',
    });
    expect(await kurel('lint', 'clusters', '--definitions', 'definitions')).toMatchObject({ code: 0 });
  });

  it('prints one JSON document: valid, diagnostics, files sorted by path with their diffs, written, lockOutdated', async () => {
    const run = await kurel('migrate', 'clusters/staging.yaml', 'clusters/prod.yaml', ...TO_2, '--format', 'json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: true,
      diagnostics: [],
      files: [
        { path: 'clusters/prod.yaml', changed: true, diff: PROD_DIFF },
        { path: 'clusters/staging.yaml', changed: true, diff: STAGING_DIFF },
      ],
      written: false,
      lockOutdated: false,
    });
  });

  it('writes nothing when any file has an error, not even the files without one', async () => {
    const run = await kurel('migrate', 'clusters', '--definitions', 'definitions', '--to', 'redis-sidecar@1.0.0', '--write', '--format', 'json');
    expect(run.code).toBe(1);
    const envelope = JSON.parse(run.stdout);
    expect(envelope).toMatchObject({ valid: false, written: false, lockOutdated: false });
    expect(envelope.diagnostics.map(pinDiagnostic)).toEqual([
      { code: 'migration-lossy', severity: 'error', file: 'clusters/prod.yaml', line: 14, column: 9, path: '/spec/capabilities/redis-sidecar/rendering/port' },
    ]);
    expect(read('clusters/prod.yaml')).toBe(PROD);
    expect(read('clusters/staging.yaml')).toBe(STAGING);
  });

  it('prints a lossy error under its source line, and drops the value with --lossy', async () => {
    const run = await kurel('migrate', 'clusters/prod.yaml', '--definitions', 'definitions', '--to', 'redis-sidecar@1.0.0');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        'clusters/prod.yaml:14:9 error migration-lossy capability "redis-sidecar": migrating from 1.1.0 to 1.0.0 drops port (integer 6380): redis-sidecar 1.0.0 has no port',
        '          port: 6380',
        '          ^^^^',
        '  hint: allow the loss with --lossy (HTTP: "lossy": true), or remove the key first',
        '1 file checked: 1 error, 0 warnings',
        'the migration has errors: fix them before writing it',
        '',
      ].join('\n'),
    );
    const lossy = await kurel('migrate', 'clusters/prod.yaml', '--definitions', 'definitions', '--to', 'redis-sidecar@1.0.0', '--lossy', '--write');
    expect(lossy.code).toBe(0);
    expect(read('clusters/prod.yaml')).toBe(PROD.replace('version: "1.1"', 'version: "1.0.0"').replace('        port: 6380\n', ''));
  });

  it('keeps the byte order mark, the line endings and the mode, and writes through a symbolic link', async () => {
    mkdirSync(join(dir, 'real'));
    write('real/crlf.yaml', `\ufeff${STAGING.replaceAll('\n', '\r\n')}`);
    chmodSync(join(dir, 'real/crlf.yaml'), 0o640);
    symlinkSync('../real/crlf.yaml', join(dir, 'clusters/linked.yaml'));
    renameSync(join(dir, 'clusters/staging.yaml'), join(dir, 'staging.yaml'));
    const run = await kurel('migrate', 'clusters/linked.yaml', ...TO_2, '--write');
    expect(run.code).toBe(0);
    expect(lstatSync(join(dir, 'clusters/linked.yaml')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'clusters/linked.yaml'))).toBe('../real/crlf.yaml');
    expect(read('real/crlf.yaml')).toBe(`\ufeff${STAGING_AT_2.replaceAll('\n', '\r\n')}`);
    expect(statSync(join(dir, 'real/crlf.yaml')).mode & 0o777).toBe(0o640);
  });

  it('keeps mode 600, and removes the temporary files a killed run left beside its files (issue 25 row 6)', async () => {
    chmodSync(join(dir, 'clusters/prod.yaml'), 0o600);
    write('clusters/.kurel-tmp-4194305-0-prod.yaml', 'half a profile');
    write('clusters/.kurel-tmp-4194305-1-staging.yaml', '');
    const run = await kurel('migrate', 'clusters', ...TO_2, '--write');
    expect(run).toMatchObject({ code: 0, stderr: 'migrated 2 files: clusters/prod.yaml, clusters/staging.yaml\n' });
    expect(readdirSync(join(dir, 'clusters')).sort()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(statSync(join(dir, 'clusters/prod.yaml')).mode & 0o777).toBe(0o600);
    expect(read('clusters/prod.yaml')).toBe(PROD_AT_2);
  });

  it('leaves a folder or a link named like a leftover alone, with a warning naming it, and still writes (issue 36 row 5)', async () => {
    mkdirSync(join(dir, 'clusters/.kurel-tmp-999999-0-x'));
    symlinkSync('prod.yaml', join(dir, 'clusters/.kurel-tmp-999999-1-y'));
    const run = await kurel('migrate', 'clusters/prod.yaml', ...TO_2, '--write');
    expect(run).toMatchObject({
      code: 0,
      stderr: [
        'warning: left clusters/.kurel-tmp-999999-0-x alone: a folder, not a temporary file kurel wrote',
        'warning: left clusters/.kurel-tmp-999999-1-y alone: a symbolic link, not a temporary file kurel wrote',
        'migrated 1 file: clusters/prod.yaml',
        '',
      ].join('\n'),
    });
    expect(read('clusters/prod.yaml')).toBe(PROD_AT_2);
    expect(readdirSync(join(dir, 'clusters')).sort()).toEqual(['.kurel-tmp-999999-0-x', '.kurel-tmp-999999-1-y', 'prod.yaml', 'staging.yaml']);
  });

  it('names an absolute path under a/ and b/ in the diff header, with one slash (issue 29 row 14)', async () => {
    const run = await kurel('migrate', join(dir, 'clusters/staging.yaml'), ...TO_2);
    const named = join(dir, 'clusters/staging.yaml').slice(1);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([`--- a/${named}`, `+++ b/${named}`]);
  });

  it('escapes control characters of the files in the diff it prints', async () => {
    write('clusters/staging.yaml', STAGING.replace('spec:', 'spec: # \u001b[2J\u202e'));
    const run = await kurel('migrate', 'clusters/staging.yaml', ...TO_2);
    expect(run.stdout).toContain(' spec: # \\u001b[2J\\u202e\n');
    expect(run.stdout).not.toContain('\u001b');
  });

  it('suggests the name meant by an unknown --to, and refuses a range: --to names one exact version', async () => {
    const typo = await kurel('migrate', 'clusters', '--definitions', 'definitions', '--to', 'redis-sidekar@2.0.0');
    expect(typo).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        '<command line>:1:1 error usage no CapabilityDefinition of redis-sidekar is loaded, so redis-sidekar@2.0.0 cannot be migrated to\n  hint: did you mean redis-sidecar?\n',
    });
    const before = read('clusters/staging.yaml');
    const range = await kurel('migrate', 'clusters/staging.yaml', '--definitions', 'definitions', '--to', 'redis-sidecar@^2', '--write');
    expect(range).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        '<command line>:1:1 error usage --to "redis-sidecar@^2" must name one exact version of redis-sidecar: version must be a SemVer version MAJOR.MINOR.PATCH such as 1.2.0 or 2.0.0-rc.1 (no leading v, no build metadata), found "^2"\n',
    });
    expect(read('clusters/staging.yaml')).toBe(before);
  });

  it.each([
    [['--to', 'redis-sidecar'], '--to "redis-sidecar" must be NAME@VERSION, such as redis-sidecar@2.0.0'],
    [
      ['--to', 'redis-sidecar@2.0.0', '--to', 'redis-sidecar@1.0.0'],
      '--to redis-sidecar is named twice (2.0.0 and 1.0.0); a run moves each name to one version',
    ],
    [['--to', 'redis-sidecar@3.0.0'], 'redis-sidecar has no version 3.0.0; it has 1.0.0, 1.1.0, 2.0.0'],
    [['--to', 'cache@1.0.0'], 'no CapabilityDefinition of cache is loaded, so cache@1.0.0 cannot be migrated to'],
  ])('makes %j a usage error (exit 2)', async (flags, message) => {
    const run = await kurel('migrate', 'clusters', '--definitions', 'definitions', ...flags, '--format', 'json');
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      diagnostics: [{ code: 'usage', severity: 'error', message, file: '<command line>', line: 1, column: 1, endLine: 1, endColumn: 1, path: '' }],
      files: [],
      written: false,
      lockOutdated: false,
    });
  });

  it('refuses --write with --check, no --to, and --write of standard input', async () => {
    expect((await kurel('migrate', 'clusters', ...TO_2, '--write', '--check')).code).toBe(2);
    expect((await kurel('migrate', 'clusters', '--definitions', 'definitions')).code).toBe(2);
    const stdin = await runKurel(['migrate', '-', ...TO_2, '--write'], { cwd: dir, input: STAGING });
    expect(stdin).toMatchObject({ code: 2, stderr: '<command line>:1:1 error usage --write cannot rewrite standard input; name the file instead\n' });
    const dry = await runKurel(['migrate', '-', ...TO_2, '--stdin-filepath', 'clusters/staging.yaml'], { cwd: dir, input: STAGING });
    expect(dry).toMatchObject({
      code: 0,
      stdout: STAGING_DIFF,
      stderr: 'standard input would change; standard input cannot be rewritten: run kurel migrate again with --write, naming its file instead of -\n',
    });
    // With a file besides: the advice still says what --write cannot do.
    const both = await runKurel(['migrate', '-', 'clusters/prod.yaml', ...TO_2], { cwd: dir, input: STAGING });
    expect(both).toMatchObject({
      code: 0,
      stderr: '2 files would change; standard input cannot be rewritten: run kurel migrate again with --write, naming its file instead of -\n',
    });
  });
});

describe('kurel migrate and the lockfile', () => {
  it('never reports lock-outdated, and says to run kurel lock once the files it wrote leave the lock behind', async () => {
    expect((await kurel('lock', 'clusters/staging.yaml', '--definitions', 'definitions')).code).toBe(0);
    // prod.yaml is not in the lockfile: lint would call that lock-outdated, migrate does not.
    const run = await kurel('migrate', 'clusters', ...TO_2, '--format', 'json');
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, diagnostics: [], written: false, lockOutdated: true });
    const written = await kurel('migrate', 'clusters', ...TO_2, '--write');
    expect(written).toMatchObject({ code: 0, stderr: 'migrated 2 files: clusters/prod.yaml, clusters/staging.yaml\nrun kurel lock\n' });
    expect((await kurel('lint', 'clusters/staging.yaml', '--definitions', 'definitions')).code).toBe(1);
    expect((await kurel('lock', 'clusters/staging.yaml', '--definitions', 'definitions')).code).toBe(0);
    expect((await kurel('lint', 'clusters/staging.yaml', '--definitions', 'definitions')).code).toBe(0);
  });

  it('starts from the locked version, not from the highest the pin allows', async () => {
    write('clusters/staging.yaml', STAGING.replace('"1.1.0"', '"1"').replace(', maxMemory: 512Mi', ''));
    const published = read('definitions/redis-sidecar-1.1.0.yaml');
    rmSync(join(dir, 'definitions/redis-sidecar-1.1.0.yaml'));
    expect((await kurel('lock', 'clusters/staging.yaml', '--definitions', 'definitions')).code).toBe(0);
    // 1.1.0 is published after the lock, with another default for maxMemory.
    write('definitions/redis-sidecar-1.1.0.yaml', published.replace('maxMemory: {type: string, default: 256Mi}', 'maxMemory: {type: string, default: 512Mi}'));
    const migrate = (...flags: string[]) =>
      kurel('migrate', 'clusters/staging.yaml', '--definitions', 'definitions', '--to', 'redis-sidecar@1.1.0', '--format', 'json', ...flags);
    const locked = JSON.parse((await migrate()).stdout);
    expect(locked.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message])).toEqual([
      [
        'migration-default-changed',
        'capability "redis-sidecar": maxMemory is not set, and its default changes from "256Mi" in redis-sidecar 1.0.0 to "512Mi" in 1.1.0',
      ],
    ]);
    expect(JSON.parse((await migrate('--no-lockfile')).stdout).diagnostics).toEqual([]);
  });
});
