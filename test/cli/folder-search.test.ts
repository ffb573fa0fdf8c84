import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findYamlFiles } from '../../src/files/find-yaml-files.js';
import { runInProcess } from '../helpers/in-process.js';

// README "Inputs": a folder search never enters node_modules or .git, passes over what the
// .gitignore files of the folder and the folders in it exclude, and yields YAML files only;
// a search that finds no profile says when it passed over .json files.

const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';
const DEFINITION_WITHOUT_VERSION =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: redis-sidecar\nspec:\n  rendering:\n    properties:\n      image: {type: string}\n';

let dir: string;
function write(path: string, text: string): void {
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-search-'));
  write('repo/clusters/prod.yaml', PROFILE);
  write('repo/clusters/draft.tmp.yaml', 'broken: [\n');
  write('repo/clusters/keep.tmp.yaml', PROFILE);
  write('repo/clusters/scratch/notes.yaml', 'broken: [\n');
  write('repo/clusters/.gitignore', 'scratch/\n!keep.tmp.yaml\n');
  write('repo/.gitignore', '# build output\nbuild/\n*.tmp.yaml\n');
  write('repo/build/out.yaml', 'broken: [\n');
  // A dependency's definitions, and anything else under node_modules and .git, are never read.
  write('repo/node_modules/kurel/definitions/redis-sidecar.yaml', DEFINITION_WITHOUT_VERSION);
  write('repo/node_modules/other/broken.yml', 'broken: [\n');
  write('repo/.git/hooks/x.yaml', 'broken: [\n');
  write('jdir/prof.json', JSON.stringify({ apiVersion: 'launcher.gokure.dev/v1alpha1', kind: 'ClusterProfile' }));
  write('jdir2/a.json', '{}');
  write('jdir2/b.JSON', '{}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('searching a folder', () => {
  it('finds the YAML files git would keep, never node_modules or .git', async () => {
    const found = await findYamlFiles('repo', dir);
    expect(found).toEqual({
      files: ['repo/clusters/keep.tmp.yaml', 'repo/clusters/prod.yaml'],
      realPaths: [realpathSync(join(dir, 'repo/clusters/keep.tmp.yaml')), realpathSync(join(dir, 'repo/clusters/prod.yaml'))],
      diagnostics: [],
      unreadable: false,
      jsonFiles: 0,
    });
  });

  it('gives each file found its real path: a link inside the folder by where it leads', async () => {
    write('links/real/a.yaml', 'a: 1\n');
    symlinkSync('real', join(dir, 'links/through'));
    symlinkSync('real/a.yaml', join(dir, 'links/b.yaml'));
    const found = await findYamlFiles('links', dir);
    const real = realpathSync(join(dir, 'links/real/a.yaml'));
    expect(found.files).toEqual(['links/b.yaml', 'links/real/a.yaml', 'links/through/a.yaml']);
    expect(found.realPaths).toEqual([real, real, real]);
  });

  it('lints a repository from its root without a word about dependencies', async () => {
    expect(await runInProcess(['lint', '.'], join(dir, 'repo'))).toEqual({ code: 0, stdout: '2 profiles checked: no problems\n', stderr: '' });
  });

  it('searches a folder named node_modules when it is the one given', async () => {
    const run = await runInProcess(['lint', 'node_modules/kurel', '--format', 'json'], join(dir, 'repo'));
    expect((JSON.parse(run.stdout) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual(['node_modules/kurel/definitions/redis-sidecar.yaml']);
  });

  it('never reads the temporary files and locks of a write that was stopped, in a folder or a glob (issue 36 row 11)', async () => {
    write('left/prod.yaml', PROFILE);
    write('left/.kurel-tmp-4194305-0-prod.yaml', 'broken: [\n');
    write('left/.kurel-tmp-lock-prod.yaml', '4194305\n');
    write('left/.kurel-tmp-4194305-1-x/inner.yaml', 'broken: [\n');
    const found = await findYamlFiles('left', dir);
    expect([found.files, found.diagnostics]).toEqual([['left/prod.yaml'], []]);
    expect(await runInProcess(['lint', 'left'], dir)).toEqual({ code: 0, stdout: '1 profile checked: no problems\n', stderr: '' });
    const globbed = await runInProcess(['lint', 'left/.*.yaml', 'left/.*/*.yaml'], dir);
    expect(globbed).toMatchObject({
      code: 2,
      stdout: expect.stringMatching(
        /^left\/\.\*\.yaml: error io-error no file matches left\/\.\*\.yaml\nleft\/\.\*\/\*\.yaml: error io-error no file matches left\/\.\*\/\*\.yaml\n/,
      ),
    });
  });

  it('says a folder of .json files was passed over, and lints a JSON file named', async () => {
    const run = await runInProcess(['lint', 'jdir', 'jdir2'], dir);
    expect(run).toEqual({
      code: 2,
      stdout: [
        'jdir: error io-error no profile or definition found in jdir: a folder or glob yields *.yaml and *.yml files, and its 1 .json file was passed over',
        '  hint: name a JSON file on the command line to lint it',
        'jdir2: error io-error no profile or definition found in jdir2: a folder or glob yields *.yaml and *.yml files, and its 2 .json files were passed over',
        '  hint: name a JSON file on the command line to lint it',
        '0 files checked: 2 errors, 0 warnings',
        'run kurel explain io-error for details',
        '',
      ].join('\n'),
      stderr: '',
    });
    const named = await runInProcess(['lint', 'jdir/prof.json', '--format', 'json'], dir);
    expect((JSON.parse(named.stdout) as { files: { path: string; status: string }[] }).files).toMatchObject([{ path: 'jdir/prof.json', status: 'checked' }]);
  });
});
