import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue #7: a 50 MB file is file-too-large (limit 16 MiB, docs/profiles.md), exit 1, never an out-of-memory
// crash. The file is generated here, never kept in the repository. Its content, a list of 7
// million items, would take far more memory to read than the heap ceiling the CLI runs under.
const SIZE = 50 * 1024 * 1024;
const PROFILE = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\n';
const DEFINITION = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\n';

let dir: string;
let huge: Buffer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-huge-'));
  huge = Buffer.alloc(SIZE, '- item\n');
  writeFileSync(join(dir, 'huge.yaml'), huge);
  mkdirSync(join(dir, 'profiles'));
  writeFileSync(join(dir, 'profiles', 'a-small.yaml'), PROFILE);
  writeFileSync(join(dir, 'profiles', 'b-huge.yaml'), huge);
  mkdirSync(join(dir, 'definitions'));
  writeFileSync(join(dir, 'definitions', 'cache.yaml'), DEFINITION);
  writeFileSync(join(dir, 'definitions', 'huge.yaml'), huge);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a 50 MB input', () => {
  it('is file-too-large with its size and the limit, exit 1', async () => {
    const run = await lintBounded(['huge.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path, d.message]) }).toEqual({
      code: 1,
      diagnostics: [['file-too-large', 'huge.yaml', 1, 1, '', 'file is 52428800 bytes; the limit is 16777216 bytes (16 MiB)']],
    });
  });

  it('is file-too-large in a folder, and the other files of the folder are still checked', async () => {
    const run = await lintBounded(['profiles'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json), checked: run.json.files.map((f) => [f.path, f.status]) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'file-too-large', file: 'profiles/b-huge.yaml', line: 1, column: 1, path: '' }],
      checked: [['profiles/a-small.yaml', 'checked']],
    });
  });

  it('is file-too-large in a --definitions folder, and the other definitions still load', async () => {
    const run = await lintBounded(['profiles/a-small.yaml', '--definitions', 'definitions'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json), kinds: run.json.files.map((f) => [f.path, f.kind]) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'file-too-large', file: 'definitions/huge.yaml', line: 1, column: 1, path: '' }],
      kinds: [
        ['profiles/a-small.yaml', 'ClusterProfile'],
        ['definitions/cache.yaml', 'CapabilityDefinition'],
      ],
    });
  });

  it('is file-too-large on standard input, which is not read to its end', async () => {
    const run = await lintBounded(['-', '--stdin-filepath', 'piped.yaml'], { input: huge });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'file-too-large', file: 'piped.yaml', line: 1, column: 1, path: '' }],
    });
  });
});
