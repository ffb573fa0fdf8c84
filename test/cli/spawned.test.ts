import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/package-version.js';
import { type CliRun, runKurel, spawnKurel } from '../helpers/cli.js';

// The built CLI as a process (the e2e project): what the in-process runs through runCli cannot
// show — the bundle's start, its exit status, a real standard input pipe — and that both ways
// print the same thing for the same run.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BAD = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: staging
spec:
  capabilities:
    expose:
      rendering:
        controllerType: ingres
`;

const same = (spawned: CliRun, inProcess: CliRun) => expect(spawned).toEqual(inProcess);

describe('the built CLI as a process', () => {
  it('prints its version and exits 0', async () => {
    const run = await spawnKurel(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('exits 0 on a clean profile and prints what the in-process run prints', async () => {
    const args = ['lint', 'profiles/minimal.yaml'];
    const spawned = await spawnKurel(args, { cwd: ROOT });
    expect(spawned.code).toBe(0);
    same(spawned, await runKurel(args, { cwd: ROOT }));
  });

  it('reads a profile from a real standard input pipe and exits 1 on its error', async () => {
    const args = ['lint', '-', '--stdin-filepath', 'staging.yaml', '--format', 'json'];
    const spawned = await spawnKurel(args, { input: BAD });
    expect(spawned.code).toBe(1);
    const json = JSON.parse(spawned.stdout) as { valid: boolean; diagnostics: { code: string; file: string; line: number; column: number }[] };
    expect(json.valid).toBe(false);
    expect(json.diagnostics.map((d) => [d.file, d.line, d.column, d.code])).toEqual([['staging.yaml', 9, 25, 'invalid-value']]);
    same(spawned, await runKurel(args, { input: BAD }));
  });

  it('exits 2 on bad usage', async () => {
    const spawned = await spawnKurel(['lint', 'profiles/minimal.yaml', '--no-such-flag'], { cwd: ROOT });
    expect(spawned.code).toBe(2);
    expect(spawned.stderr).toContain("unknown option '--no-such-flag'");
    same(spawned, await runKurel(['lint', 'profiles/minimal.yaml', '--no-such-flag'], { cwd: ROOT }));
  });
});
