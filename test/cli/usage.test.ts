import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

// README and docs/codes/usage.md: every usage error has one shape,
// `<command line>:1:1 error usage MESSAGE`, a suggestion as `hint:`, and exit 2.

const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities: {}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-usage-'));
  writeFileSync(join(dir, 'prod.yaml'), PROFILE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const kurel = (argv: string[]) => runInProcess(argv, dir);

describe('usage errors', () => {
  it('prints an unknown option as the README shows it, with did-you-mean as a hint', async () => {
    expect(await kurel(['lint', 'prod.yaml', '--colour', 'always'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "<command line>:1:1 error usage unknown option '--colour'\n  hint: did you mean --color?\n",
    });
  });

  it.each([
    [['lint'], "<command line>:1:1 error usage missing required argument 'paths'\n"],
    [
      ['lint', 'prod.yaml', '--platform', 'k8s'],
      "<command line>:1:1 error usage option '--platform <component=version>' argument 'k8s' is invalid. expected COMPONENT=VERSION such as kubernetes=1.29, found \"k8s\"\n",
    ],
    [['serve', '--port'], "<command line>:1:1 error usage option '--port <port>' argument missing\n"],
    [['serve', '--port', 'http'], '<command line>:1:1 error usage --port must be an integer from 0 to 65535, found "http"\n'],
    [['lnt', 'prod.yaml'], "<command line>:1:1 error usage unknown command 'lnt'\n  hint: did you mean lint?\n"],
    [['help', 'nosuch'], "<command line>:1:1 error usage unknown command 'nosuch'\n"],
    [['help', 'lnt'], "<command line>:1:1 error usage unknown command 'lnt'\n  hint: did you mean lint?\n"],
    [
      ['explain', 'unknwn-field'],
      '<command line>:1:1 error usage "unknwn-field" is not a kurel diagnostic code (the codes are listed in docs/diagnostics.md and in docs/codes/)\n  hint: did you mean unknown-field?\n',
    ],
  ])('prints %j in the same shape', async (argv, stderr) => {
    expect(await kurel(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('keeps the JSON envelope for a command whose --format json is one', async () => {
    const run = await kurel(['lint', 'prod.yaml', '--format', 'json', '--colour']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({
      valid: false,
      diagnostics: [{ code: 'usage', file: '<command line>', line: 1, column: 1, message: "unknown option '--colour'", hint: 'did you mean --color?' }],
    });
  });

  it('exits 2 for kurel with no command, the help on standard error', async () => {
    const run = await kurel([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe('Usage: kurel [options] [command]');
  });

  it('prints the help of a command named after help, exit 0', async () => {
    const run = await kurel(['help', 'lint']);
    expect([run.code, run.stdout.split('\n')[0], run.stderr]).toEqual([0, 'Usage: kurel lint [options] <paths...>', '']);
  });

  it('exits 0 for the help asked for', async () => {
    const run = await kurel(['--help']);
    expect([run.code, run.stdout.split('\n')[0], run.stderr]).toEqual([0, 'Usage: kurel [options] [command]', '']);
  });

  it.each([[['lint', 'prod.yaml', '--definitions', 'prod.yaml']], [['compat', '--definitions', 'prod.yaml']]])(
    'says --definitions takes a folder when %j names a file',
    async (argv) => {
      const run = await kurel(argv);
      expect(run.code).toBe(2);
      expect(run.stdout.split('\n')[0]).toBe(
        '<command line>:1:1 error usage --definitions takes a folder, and prod.yaml is a file; use --capability-def for a file',
      );
    },
  );
});
