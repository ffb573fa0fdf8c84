import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import { countingPlugin, EDGE_PROXY, PROFILE, redisSidecar } from './repository-fixture.js';

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

const preCommitEnv = () => ({ ...process.env, PRE_COMMIT_HOME: home, NO_COLOR: '1', PRE_COMMIT_COLOR: 'never' });

/** `pre-commit run --all-files` in `repo`: its exit code and what it printed. */
function preCommit(repo: string): { code: number | null; output: string } {
  const run = spawnSync(PRE_COMMIT.command, ['run', '--all-files'], { cwd: repo, encoding: 'utf8', timeout: 900_000, env: preCommitEnv() });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The same, without waiting: for runs side by side. */
function preCommitAsync(repo: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PRE_COMMIT.command, ['run', '--all-files'], { cwd: repo, env: preCommitEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
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

  describe('with the cache', () => {
    /** A profile binding `counted` (a plugin that notes each size it judges) and edge-proxy. */
    const counted = (name: string, size: number, edge = 'replicas: 2') =>
      `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: ${name}\nspec:\n  capabilities:\n    counted:\n      rendering: {size: ${size}}\n    edge-proxy:\n      rendering: {${edge}}\n`;
    let notes: string;
    let repo: string;
    /**
     * The sizes the plugin judged since the last call, each once, sorted (lint judges the profiles
     * before a definition among the files again once it is found: docs/cli.md, `--jobs`).
     */
    const judged = () => {
      if (!existsSync(notes)) return [];
      const sizes = [...new Set(readFileSync(notes, 'utf8').split('\n').filter(Boolean))].sort();
      rmSync(notes);
      return sizes;
    };
    /** What the repository's own kurel prints for the staged files without a cache: the hook's entry, less --cache. */
    const uncached = async () => {
      const files = git(repo, 'ls-files', '-z', '--', '*.yaml', '*.yml').split('\0').filter(Boolean);
      const run = await runKurel(['lint', '--search-files', ...files], { cwd: repo, env: { NO_COLOR: '1' } });
      return { code: run.code, output: `${run.stdout}${run.stderr}`.trim() };
    };
    const hook = (run: { code: number | null; output: string }) => ({ code: run.code, output: hookOutput(run.output) });

    beforeAll(() => {
      notes = join(work, `counted-${Math.random().toString(36).slice(2)}.txt`);
      repo = userRepository({
        '.kurel.yaml': 'definitions: [definitions]\nplugins: [./plugins/counted.mjs]\n',
        'definitions/edge-proxy.yaml': EDGE_PROXY,
        'plugins/counted.mjs': countingPlugin(notes),
        'clusters/c1.yaml': counted('c1', 1),
        'clusters/c2.yaml': counted('c2', 2),
        'clusters/c3.yaml': counted('c3', 3, 'replicsa: 2'),
      });
    });

    it('judges no file a second time while it is unchanged, and prints what lint without a cache prints', async () => {
      const first = preCommit(repo);
      expect(judged()).toEqual(['1', '2', '3']);
      expect(first.code).toBe(1);
      expect(hookOutput(first.output).split('\n')[0]).toBe(
        'clusters/c3.yaml:10:19 error unknown-field capability "edge-proxy": unknown field "replicsa" (allowed: replicas, tls, hostNetwork)',
      );
      expect(hook(first)).toEqual(await uncached());
      // The results are kept in a folder git passes over: nothing to commit, nothing to ignore by hand.
      expect(readdirSync(join(repo, '.kurel-cache')).sort()).toEqual(['.gitignore', '.kurelcache']);
      expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).not.toContain('.kurel-cache');
      judged();

      const second = preCommit(repo);
      expect(judged()).toEqual([]);
      expect(second).toEqual(first);
    });

    it('judges an edited staged file again, and reports its new problem', async () => {
      preCommit(repo);
      judged();
      writeFileSync(join(repo, 'clusters/c2.yaml'), counted('c2', 20, 'hostNetwork: yes'));
      git(repo, 'add', 'clusters/c2.yaml');
      const run = preCommit(repo);
      expect(judged()).toEqual(['20']);
      expect(run.code).toBe(1);
      expect(
        hookOutput(run.output)
          .split('\n')
          .filter((line) => /^\S+:\d+:\d+ /.test(line)),
      ).toEqual([
        'clusters/c2.yaml:10:32 error wrong-type capability "edge-proxy": hostNetwork must be a boolean (true or false), found string "yes"',
        'clusters/c3.yaml:10:19 error unknown-field capability "edge-proxy": unknown field "replicsa" (allowed: replicas, tls, hostNetwork)',
      ]);
      expect(hook(run)).toEqual(await uncached());
    });

    it('prints what lint without a cache prints from runs sharing the cache at once', async () => {
      rmSync(join(repo, '.kurel-cache'), { recursive: true, force: true });
      const expected = await uncached();
      const runs = await Promise.all([preCommitAsync(repo), preCommitAsync(repo), preCommitAsync(repo)]);
      for (const run of runs) expect(hook(run)).toEqual(expected);
      judged();
      // Each recorded every file: whichever wrote last, the next run judges none.
      expect(hook(preCommit(repo))).toEqual(expected);
      expect(judged()).toEqual([]);
    });
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
