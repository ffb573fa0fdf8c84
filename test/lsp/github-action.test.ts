import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { yaml } from '../../src/yaml/yaml-lib.js';
import { EDGE_PROXY, PROFILE, redisSidecar, writeRepository } from './repository-fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = yaml().parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** An expression of the action with its inputs and `github.action_path` filled in (the only ones its run steps may use). */
function expand(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}/g, (_, whole: string, input: string | undefined) =>
    whole === 'github.action_path' ? ROOT : (inputs[input!] ?? ''),
  );
}

/**
 * Runs the action's `run` steps in a shell as the runner does (bash -eo pipefail, each step's
 * env, GITHUB_ENV carried to later steps, GITHUB_OUTPUT per step), in `workspace`; the `uses`
 * steps (setup-node, the SARIF upload) are GitHub's own and are left out. Stops at the first
 * failing step, as a job does.
 */
function runAction(
  workspace: string,
  given: Record<string, string>,
  path: string | undefined = process.env.PATH,
): { code: number; stdout: string; outputs: Record<string, string> } {
  const inputs = Object.fromEntries(Object.entries(ACTION.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const runner = mkdtempSync(join(tmpdir(), 'kurel-runner-'));
  const githubEnv = join(runner, 'env');
  writeFileSync(githubEnv, '');
  let carried: Record<string, string> = {};
  let stdout = '';
  const outputs: Record<string, string> = {};
  for (const [index, step] of ACTION.runs.steps.entries()) {
    if (step.run === undefined) continue;
    const output = join(runner, `output-${index}`);
    writeFileSync(output, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value, inputs)]));
    const cwd = resolve(workspace, expand(step['working-directory'] ?? '.', inputs));
    const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd,
      encoding: 'utf8',
      env: { PATH: path, HOME: process.env.HOME, NO_COLOR: '1', GITHUB_WORKSPACE: workspace, GITHUB_ENV: githubEnv, GITHUB_OUTPUT: output, ...carried, ...env },
    });
    stdout += run.stdout;
    carried = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    for (const line of readFileSync(output, 'utf8').split('\n').filter(Boolean))
      outputs[`${step.id}.${line.slice(0, line.indexOf('='))}`] = line.slice(line.indexOf('=') + 1);
    if (run.status !== 0) return { code: run.status ?? -1, stdout, outputs };
  }
  return { code: 0, stdout, outputs };
}

function repository(profile: string, under = ''): string {
  return writeRepository({
    [`${under}.kurel.yaml`]: 'definitions: [definitions]\n',
    [`${under}definitions/edge-proxy.yaml`]: EDGE_PROXY,
    [`${under}definitions/redis-sidecar.yaml`]: redisSidecar('1.0.0'),
    [`${under}clusters/prod.yaml`]: profile,
  });
}

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action whose scripts take their inputs from the environment only', () => {
    expect(ACTION.runs.using).toBe('composite');
    for (const step of ACTION.runs.steps) if (step.run !== undefined) expect(step.run).not.toContain('${{');
    // The caller's Node stays the caller's: no setup-node, whose PATH change outlives the action.
    expect(ACTION.runs.steps.flatMap((s) => (s.uses ? [s.uses] : []))).toEqual(['github/codeql-action/upload-sarif@v4']);
    const upload = ACTION.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.if).toContain('always()');
    // A fork's pull request cannot write security events: no upload, so lint alone decides the job.
    expect(upload?.if).toContain('!github.event.pull_request.head.repo.fork');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(upload?.with?.sarif_file).toBe('${{ inputs.working-directory }}/${{ inputs.sarif-file }}');
  });

  it('annotates each problem, writes the SARIF report and fails on errors', () => {
    const workspace = repository(PROFILE);
    const run = runAction(workspace, { paths: 'clusters/*.yaml' });
    expect(run.code).toBe(1);
    expect(run.outputs).toEqual({ 'lint.exit-code': '1' });
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations.map((line) => line.slice(0, line.indexOf(',endLine')))).toEqual([
      '::error file=clusters/prod.yaml,line=11,col=9',
      '::error file=clusters/prod.yaml,line=12,col=22',
      '::error file=clusters/prod.yaml,line=14,col=11',
    ]);
    const sarif = JSON.parse(readFileSync(join(workspace, 'kurel.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['unknown-field', 'wrong-type', 'field-unavailable']);
  });

  it('passes a clean repository, with the flags and report file given as inputs', () => {
    const clean = PROFILE.replace('replicsa', 'replicas')
      .replace('hostNetwork: yes', 'hostNetwork: true')
      .replace('          legacyCiphers: true\n', '          mode: simple\n');
    const workspace = repository(clean);
    const run = runAction(workspace, { paths: 'clusters/', args: '--strict', 'sarif-file': 'reports.sarif' });
    expect(run).toEqual({ code: 0, stdout: '1 profile and 2 definition files checked: no problems\n', outputs: { 'lint.exit-code': '0' } });
    expect(existsSync(join(workspace, 'reports.sarif'))).toBe(true);
  });

  it('names files from the repository root when it lints in a folder of it, in annotations and in SARIF', () => {
    const workspace = repository(PROFILE, 'infra/');
    const run = runAction(workspace, { paths: 'clusters/', 'working-directory': 'infra' });
    expect(run.code).toBe(1);
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations.map((line) => line.slice(0, line.indexOf(',line=')))).toEqual([
      '::error file=infra/clusters/prod.yaml',
      '::error file=infra/clusters/prod.yaml',
      '::error file=infra/clusters/prod.yaml',
    ]);
    const sarif = JSON.parse(readFileSync(join(workspace, 'infra', 'kurel.sarif'), 'utf8')) as {
      runs: { originalUriBaseIds: unknown; results: { locations: { physicalLocation: { artifactLocation: unknown } }[] }[] }[];
    };
    expect(sarif.runs[0]!.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: pathToFileURL(`${workspace}/`).href } });
    expect(new Set(sarif.runs[0]!.results.map((r) => JSON.stringify(r.locations[0]!.physicalLocation.artifactLocation)))).toEqual(
      new Set([JSON.stringify({ uri: 'infra/clusters/prod.yaml', uriBaseId: '%SRCROOT%' })]),
    );
  });

  it("refuses a runner whose Node is older than kurel's, saying what to add", () => {
    // A stand-in for an old runner's node: it reports its version and refuses anything else.
    const bin = mkdtempSync(join(tmpdir(), 'kurel-old-node-'));
    writeFileSync(join(bin, 'node'), '#!/bin/sh\n[ "$1" = --version ] && echo v18.20.4 && exit 0\nexit 1\n');
    chmodSync(join(bin, 'node'), 0o755);
    const run = runAction(repository(PROFILE), {}, `${bin}${delimiter}${process.env.PATH}`);
    expect(run).toEqual({
      code: 1,
      stdout: '::error title=kurel::kurel needs Node.js 20.10 or later, and this runner has v18.20.4; run actions/setup-node before this action\n',
      outputs: {},
    });
  });
});
