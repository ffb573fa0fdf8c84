import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

// README "Config file": `--debug` says on standard error which .kurel.yaml a run read.

const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-debug-'));
  mkdirSync(join(dir, 'repo/.git'), { recursive: true });
  mkdirSync(join(dir, 'repo/clusters'));
  mkdirSync(join(dir, 'bare'));
  writeFileSync(join(dir, 'repo/.kurel.yaml'), 'strict: false\n');
  writeFileSync(join(dir, 'repo/clusters/prod.yaml'), PROFILE);
  writeFileSync(join(dir, 'bare/prod.yaml'), PROFILE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--debug', () => {
  it('names the .kurel.yaml found above the working directory', async () => {
    expect(await runInProcess(['lint', 'prod.yaml', '--debug'], join(dir, 'repo/clusters'))).toEqual({
      code: 0,
      stdout: '1 profile checked: no problems\n',
      stderr: 'kurel: configuration: ../.kurel.yaml\n',
    });
  });

  it('says when none was read, and why', async () => {
    expect((await runInProcess(['lint', 'prod.yaml', '--debug', '--no-config'], join(dir, 'repo/clusters'))).stderr).toBe(
      'kurel: configuration: none (--no-config)\n',
    );
    // A temporary folder has no .git above it: the walk goes up to the root and finds none.
    expect((await runInProcess(['capabilities', '--debug', '--format', 'json'], join(dir, 'bare'))).stderr).toBe(
      'kurel: configuration: none (no .kurel.yaml in the working directory or the folders above it, up to the one holding .git)\n',
    );
  });

  it('prints nothing without --debug', async () => {
    expect((await runInProcess(['lint', 'prod.yaml'], join(dir, 'repo/clusters'))).stderr).toBe('');
  });
});
