import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { PROFILE_WITH_MISTAKES } from '../helpers/profile.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';

// The SARIF multitool (@microsoft/sarif-multitool, a devDependency) validates kurel's SARIF
// reports with the SARIF rules and the rules of GitHub code scanning (docs/ci.md). Its npm
// launcher passes arguments through a shell, which splits `Sarif;Gh`: the test runs the binary
// of the platform package itself.

function multitoolPath(): string {
  try {
    const linux = createRequire(import.meta.url).resolve('@microsoft/sarif-multitool-linux/package.json');
    return join(dirname(linux), 'Sarif.Multitool');
  } catch {
    return 'Sarif.Multitool';
  }
}

const MULTITOOL = findTool(multitoolPath(), ['--version']);

const BAD = PROFILE_WITH_MISTAKES;
const CLEAN = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: ok
`;
const SUPPRESSED = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: quiet
spec:
  capabilities:
    # kurel-disable-next-line unknown-capability -- the mesh team ships its definition in May
    servicemesh: {}
    # kurel-disable-next-line unknown-field
    scaler: {}
`;

interface Finding {
  ruleId: string;
  level: string;
  message: { text: string };
}
interface Validation {
  findings: Finding[];
  executionSuccessful: boolean | undefined;
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-sarif-multitool-'));
  writeFileSync(join(dir, 'bad.yaml'), BAD);
  writeFileSync(join(dir, 'clean.yaml'), CLEAN);
  writeFileSync(join(dir, 'suppressed.yaml'), SUPPRESSED);
  writeFileSync(join(dir, 'team,a:b c.yaml'), BAD);
  mkdirSync(join(dir, 'reports'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Validates a SARIF text with the SARIF and GitHub rules; the errors and warnings it finds. */
function validate(name: string, sarif: string): Validation {
  const input = join(dir, 'reports', `${name}.sarif`);
  const output = join(dir, 'reports', `${name}.validation.sarif`);
  writeFileSync(input, sarif);
  const run = spawnSync(MULTITOOL.command, ['validate', input, '--rule-kind', 'Sarif;Gh', '--output', output, '--log', 'ForceOverwrite'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect({ status: run.status, error: run.error }, run.stdout + run.stderr).toEqual({ status: 0, error: undefined });
  const log = JSON.parse(readFileSync(output, 'utf8')) as {
    runs: { results?: Finding[]; invocations?: { executionSuccessful?: boolean }[] }[];
  };
  const validation = log.runs[0]!;
  return { findings: validation.results ?? [], executionSuccessful: validation.invocations?.[0]?.executionSuccessful };
}

const said = (findings: Finding[]) => findings.map((f) => `${f.level} ${f.ruleId}: ${f.message.text}`);

describe.skipIf(skipWithout(MULTITOOL))(`kurel's SARIF under the SARIF multitool's SARIF and GitHub rules (${MULTITOOL.version})`, () => {
  it.each([
    ['a clean run', ['clean.yaml'], 0],
    ['a run with errors and warnings', ['bad.yaml', 'team,a:b c.yaml'], 1],
    ['a run whose problems are suppressed in the source', ['suppressed.yaml'], 0],
    ['a run with an unreadable path', ['missing.yaml'], 2],
    ['a run naming files by absolute path', ['ABSOLUTE/bad.yaml'], 1],
    ['a run of standard input without a name', ['-'], 1],
    ['a run with a mistake on the command line', ['-', '-'], 2],
  ])('%s: no error and no warning', async (_name, args, code) => {
    const run = await runKurel(['lint', ...args.map((a) => a.replace('ABSOLUTE', dir)), '--format', 'sarif'], { cwd: dir, input: BAD });
    expect(run.code).toBe(code);
    const validation = validate(_name.replaceAll(' ', '-'), run.stdout);
    expect(said(validation.findings)).toEqual([]);
    expect(validation.executionSuccessful).toBe(true);
  });

  it('finds what GitHub refuses when it is there: a result with no location', async () => {
    const run = await runKurel(['lint', 'bad.yaml', '--format', 'sarif'], { cwd: dir });
    const log = JSON.parse(run.stdout) as { runs: { results: { locations: unknown[] }[] }[] };
    log.runs[0]!.results[0]!.locations = [];
    const findings = validate('no-location', JSON.stringify(log)).findings;
    expect(findings.map((f) => `${f.level} ${f.ruleId}`)).toEqual(['error GH1015', 'error GH1017', 'error GH2012']);
  });

  it('puts a problem of no file in the invocation, not among the results', async () => {
    const run = await runKurel(['lint', '-', '-', '--format', 'sarif'], { cwd: dir, input: '' });
    const log = JSON.parse(run.stdout) as { runs: { results: unknown[]; invocations: unknown[] }[] };
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            descriptor: { id: 'usage' },
            associatedRule: { id: 'usage', index: 1 },
            level: 'error',
            message: { text: 'standard input (-) can be read only once; found - more than once' },
          },
          {
            descriptor: { id: 'empty-document' },
            associatedRule: { id: 'empty-document', index: 0 },
            level: 'error',
            message: { text: 'the file is empty or holds only comments; expected a ClusterProfile or CapabilityDefinition' },
            locations: [{ message: { text: '<stdin>' } }],
          },
        ],
      },
    ]);
  });
});
