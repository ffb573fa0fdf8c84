import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded } from './bounded-cli.js';
import { PROFILE_HEAD } from './in-process.js';

// Issue 25 row 10 and issue 36 row 6: a glob's cost grew with a name's length to the power of
// its wildcards (`rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml` over 40 a's ran for minutes; a cap of three
// `*` followed, which extglobs and `.kurel.yaml`'s globs walked around: 90 s and over 100 s).
// Globs from every source are now matched in time linear in the glob times the name, whatever
// the wildcards (docs/configuration.md, "Globs"): these runs answer, at once, the right files.
// Each runs the built CLI under the 50 s ceiling of bounded-cli.ts, so a hang fails.

const PROFILE = `${PROFILE_HEAD}  capabilities: {}\n`;

let dir: string;
function write(path: string, text: string): void {
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-globs-'));
  write(`rd/${'a'.repeat(40)} b.yaml`, PROFILE);
  write('rd/abc.yaml', PROFILE);
  write(`ext/${'a'.repeat(60)}.yaml`, PROFILE);
  write('ext/aaaaaaaab.yaml', PROFILE);
  write(`cfg/${'a'.repeat(50)}.yaml`, PROFILE);
  write(`cfg/${'a'.repeat(12)}b.yaml`, PROFILE);
  write('cfg/.kurel.yaml', 'ignore: ["*a*a*a*a*a*a*a*a*a*a*a*b.yaml"]\n');
  write('neg/.kurel.yaml', 'ignore:\n  - "clusters/!(prod)/**"\noverrides:\n  - files: ["+(a)", "!(b)"]\n    severity: {}\n');
  write('neg/clusters/prod.yaml', PROFILE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const paths = (run: Awaited<ReturnType<typeof lintBounded>>) => run.json.files.map((f) => f.path);

describe('globs matched in linear time, whatever their wildcards (issue 36 row 6)', () => {
  it('matches thirteen stars in a part over a long name', async () => {
    const run = await lintBounded(['rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml', 'rd/*a*a*a*a*a*a*a*a*a*a*a*b.yaml'], { cwd: dir });
    expect({ code: run.code, files: paths(run), diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.message]) }).toEqual({
      code: 2,
      files: [`rd/${'a'.repeat(40)} b.yaml`],
      diagnostics: [['io-error', 'rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml', 'no file matches rd/*a*a*a*a*a*a*a*a*a*a*a*a*c.yaml']],
    });
  });

  it('matches an argument of extglobs over a 60-character name', async () => {
    const run = await lintBounded(['ext/+(a)+(a)+(a)+(a)+(a)+(a)+(a)+(a)[b].yaml'], { cwd: dir });
    expect({ code: run.code, files: paths(run) }).toEqual({ code: 0, files: ['ext/aaaaaaaab.yaml'] });
  });

  it("matches .kurel.yaml's ignore of many stars over a 50-character name", async () => {
    const run = await lintBounded(['.'], { cwd: join(dir, 'cfg') });
    // The configuration is listed as skipped; the file the glob names is ignored, never read.
    expect({ code: run.code, files: paths(run) }).toEqual({ code: 0, files: ['.kurel.yaml', `${'a'.repeat(50)}.yaml`] });
  });

  it('refuses the extglob !(…) in an argument: usage, exit 2, nothing read', async () => {
    const run = await lintBounded(['rd/!(abc).yaml'], { cwd: dir });
    expect({
      code: run.code,
      files: paths(run),
      diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message, d.hint]),
    }).toEqual({
      code: 2,
      files: [],
      diagnostics: [
        [
          'usage',
          '<command line>',
          1,
          1,
          'the glob rd/!(abc).yaml cannot be matched: the extglob !(abc) matches what its pattern does not, which cannot be matched in linear time; name what to match instead',
          'match with other wildcards, or name the files or their folder',
        ],
      ],
    });
  });

  it("refuses the extglob !(…) in .kurel.yaml's ignore and overrides, at each glob: invalid-value, exit 2", async () => {
    const run = await lintBounded(['clusters'], { cwd: join(dir, 'neg') });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path, d.message]) }).toEqual({
      code: 2,
      diagnostics: [
        [
          'invalid-value',
          '.kurel.yaml',
          2,
          5,
          '/ignore/0',
          'the glob "clusters/!(prod)/**" is refused: the extglob !(prod) matches what its pattern does not, which cannot be matched in linear time; name what to match instead',
        ],
        [
          'invalid-value',
          '.kurel.yaml',
          4,
          21,
          '/overrides/0/files/1',
          'the glob "!(b)" is refused: the extglob !(b) matches what its pattern does not, which cannot be matched in linear time; name what to match instead',
        ],
      ],
    });
  });
});
