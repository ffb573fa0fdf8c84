import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';

// docs/configuration.md and "Terminal", docs/cli.md "Output": --format FORMAT[=FILE]
// is repeatable, at most one report goes to standard output, files never get colour, an
// unwritable report file is exit 2; --quiet hides the warnings that do not fail the run.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
// An error on line 10 and a warning on line 11.
const MIXED = `${HEADER}spec:\n  capabilities:\n    expose:\n      rendering:\n        controllerType: ingress\n        ingressClassName: ""\n    servicemesh: {}\n`;
const WARNS = `${HEADER}spec:\n  capabilities:\n    servicemesh: {}\n`;
const ERROR_LINE = 'mixed.yaml:10:27 error invalid-value capability "expose": ingressClassName must not be empty';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-reports-'));
  writeFileSync(join(dir, 'mixed.yaml'), MIXED);
  writeFileSync(join(dir, 'warns.yaml'), WARNS);
  mkdirSync(join(dir, 'reports'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const kurel = (args: string[], env: NodeJS.ProcessEnv = {}) => runKurel(args, { cwd: dir, env });

describe('several reports in one run', () => {
  it('prints text on standard output and writes SARIF and JUnit to their files, from one lint', async () => {
    const run = await kurel(['lint', 'mixed.yaml', '--format', 'text', '--format', 'sarif=reports/kurel.sarif', '--format', 'junit=reports/kurel-junit.xml']);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(ERROR_LINE);
    const sarif = JSON.parse(readFileSync(join(dir, 'reports/kurel.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['invalid-value', 'unknown-capability']);
    const junit = readFileSync(join(dir, 'reports/kurel-junit.xml'), 'utf8');
    expect(junit).toContain('<failure type="invalid-value"');
    expect(junit).toContain('<system-out>mixed.yaml:11:5 warning unknown-capability');
  });

  it('prints the text summary on standard output when every report goes to a file', async () => {
    const run = await kurel(['lint', 'mixed.yaml', '--format', 'json=reports/kurel.json', '--format', 'github=reports/annotations.txt']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '1 profile checked: 1 error, 1 warning\n' });
    expect((JSON.parse(readFileSync(join(dir, 'reports/kurel.json'), 'utf8')) as { valid: boolean }).valid).toBe(false);
    expect(readFileSync(join(dir, 'reports/annotations.txt'), 'utf8').split('\n')[0]).toMatch(/^::error file=mixed\.yaml,line=10,col=27,/);
  });

  it('never writes colour into a file, even with --color always', async () => {
    const run = await kurel(['lint', 'mixed.yaml', '--color', 'always', '--format', 'text', '--format', 'text=reports/plain.txt']);
    expect(run.stdout).toContain('\u001b[31merror\u001b[39m');
    const file = readFileSync(join(dir, 'reports/plain.txt'), 'utf8');
    expect(file.split('\n')[0]).toBe(ERROR_LINE);
    expect(file).not.toContain('\u001b[');
  });

  it('refuses two reports for standard output as a usage error, exit 2, writing nothing', async () => {
    const run = await kurel(['lint', 'mixed.yaml', '--format', 'json', '--format', 'sarif', '--format', 'junit=reports/never.xml']);
    expect(run.code).toBe(2);
    expect(run.stdout.split('\n')[0]).toBe(
      '<command line>:1:1 error usage at most one --format goes to standard output; found json and sarif: give the others a file (--format sarif=kurel.sarif)',
    );
    expect(existsSync(join(dir, 'reports/never.xml'))).toBe(false);
  });

  it('exits 2 when a report file cannot be written, naming it, and still writes the others', async () => {
    const run = await kurel(['lint', 'warns.yaml', '--format', 'json', '--format', 'sarif=missing/kurel.sarif', '--format', 'junit=reports/written.xml']);
    expect(run.code).toBe(2);
    const json = JSON.parse(run.stdout) as { valid: boolean; diagnostics: { code: string; file: string; message: string }[] };
    expect(json.valid).toBe(false);
    expect(json.diagnostics.map((d) => [d.code, d.file, d.message])).toContainEqual([
      'io-error',
      'missing/kurel.sarif',
      'cannot write the sarif report to missing/kurel.sarif: the folder missing does not exist',
    ]);
    expect(readFileSync(join(dir, 'reports/written.xml'), 'utf8')).toContain('missing/kurel.sarif');
  });

  it('says why a report file cannot be written, in words, also when no report goes to standard output', async () => {
    const run = await kurel(['lint', 'warns.yaml', '--format', 'sarif=/no-such-dir/deeper/x.sarif']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({
      code: 2,
      stdout:
        '/no-such-dir/deeper/x.sarif: error io-error cannot write the sarif report to /no-such-dir/deeper/x.sarif: the folder /no-such-dir does not exist\n' +
        '1 profile checked: 1 error, 1 warning\n',
    });
    const intoFile = await kurel(['lint', 'warns.yaml', '--format', 'text', '--format', 'junit=warns.yaml/x.xml']);
    expect(intoFile.stdout.split('\n')).toContain(
      'warns.yaml/x.xml: error io-error cannot write the junit report to warns.yaml/x.xml: a part of its path is a file, not a folder',
    );
    const folder = await kurel(['lint', 'warns.yaml', '--format', 'json=reports']);
    expect(folder.stdout.split('\n')).toContain('reports: error io-error cannot write the json report to reports: it is a folder');
  });

  it('rejects a format kurel does not have, and an empty file name, as usage errors', async () => {
    expect((await kurel(['lint', 'warns.yaml', '--format', 'yaml'])).code).toBe(2);
    expect((await kurel(['lint', 'warns.yaml', '--format', 'sarif='])).code).toBe(2);
  });
});

describe('--quiet', () => {
  it('prints only what fails the run in text, the summary still counting every problem', async () => {
    const run = await kurel(['lint', 'mixed.yaml', '--quiet']);
    expect(run.stdout.split('\n').filter((line) => /^\S+:\d+:\d+ /.test(line))).toEqual([ERROR_LINE]);
    expect(run.stdout).toContain('1 profile checked: 1 error, 1 warning');
  });

  it('leaves out warnings from GitHub annotations, but keeps them in JSON', async () => {
    const github = await kurel(['lint', 'mixed.yaml', '--quiet', '--format', 'github']);
    expect(github.stdout.split('\n').filter((line) => line.startsWith('::'))).toHaveLength(1);
    const json = JSON.parse((await kurel(['lint', 'mixed.yaml', '--quiet', '--format', 'json'])).stdout) as { diagnostics: unknown[] };
    expect(json.diagnostics).toHaveLength(2);
  });

  it('keeps warnings under --strict, where they fail the run', async () => {
    const run = await kurel(['lint', 'warns.yaml', '--quiet', '--strict']);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(
      'warns.yaml:7:5 warning unknown-capability capability "servicemesh" is known to no handler or definition; its rendering is not validated',
    );
  });
});
