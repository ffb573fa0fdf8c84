import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';

// kurel lint's --search-files (docs/editors.md, pre-commit: the files a hook names are read as a
// folder's files are) and --paths-relative-to (docs/ci.md: reports name files from the
// repository's root when lint runs in a folder of it).

const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';
const MISSPELT = PROFILE.replace('kind: ClusterProfile', 'kind: ClusterProfle');
const BROKEN = PROFILE.replace('  capabilities: {}\n', '  capabilites: {}\n');

let dir: string;
function write(path: string, text: string): void {
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-hook-flags-'));
  mkdirSync(join(dir, '.git'));
  write('.kurel.yaml', 'ignore: ["clusters/archive/**"]\n');
  write('clusters/prod.yaml', PROFILE);
  write('clusters/typo.yaml', MISSPELT);
  write('clusters/archive/old.yaml', BROKEN);
  write('deploy/configmap.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  write('.github/workflows/ci.yml', 'name: ci\non: push\njobs: {}\n');
  write('notes.txt', 'not yaml\n');
  write('infra/clusters/b.yaml', BROKEN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kurel lint --search-files', () => {
  it("reads the files named as a folder's: other kinds skipped, the configuration's ignore applied, a misspelt kind reported", async () => {
    const named = [
      'clusters/prod.yaml',
      'clusters/typo.yaml',
      'clusters/archive/old.yaml',
      'deploy/configmap.yaml',
      '.github/workflows/ci.yml',
      'notes.txt',
      '.kurel.yaml',
    ];
    const run = await runKurel(['lint', '--search-files', ...named], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        'clusters/typo.yaml:2:7 error invalid-value kind must be ClusterProfile or CapabilityDefinition, found "ClusterProfle"',
        '  kind: ClusterProfle',
        '        ^^^^^^^^^^^^^',
        '  hint: did you mean ClusterProfile?',
        '1 profile and 1 other file checked: 1 error, 0 warnings',
        'skipped 3 files:',
        '  deploy/configmap.yaml: kind ConfigMap is not linted',
        '  .github/workflows/ci.yml: no kind: not a kurel document',
        '  .kurel.yaml: .kurel.yaml configures kurel; it is not linted',
        'run kurel explain invalid-value for details',
        '',
      ].join('\n'),
    );
  });

  it('passes when the files named hold no profile or definition, where a folder of them is an error', async () => {
    const run = await runKurel(['lint', '--search-files', 'deploy/configmap.yaml', 'notes.txt'], { cwd: dir });
    expect({ code: run.code, stdout: run.stdout }).toEqual({
      code: 0,
      stdout: '0 files checked: no problems\nskipped 1 file:\n  deploy/configmap.yaml: kind ConfigMap is not linted\n',
    });
    expect((await runKurel(['lint', 'deploy/'], { cwd: dir })).code).toBe(2);
  });

  it('without the flag, a file named is always linted', async () => {
    const run = await runKurel(['lint', 'deploy/configmap.yaml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('deploy/configmap.yaml:2:7 error invalid-value kind must be ClusterProfile');
  });
});

describe('kurel lint --paths-relative-to', () => {
  const infra = () => join(dir, 'infra');

  it('names every file from the folder given, in annotations, SARIF (with %SRCROOT% defined) and JSON', async () => {
    const sarifFile = join(dir, 'infra', 'kurel.sarif');
    const run = await runKurel(['lint', 'clusters/', '--paths-relative-to', '..', '--format', 'github', '--format', 'sarif=kurel.sarif'], { cwd: infra() });
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(
      '::error file=infra/clusters/b.yaml,line=6,col=3,endLine=6,endColumn=13,title=unknown-field::unknown field "capabilites" in spec (allowed: gitopsEngine, platform, capabilities)%0Adid you mean capabilities?',
    );
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8')) as {
      runs: { originalUriBaseIds: unknown; results: { locations: { physicalLocation: { artifactLocation: unknown } }[] }[] }[];
    };
    expect(sarif.runs[0]!.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: pathToFileURL(`${dir}/`).href } });
    expect(sarif.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation)).toEqual([
      { uri: 'infra/clusters/b.yaml', uriBaseId: '%SRCROOT%' },
    ]);
    const json = await runKurel(['lint', 'clusters/b.yaml', '--paths-relative-to', dir, '--format', 'json'], { cwd: infra() });
    const envelope = JSON.parse(json.stdout) as { diagnostics: { file: string }[]; files: { path: string }[] };
    expect([envelope.diagnostics.map((d) => d.file), envelope.files.map((f) => f.path)]).toEqual([['infra/clusters/b.yaml'], ['infra/clusters/b.yaml']]);
  });

  it('keeps text output with its source lines, and leaves names that are no file alone', async () => {
    const run = await runKurel(['lint', 'clusters/b.yaml', '-', '--paths-relative-to', '..'], { cwd: infra(), input: BROKEN });
    const shown = ' unknown-field unknown field "capabilites" in spec (allowed: gitopsEngine, platform, capabilities)\n    capabilites: {}\n    ^^^^^^^^^^^\n';
    expect(run.stdout).toContain(`infra/clusters/b.yaml:6:3 error${shown}`);
    expect(run.stdout).toContain(`<stdin>:6:3 error${shown}`);
  });

  it('without the flag, SARIF leaves %SRCROOT% to its reader', async () => {
    const run = await runKurel(['lint', 'clusters/b.yaml', '--format', 'sarif'], { cwd: infra() });
    const sarif = JSON.parse(run.stdout) as { runs: Record<string, unknown>[] };
    expect('originalUriBaseIds' in sarif.runs[0]!).toBe(false);
  });
});
