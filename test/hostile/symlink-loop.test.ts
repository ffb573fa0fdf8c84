import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded } from './bounded-cli.js';

// Issue #7: a symbolic link loop in a definitions folder is an error naming the link (docs/definitions.md),
// never an endless walk; links that stay inside the folder are still followed.
const PROFILE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    cache:\n      rendering: {size: 3}\n';
const DEFINITION =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec:\n  rendering:\n    properties:\n      size: {type: integer}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-symlinks-'));
  writeFileSync(join(dir, 'cluster.yaml'), PROFILE);
  mkdirSync(join(dir, 'defs', 'nested'), { recursive: true });
  mkdirSync(join(dir, 'defs', 'store'), { recursive: true });
  writeFileSync(join(dir, 'defs', 'store', 'cache.yaml'), DEFINITION);
  symlinkSync('.', join(dir, 'defs', 'self')); // the folder inside itself
  symlinkSync('..', join(dir, 'defs', 'nested', 'up')); // a subfolder back to its parent
  symlinkSync('b.yaml', join(dir, 'defs', 'a.yaml')); // two links to each other
  symlinkSync('a.yaml', join(dir, 'defs', 'b.yaml'));
  // Stays inside: followed, and reached before the file it names (read once, under this name).
  symlinkSync('../store/cache.yaml', join(dir, 'defs', 'nested', 'linked.yaml'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a symbolic link loop in a --definitions folder', () => {
  it('is an io-error at each looping link, while the folder still loads and the profile is checked', async () => {
    const run = await lintBounded(['cluster.yaml', '--definitions', 'defs'], { cwd: dir });
    expect({
      code: run.code,
      diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message]),
      files: run.json.files.map((f) => [f.path, f.kind]),
    }).toEqual({
      code: 2,
      diagnostics: [
        ['io-error', 'defs/a.yaml', 1, 1, 'defs/a.yaml is a symbolic link loop'],
        ['io-error', 'defs/b.yaml', 1, 1, 'defs/b.yaml is a symbolic link loop'],
        ['io-error', 'defs/nested/up', 1, 1, 'defs/nested/up is a symbolic link loop'],
        ['io-error', 'defs/self', 1, 1, 'defs/self is a symbolic link loop'],
      ],
      files: [
        ['cluster.yaml', 'ClusterProfile'],
        ['defs/nested/linked.yaml', 'CapabilityDefinition'],
      ],
    });
  });

  it('is the same io-error when the folder is a lint input', async () => {
    const run = await lintBounded(['defs'], { cwd: dir });
    expect(run.json.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['io-error', 'defs/a.yaml'],
      ['io-error', 'defs/b.yaml'],
      ['io-error', 'defs/nested/up'],
      ['io-error', 'defs/self'],
    ]);
  });

  it('makes a looping file named by --capability-def unreadable, exit 2', async () => {
    const run = await lintBounded(['cluster.yaml', '--capability-def', 'defs/a.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.message]) }).toEqual({
      code: 2,
      diagnostics: [
        ['unknown-capability', 'cluster.yaml', 'capability "cache" is known to no handler or definition; its rendering is not validated'],
        ['io-error', 'defs/a.yaml', 'cannot read defs/a.yaml: a symbolic link loop'],
      ],
    });
  });
});
