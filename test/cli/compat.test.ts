import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { definitionText } from '../versions/helpers.js';

// Files (definitionText: `version` on line 6, properties from line 10, keys at column 7):
// defs/ holds cache 1.0.0, 1.1.0 (raises a minimum: breaking, declared minor) and 2.0.0-rc.1;
// ok/ holds two releases that declare what they need; broken/ an invalid version.
let dir: string;

const IMAGE = 'image: {type: string, required: true}';

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-compat-'));
  write('defs/cache-1.0.0.yaml', definitionText('cache', '1.0.0', [IMAGE, 'port: {type: integer, minimum: 1}']));
  write('defs/cache-1.1.0.yaml', definitionText('cache', '1.1.0', [IMAGE, 'port: {type: integer, minimum: 1024}']));
  write('defs/cache-2.0.0-rc.1.yaml', definitionText('cache', '2.0.0-rc.1', [IMAGE]));
  write('ok/cache-1.0.0.yaml', definitionText('cache', '1.0.0', [IMAGE]));
  write('ok/cache-1.1.0.yaml', definitionText('cache', '1.1.0', [IMAGE, 'tag: {type: string}']));
  write('ok/redis-1.0.0.yaml', definitionText('redis', '1.0.0', [IMAGE]));
  write('broken/cache-1.0.0.yaml', definitionText('cache', '1.0.0', [IMAGE]));
  write('broken/cache-1.1.0.yaml', definitionText('cache', '1.1.0', ['image: {type: string, minimum: 1}']));
  write('taken/cache-1.0.0.yaml', definitionText('cache', '1.0.0', [IMAGE, 'port: {type: integer, minimum: 1}']));
  write('taken/cache-1.1.0.yaml', definitionText('cache', '1.1.0', [IMAGE, 'port: {type: integer, minimum: 1}', 'tag: {type: string}']));
  write('taken/cache-1.2.0.yaml', definitionText('cache', '1.2.0', [IMAGE, 'port: {type: integer, minimum: 1024}', 'tag: {type: string}']));
  write('taken/cache-2.0.0.yaml', definitionText('cache', '2.0.0', [IMAGE, 'port: {type: integer, minimum: 1024}', 'tag: {type: string}']));
  write('same/a.yaml', definitionText('cache', '1.0.0', [IMAGE]));
  write('same/b.yaml', definitionText('cache', '1.0.0', [IMAGE, 'tag: {type: string}']));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const compat = (args: string[]) => runKurel(['compat', ...args], { cwd: dir });

