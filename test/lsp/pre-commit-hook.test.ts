import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { yaml } from '../../src/yaml/yaml-lib.js';
import { CLI } from '../helpers/cli.js';
import { EDGE_PROXY, PROFILE, redisSidecar } from './repository-fixture.js';

const HOOKS = fileURLToPath(new URL('../../.pre-commit-hooks.yaml', import.meta.url));

interface Hook {
  id: string;
  entry: string;
  language: string;
  types?: string[];
  files?: string;
  exclude?: string;
}

/** Splits a command line as pre-commit does (Python's shlex in POSIX mode: quotes, backslashes, spaces). */
function shellSplit(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let part = '';
      for (; text[j] !== '"'; j++) part += text[j] === '\\' && '"\\$`'.includes(text[j + 1]!) ? text[++j] : text[j];
      word = (word ?? '') + part;
      i = j;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A directory holding a `kurel` command that runs the built CLI, as pre-commit's node environment provides one. */
function kurelOnPath(): string {
  const bin = mkdtempSync(join(tmpdir(), 'kurel-bin-'));
  writeFileSync(join(bin, 'kurel'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'kurel'), 0o755);
  return bin;
}

/** Runs the hook on the staged files of `repo` as pre-commit runs it: its entry, then the staged files its filters pass. */
function runHook(hook: Hook, repo: string): { code: number; output: string; files: string[] } {
  const staged = execFileSync('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean);
  const files = staged.filter(
    (file) =>
      (!hook.types?.includes('yaml') || /\.ya?ml$/.test(file)) &&
      new RegExp(hook.files ?? '').test(file) &&
      !(hook.exclude !== undefined && new RegExp(hook.exclude).test(file)),
  );
  const [command, ...args] = shellSplit(hook.entry);
  const run = spawnSync(command!, [...args, ...files], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', PATH: `${kurelOnPath()}${delimiter}${process.env.PATH}` },
  });
  return { code: run.status ?? -1, output: run.stdout + run.stderr, files };
}

/** A git repository with `files` written and staged. */
function stagedRepository(files: Record<string, string>): string {
  const repo = mkdtempSync(join(tmpdir(), 'kurel-hook-'));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  execFileSync('git', ['add', '.'], { cwd: repo });
  return repo;
}

describe('the kurel-lint pre-commit hook', () => {
  const hooks = yaml().parse(readFileSync(HOOKS, 'utf8')) as Hook[];
  const hook = hooks.find((h) => h.id === 'kurel-lint')!;

  it('is a node hook, so pre-commit installs kurel from this repository', () => {
    expect(hooks.map((h) => h.id)).toEqual(['kurel-lint']);
    expect(hook.language).toBe('node');
  });

  it('fails the commit on a staged profile with an error, naming it as lint does, and passes over other YAML', () => {
    const repo = stagedRepository({
      '.kurel.yaml': 'definitions: [definitions]\n',
      'definitions/edge-proxy.yaml': EDGE_PROXY,
      'definitions/redis-sidecar.yaml': redisSidecar('1.0.0'),
      'clusters/prod.yaml': PROFILE,
      '.github/workflows/ci.yml': 'name: ci\non: push\njobs: {}\n',
      'deploy/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
    });
    const run = runHook(hook, repo);
    expect(run.files.sort()).toEqual([
      '.github/workflows/ci.yml',
      '.kurel.yaml',
      'clusters/prod.yaml',
      'definitions/edge-proxy.yaml',
      'definitions/redis-sidecar.yaml',
      'deploy/configmap.yaml',
    ]);
    expect(run.code).toBe(1);
    expect(run.output).toContain('clusters/prod.yaml:11:9 error unknown-field');
    expect(run.output).toContain('1 profile and 2 definition files checked: 3 errors, 0 warnings');
    expect(run.output).not.toContain('ci.yml');
    expect(run.output).not.toContain('configmap.yaml');
  });

  it('passes a clean commit, and one with no kurel file in it', () => {
    const clean = PROFILE.replace('replicsa', 'replicas')
      .replace('hostNetwork: yes', 'hostNetwork: true')
      .replace('          legacyCiphers: true\n', '          mode: simple\n');
    const repo = stagedRepository({
      '.kurel.yaml': 'definitions: [definitions]\n',
      'definitions/edge-proxy.yaml': EDGE_PROXY,
      'definitions/redis-sidecar.yaml': redisSidecar('1.0.0'),
      'clusters/prod.yaml': clean,
    });
    const run = runHook(hook, repo);
    expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: '1 profile and 2 definition files checked: no problems\n' });
    // A name with spaces reaches lint as one argument (no configuration here: the capability is unknown).
    const spaced = runHook(hook, stagedRepository({ 'my clusters/prod one.yaml': PROFILE }));
    expect(spaced.output).toContain('my clusters/prod one.yaml:9:5 warning unknown-capability');
    const none = runHook(hook, stagedRepository({ 'deploy/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\n' }));
    expect({ code: none.code, output: none.output }).toEqual({ code: 0, output: '' });
  });
});
