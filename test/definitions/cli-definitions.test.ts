import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel, runKurelJson } from '../helpers/cli.js';
import { definition } from './helpers.js';

const PROFILE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: test}\nspec:\n  capabilities:\n    my-trait:\n      rendering: {mode: fast}\n';
const TRAIT = definition('mode: {type: string, enum: [fast, safe]}\nlevel: {type: integer, default: 3}');

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const run = (...args: string[]) => runKurelJson(args, { cwd: root });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-defs-'));
  write('cluster.yaml', PROFILE);
  write('neutral.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: neutral}\nspec:\n  capabilities: {}\n');
  // A folder searched recursively, with .yaml and .yml files and one of another kind.
  write('defs/nested/trait.yml', TRAIT);
  write('defs/other.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata: {name: staging}\n');
  write('defs/notes.txt', 'not yaml at all: {[');
  write('bad-yaml/bad.yaml', 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: [unclosed\n');
  write('multi.yaml', [definition('a: {type: string}', 'first-trait'), definition('b: {type: integer}', 'second-trait')].join('---\n'));
  write('broken.yaml', definition('mode: {type: string, enum: []}'));
  // Symbolic links: one that stays in the folder (a ConfigMap mount), one that leaves it, and a loop.
  write('linked/data/trait.yaml', TRAIT);
  // Sorted before data/, so the walk reaches the file through the link first.
  symlinkSync('data/trait.yaml', join(root, 'linked/a-trait.yaml'));
  write('outside/trait.yaml', TRAIT);
  mkdirSync(join(root, 'leaving'));
  symlinkSync('../outside/trait.yaml', join(root, 'leaving/trait.yaml'));
  mkdirSync(join(root, 'looping/inner'), { recursive: true });
  symlinkSync('..', join(root, 'looping/inner/up'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('kurel lint --definitions', () => {
  it('loads *.yaml and *.yml files found recursively and lists other kinds as skipped', async () => {
    const { code, json } = await run('lint', 'cluster.yaml', '--definitions', 'defs');
    expect(code).toBe(0);
    expect(json.diagnostics).toEqual([]);
    expect(json.files).toEqual([
      {
        path: 'cluster.yaml',
        kind: 'ClusterProfile',
        status: 'checked',
        resolved: { gitopsEngine: 'fluxcd', capabilities: { 'my-trait': { mode: 'fast', level: 3 } }, versions: {} },
      },
      { path: 'defs/nested/trait.yml', kind: 'CapabilityDefinition', status: 'checked' },
      { path: 'defs/other.yaml', kind: 'ClusterProfile', status: 'skipped', reason: 'kind ClusterProfile is not linted' },
    ]);
  });

  it('exits 1 with the position when a definitions file is not valid YAML', async () => {
    const { code, json } = await run('lint', 'neutral.yaml', '--definitions', 'bad-yaml');
    expect(code).toBe(1);
    expect(json.diagnostics).toMatchObject([{ code: 'yaml-syntax', file: 'bad-yaml/bad.yaml', line: 4, column: 9 }]);
  });

  it.each([
    ['a --definitions folder', ['--definitions', 'missing']],
    ['a --capability-def file', ['--capability-def', 'missing.yaml']],
  ])('exits 2 when %s cannot be read', async (_name, flags) => {
    const { code, json } = await run('lint', 'neutral.yaml', ...flags);
    expect(code).toBe(2);
    expect(json.diagnostics).toMatchObject([{ code: 'io-error', file: flags[1] }]);
  });

  it('follows a symbolic link that stays inside the folder', async () => {
    const { code, json } = await run('lint', 'cluster.yaml', '--definitions', 'linked');
    expect(code).toBe(0);
    // The file the link names is read once, under the name it was first reached by.
    expect(json.files.map((f) => f.path)).toEqual(['cluster.yaml', 'linked/a-trait.yaml']);
  });

  it('reports a symbolic link that leaves the folder as an error', async () => {
    const { code, json } = await run('lint', 'neutral.yaml', '--definitions', 'leaving');
    expect(code).toBe(2);
    expect(json.diagnostics).toMatchObject([{ code: 'io-error', file: 'leaving/trait.yaml', message: expect.stringContaining('leaves leaving') }]);
  });

  it('reports a symbolic link loop as an error', async () => {
    const { code, json } = await run('lint', 'neutral.yaml', '--definitions', 'looping');
    expect(code).toBe(2);
    expect(json.diagnostics).toMatchObject([{ code: 'io-error', file: 'looping/inner/up', message: expect.stringContaining('loop') }]);
  });
});

describe('kurel lint --capability-def', () => {
  it('loads every definition of each file given, repeatably', async () => {
    const { code, json } = await run('lint', 'cluster.yaml', '--capability-def', 'multi.yaml', '--capability-def', 'defs/nested/trait.yml');
    expect({ code, diagnostics: json.diagnostics }).toEqual({ code: 0, diagnostics: [] });
  });

  it('exits 1 with the position in the definition file when a definition is wrong', async () => {
    const { code, json } = await run('lint', 'cluster.yaml', '--capability-def', 'broken.yaml');
    expect(code).toBe(1);
    expect(json.diagnostics).toMatchObject([
      { code: 'definition-invalid', file: 'broken.yaml', line: 8, column: 34, path: '/spec/rendering/properties/mode/enum' },
    ]);
  });
});

describe('kurel lint with definition files as inputs', () => {
  it('lints a definition file alone, without a profile', async () => {
    const { code, json } = await run('lint', 'multi.yaml');
    expect(code).toBe(0);
    expect(json.files).toEqual([{ path: 'multi.yaml', kind: 'CapabilityDefinition', status: 'checked' }]);
  });

  it('reports a mistake in a definition file given as an input', async () => {
    const { code, json } = await run('lint', 'broken.yaml');
    expect(code).toBe(1);
    expect(json.diagnostics).toMatchObject([{ code: 'definition-invalid', file: 'broken.yaml', line: 8, column: 34 }]);
  });

  it('loads definitions from an input folder for the profiles of the whole run', async () => {
    const { code, json } = await run('lint', 'defs', 'cluster.yaml');
    expect(code).toBe(0);
    expect(json.files.find((f) => f.path === 'cluster.yaml')?.resolved?.capabilities).toEqual({ 'my-trait': { mode: 'fast', level: 3 } });
  });
});

describe('kurel capabilities', () => {
  it('prints the registry as JSON sorted by type, a definition-only type with its file as source', async () => {
    const run = await runKurel(['capabilities', '--format', 'json', '--definitions', 'defs', '--capability-def', 'multi.yaml'], { cwd: root });
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as { type: string; source: string }[];
    expect(listing.map((c) => c.type)).toEqual([...listing.map((c) => c.type)].sort());
    expect(listing.find((c) => c.type === 'my-trait')).toEqual({
      type: 'my-trait',
      source: 'defs/nested/trait.yml',
      capabilityAware: false,
      capabilityRequired: false,
      hasDefinition: true,
      description: '',
      versions: [],
      latest: null,
      handlerVersion: null,
    });
    expect(listing.find((c) => c.type === 'expose')).toEqual({
      type: 'expose',
      source: 'builtin',
      capabilityAware: true,
      capabilityRequired: true,
      hasDefinition: false,
      description: "Routes traffic to a component through the cluster's ingress or Gateway API",
      versions: [],
      latest: null,
      handlerVersion: '1.0.0',
    });
    expect(listing.filter((c) => c.source !== 'builtin').map((c) => c.type)).toEqual(['first-trait', 'my-trait', 'second-trait']);
  });

  it('names a plugin as the source of its type, with hasDefinition when a definition also applies', async () => {
    const plugin = fileURLToPath(new URL('../fixtures/plugins/schemaless-redis-sidecar.mjs', import.meta.url));
    const definitions = fileURLToPath(new URL('../../definitions/', import.meta.url));
    const run = await runKurel(['capabilities', '--format', 'json', '--plugin', plugin, '--definitions', definitions], { cwd: root });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { type: string }[]).find((c) => c.type === 'redis-sidecar')).toEqual({
      type: 'redis-sidecar',
      source: `plugin:${plugin}`,
      capabilityAware: false,
      capabilityRequired: false,
      hasDefinition: true,
      description: 'injects a Redis sidecar',
      versions: [],
      latest: null,
      handlerVersion: null,
    });
  });

  it('prints a table with one row per type', async () => {
    const run = await runKurel(['capabilities', '--capability-def', 'multi.yaml'], { cwd: root });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TYPE +SOURCE +AWARE +REQUIRED +DEFINITION +VERSIONS +LATEST +DESCRIPTION$/);
    expect(lines.find((l) => l.startsWith('first-trait '))).toMatch(/^first-trait +multi\.yaml +no +no +yes +- +- +$/);
    expect(lines.find((l) => l.startsWith('certificate '))).toMatch(/^certificate +builtin +yes +yes +no +1\.0\.0 \(handler\) +- +Issues TLS certificates/);
    expect(lines).toHaveLength(1 + 16 + 2);
  });

  it('exits 1 and prints the definition error when a definition is wrong', async () => {
    const run = await runKurel(['capabilities', '--capability-def', 'broken.yaml'], { cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^broken\.yaml:8:34 error definition-invalid mode\.enum must list at least one value/);
  });

  it('exits 2 when a definitions folder cannot be read', async () => {
    const run = await runKurel(['capabilities', '--definitions', 'missing'], { cwd: root });
    expect(run.code).toBe(2);
  });
});