describe('kurel compat --definitions: text output and exit codes (docs/compat.md)', () => {
  it('prints each pair with the bump it declares and needs, its findings, and a hint for a failing one; exit 1', async () => {
    const run = await compat(['--definitions', 'defs']);
    expect(run.stdout).toBe(
      [
        'cache 1.0.0 → 1.1.0 declares minor; needs major: 1 breaking change',
        '  defs/cache-1.1.0.yaml:11:29 breaking port: minimum raised from 1 to 1024',
        '  hint: release it as 2.0.0',
        'cache 1.1.0 → 2.0.0-rc.1 declares major; needs major: 1 breaking change (a prerelease: reported, never failing)',
        '  defs/cache-1.1.0.yaml:11:7 breaking property port removed',
        '2 pairs compared: 1 not ok',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
  });

  it('suggests a version no release has: 3.0.0 when 2.0.0 is out', async () => {
    const run = await compat(['--definitions', 'taken']);
    expect(run.stdout.split('\n').slice(2, 5)).toEqual([
      'cache 1.1.0 → 1.2.0 declares minor; needs major: 1 breaking change',
      '  taken/cache-1.2.0.yaml:11:29 breaking port: minimum raised from 1 to 1024',
      '  hint: release it as 3.0.0',
    ]);
    expect(run.code).toBe(1);
    const json = JSON.parse((await compat(['--definitions', 'taken', '--format', 'json'])).stdout) as { pairs: { to: string; releaseAs?: string }[] };
    expect(json.pairs.map((p) => [p.to, p.releaseAs])).toEqual([
      ['1.1.0', undefined],
      ['1.2.0', '3.0.0'],
      ['2.0.0', undefined],
    ]);
  });

  it('exits 0 when every pair declares the bump it needs, and takes names and flags in any order', async () => {
    const expected = [
      'cache 1.0.0 → 1.1.0 declares minor; needs minor: 1 compatible change',
      '  ok/cache-1.1.0.yaml:11:7 compatible new optional property tag',
    ];
    const all = await compat(['--definitions', 'ok']);
    expect([all.code, all.stdout]).toEqual([0, `${[...expected, '1 pair compared: all ok'].join('\n')}\n`]);
    const named = await compat(['cache', '--definitions', 'ok']);
    expect([named.code, named.stdout]).toEqual([0, all.stdout]);
    const other = await compat(['--definitions', 'ok', 'redis']);
    expect([other.code, other.stdout]).toEqual([0, '0 pairs compared\n']);
  });

  it('exits 1, not 2, for a definition with errors, reporting it with the pairs it does not stop', async () => {
    const run = await compat(['--definitions', 'broken']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        'broken/cache-1.1.0.yaml:10:29 error definition-invalid minimum does not fit image of type string: it applies to integer or number',
        '        image: {type: string, minimum: 1}',
        '                              ^^^^^^^',
        '0 pairs compared; 1 error, 0 warnings',
        '',
      ].join('\n'),
    );
  });

  it('fails two different documents of one version with definition-changed, naming the version to publish', async () => {
    const run = await compat(['--definitions', 'same']);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^same\/b\.yaml:6:12 error definition-changed definition "cache" 1\.0\.0 in same\/b\.yaml differs from the one in same\/a\.yaml \(/,
    );
    expect(lines.slice(1)).toEqual([
      '    version: 1.0.0',
      '             ^^^^^',
      '  hint: publish the change as 1.1.0',
      'same/b.yaml:11:7 error definition-conflict definition "cache" 1.0.0 in same/b.yaml conflicts with the one in same/a.yaml: they first differ at spec.rendering.properties.tag ({"type":"string"} in same/b.yaml, absent in same/a.yaml); neither is used',
      '        tag: {type: string}',
      '        ^^^',
      'cache 1.0.0 → 1.0.0 declares none; needs minor: 1 compatible change',
      '  same/b.yaml:11:7 compatible new optional property tag',
      '  hint: release it as 1.1.0',
      '1 pair compared: 1 not ok; 2 errors, 0 warnings',
      '',
    ]);
  });
});

describe('kurel compat: JSON and GitHub output (docs/compat.md)', () => {
  it('prints {valid, diagnostics, pairs} with every finding positioned', async () => {
    const run = await compat(['--definitions', 'defs', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      diagnostics: [],
      pairs: [
        {
          name: 'cache',
          from: '1.0.0',
          to: '1.1.0',
          declared: 'minor',
          needed: 'major',
          ok: false,
          releaseAs: '2.0.0',
          findings: [
            {
              class: 'breaking',
              path: '/spec/rendering/properties/port/minimum',
              message: 'port: minimum raised from 1 to 1024',
              file: 'defs/cache-1.1.0.yaml',
              line: 11,
              column: 29,
            },
          ],
        },
        {
          name: 'cache',
          from: '1.1.0',
          to: '2.0.0-rc.1',
          declared: 'major',
          needed: 'major',
          ok: true,
          findings: [
            {
              class: 'breaking',
              path: '/spec/rendering/properties/port',
              message: 'property port removed',
              file: 'defs/cache-1.1.0.yaml',
              line: 11,
              column: 7,
            },
          ],
        },
      ],
    });
  });

  it('is valid exactly when the exit code is 0', async () => {
    const run = await compat(['ok/cache-1.0.0.yaml', 'ok/cache-1.1.0.yaml', '--format', 'json']);
    expect([run.code, JSON.parse(run.stdout).valid]).toEqual([0, true]);
  });

  it('annotates each finding for GitHub: an error where it needs more than the pair declares, else a notice', async () => {
    const run = await compat(['--definitions', 'defs', '--format', 'github']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        'cache 1.0.0 → 1.1.0 declares minor; needs major: 1 breaking change',
        '::error file=defs/cache-1.1.0.yaml,line=11,col=29,title=kurel compat breaking::cache 1.0.0 → 1.1.0: port: minimum raised from 1 to 1024 (needs major; the versions declare minor)',
        'cache 1.1.0 → 2.0.0-rc.1 declares major; needs major: 1 breaking change (a prerelease: reported, never failing)',
        '::notice file=defs/cache-1.1.0.yaml,line=11,col=7,title=kurel compat breaking::cache 1.1.0 → 2.0.0-rc.1: property port removed',
        '',
      ].join('\n'),
    );
  });

  it('annotates the problems of the documents as lint does', async () => {
    const run = await compat(['--definitions', 'broken', '--format', 'github']);
    expect(run.stdout).toBe(
      '::error file=broken/cache-1.1.0.yaml,line=10,col=29,endLine=10,endColumn=35,title=definition-invalid::minimum does not fit image of type string: it applies to integer or number\n',
    );
  });
});

