import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import { EDGE_PROXY, PROFILE, redisSidecar } from './repository-fixture.js';

// The kurel-lint hook of .pre-commit-hooks.yaml as pre-commit itself runs it (docs/editors.md,
// "pre-commit"; docs/integrations.md): pre-commit clones this repository at a commit, installs
// its node environment (npm install, npm pack, npm install -g of the tarball, from the npm
// registry) and runs the hook on the files of a repository that uses it. The environment is
// installed once, under a PRE_COMMIT_HOME the file's tests share.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRE_COMMIT = findTool('pre-commit');

const GIT_IDENTITY = ['-c', 'user.name=kurel tests', '-c', 'user.email=tests@kurel.invalid', '-c', 'commit.gpgsign=false'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_IDENTITY, ...args], { cwd, encoding: 'utf8' });
}

/** This repository's files as they are in the working tree (tracked, and new ones git does not ignore), committed in a repository of their own. */
function snapshotOfThisRepository(into: string): string {
  const files = git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean);
  for (const file of files) {
    const from = join(ROOT, file);
    // A file deleted in the working tree, or a link, is not part of the snapshot.
    if (!existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(into, file)), { recursive: true });
    copyFileSync(from, join(into, file));
  }
  git(into, 'init', '-q');
  git(into, 'add', '--all');
  git(into, 'commit', '-q', '-m', 'snapshot');
  return git(into, 'rev-parse', 'HEAD').trim();
}

const CLEAN = PROFILE.replace('replicsa', 'replicas')
  .replace('hostNetwork: yes', 'hostNetwork: true')
  .replace('          legacyCiphers: true\n', '          mode: simple\n');

let work: string;
let hooks: string;
let rev: string;
let home: string;

/** A repository using the hook (`args` its args in .pre-commit-config.yaml), with `files` staged. */
function userRepository(files: Record<string, string>, args: readonly string[] = []): string {
  const repo = mkdtempSync(join(work, 'user-'));
  git(repo, 'init', '-q');
  const config = [
    'repos:',
    `  - repo: ${hooks}`,
    `    rev: ${rev}`,
    '    hooks:',
    '      - id: kurel-lint',
    ...(args.length > 0 ? [`        args: [${args.join(', ')}]`] : []),
    '',
  ].join('\n');
  for (const [path, text] of Object.entries({ '.pre-commit-config.yaml': config, ...files })) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, 'add', '--all');
  return repo;
}

/** `pre-commit run --all-files` in `repo`: its exit code and what it printed. */
function preCommit(repo: string): { code: number | null; output: string } {
  const run = spawnSync(PRE_COMMIT.command, ['run', '--all-files'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 900_000,
    env: { ...process.env, PRE_COMMIT_HOME: home, NO_COLOR: '1', PRE_COMMIT_COLOR: 'never' },
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The hook's own output: what pre-commit prints under its result line. */
function hookOutput(output: string): string {
  const at = output.indexOf('- exit code: ');
  return at === -1 ? '' : output.slice(output.indexOf('\n', at) + 1).trim();
}

const CONFIGURED = {
  '.kurel.yaml': 'definitions: [definitions]\n',
  'definitions/edge-proxy.yaml': EDGE_PROXY,
  'definitions/redis-sidecar.yaml': redisSidecar('1.0.0'),
};

describe.skipIf(skipWithout(PRE_COMMIT))(`the kurel-lint hook under pre-commit (${PRE_COMMIT.version})`, () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'kurel-pre-commit-'));
    hooks = join(work, 'kurel');
    home = join(work, 'pre-commit-home');
    mkdirSync(hooks);
    rev = snapshotOfThisRepository(hooks);
    // The first run installs the hook's environment; it must succeed whatever it lints.
    const first = preCommit(userRepository({ 'clusters/prod.yaml': CLEAN, ...CONFIGURED }));
    expect(first.output).toContain('[INFO] Installing environment for');
    expect(first.code, first.output).toBe(0);
  }, 900_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes a clean commit, passing over YAML files that are not kurel documents', () => {
    const run = preCommit(
      userRepository({
        'clusters/prod.yaml': CLEAN,
        ...CONFIGURED,
        '.github/workflows/ci.yml': 'name: ci\non: push\njobs: {}\n',
        'deploy/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
      }),
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^kurel lint\.+Passed$/m);
  });

  it('fails a commit with a profile in error, with the diagnostics lint gives', () => {
    const run = preCommit(userRepository({ 'clusters/prod.yaml': PROFILE, ...CONFIGURED, 'deploy/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\n' }));
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/^kurel lint\.+Failed$/m);
    const lines = hookOutput(run.output).split('\n');
    expect(lines.filter((line) => /^\S+:\d+:\d+ /.test(line))).toEqual([
      'clusters/prod.yaml:11:9 error unknown-field capability "edge-proxy": unknown field "replicsa" (allowed: replicas, tls, hostNetwork)',
      'clusters/prod.yaml:12:22 error wrong-type capability "edge-proxy": hostNetwork must be a boolean (true or false), found string "yes"',
      'clusters/prod.yaml:14:11 error field-unavailable capability "edge-proxy": tls.legacyCiphers was removed in kubernetes 1.32 (this cluster runs 1.32): use mode: mutual',
    ]);
    expect(lines).toContain('1 profile and 2 definition files checked: 3 errors, 0 warnings');
    expect(lines).toContain('  deploy/configmap.yaml: kind ConfigMap is not linted');
  });

  it('hands lint a file whose name holds spaces as one file', () => {
    const run = preCommit(userRepository({ 'my clusters/prod one.yaml': PROFILE, ...CONFIGURED }));
    expect(run.code).toBe(1);
    expect(hookOutput(run.output).split('\n')[0]).toBe(
      'my clusters/prod one.yaml:11:9 error unknown-field capability "edge-proxy": unknown field "replicsa" (allowed: replicas, tls, hostNetwork)',
    );
  });

  it('reports a staged profile whose kind is misspelt, as lint does in a folder', () => {
    const misspelt = CLEAN.replace('kind: ClusterProfile', 'kind: ClusterProfle');
    const run = preCommit(userRepository({ 'clusters/prod.yaml': misspelt, ...CONFIGURED }));
    expect(run.code).toBe(1);
    const lines = hookOutput(run.output).split('\n');
    expect(lines[0]).toBe('clusters/prod.yaml:2:7 error invalid-value kind must be ClusterProfile or CapabilityDefinition, found "ClusterProfle"');
    expect(lines).toContain('  hint: did you mean ClusterProfile?');
  });

  it("passes the hook's args to lint: --require-pinned fails an unpinned binding that passes without it", () => {
    const unpinned = CLEAN;
    const without = preCommit(userRepository({ 'clusters/prod.yaml': unpinned, ...CONFIGURED }));
    expect(without.code, without.output).toBe(0);
    const run = preCommit(userRepository({ 'clusters/prod.yaml': unpinned, ...CONFIGURED }, ['--require-pinned']));
    expect(run.code).toBe(1);
    expect(hookOutput(run.output).split('\n')[0]).toBe(
      'clusters/prod.yaml:15:5 error unpinned-capability capability "redis-sidecar" is not pinned: redis-sidecar has versions 1.0.0, and --require-pinned asks every binding to pin one',
    );
  });
});