describe('kurel compat: modes and bad usage (docs/versions.md)', () => {
  it('compares two files in SemVer order whatever the argument order', async () => {
    const run = await compat(['defs/cache-1.1.0.yaml', 'defs/cache-1.0.0.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe('cache 1.0.0 → 1.1.0 declares minor; needs major: 1 breaking change');
  });

  it('reads two existing files as names when --definitions is given', async () => {
    const run = await compat(['ok/cache-1.0.0.yaml', 'ok/cache-1.1.0.yaml', '--definitions', 'ok']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      '<command line>:1:1 error usage no definition named "ok/cache-1.0.0.yaml", "ok/cache-1.1.0.yaml": the definitions given hold cache, redis\n',
    );
  });

  it('is exit 2 to compare definitions of two names', async () => {
    const run = await compat(['ok/cache-1.0.0.yaml', 'ok/redis-1.0.0.yaml', '--format', 'json']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: false, pairs: [], diagnostics: [{ code: 'usage', file: '<command line>' }] });
  });

  it.each([
    [
      ['cache'],
      'kurel compat compares two CapabilityDefinition files, or the versions of names found with --definitions DIR; found 1 argument and no --definitions',
    ],
    [[], 'kurel compat needs two CapabilityDefinition files, or --definitions DIR to compare every version of the names found there'],
  ])('is exit 2 for names with nowhere to look them up: %j', async (args, message) => {
    const run = await compat(args);
    expect([run.code, run.stdout]).toEqual([2, `<command line>:1:1 error usage ${message}\n`]);
  });

  it('is exit 2 with an io-error for a file that does not exist, or a definitions folder that cannot be read', async () => {
    const missing = await compat(['ok/cache-1.0.0.yaml', 'ok/cache-9.yaml']);
    expect([missing.code, missing.stdout]).toEqual([2, 'ok/cache-9.yaml: error io-error cannot read ok/cache-9.yaml: no such file\n']);
    const folder = await compat(['--definitions', 'nowhere', '--format', 'json']);
    expect(folder.code).toBe(2);
    expect(JSON.parse(folder.stdout)).toMatchObject({ valid: false, pairs: [], diagnostics: [{ code: 'io-error' }] });
  });

  it('prints the compat envelope for a command-line error with --format json', async () => {
    const run = await compat(['--definitions', 'ok', '--format', 'json', '--bogus']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      diagnostics: [
        {
          code: 'usage',
          severity: 'error',
          message: "unknown option '--bogus'",
          file: '<command line>',
          line: 1,
          column: 1,
          endLine: 1,
          endColumn: 1,
          path: '',
        },
      ],
      pairs: [],
    });
  });
});
