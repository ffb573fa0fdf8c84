import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintBounded, located } from './bounded-cli.js';

// Issue #7: documents nested 10,000 deep are too-deep (limit 128, docs/profiles.md), never a stack
// overflow, in flow and block style, pointing at the collection that passes the limit.
const DEPTH = 10_000;
const MEBIBYTE = 1024 * 1024;
const PROFILE =
  'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: prod\nspec:\n  capabilities:\n    ingress:\n      rendering:\n';

// Each file is one document whose root collection is level 1: level 129 starts after 128 openers.
const FILES: [name: string, text: string, line: number, column: number][] = [
  ['flow-lists.yaml', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`, 1, 129],
  ['flow-maps.yaml', `${'{a: '.repeat(DEPTH)}${'}'.repeat(DEPTH)}\n`, 1, 4 * 128 + 1],
  ['block-lists.yaml', `${'- '.repeat(DEPTH)}x\n`, 1, 2 * 128 + 1],
  // Block maps need one more space of indentation per level; 10,000 levels would be 50 MB, so
  // this one passes the limit by a little and is read to the end.
  ['block-maps.yaml', `${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')}\n${' '.repeat(200)}v\n`, 129, 129],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-deep-'));
  for (const [name, text] of FILES) writeFileSync(join(dir, name), text);
  // Inside a profile: root map, spec, capabilities, ingress and rendering are levels 1-5, so
  // the 124th "[" on line 9 (from column 15) is level 129.
  writeFileSync(join(dir, 'profile.yaml'), `${PROFILE}        deep: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`);
  writeFileSync(join(dir, 'block-in-profile.yaml'), `${PROFILE}        deep:\n          - ${'- '.repeat(DEPTH)}x\n`);
  writeFileSync(join(dir, 'mebibyte-flow.yaml'), `a: ${'['.repeat(MEBIBYTE / 2)}${']'.repeat(MEBIBYTE / 2)}\n`);
  writeFileSync(join(dir, 'mebibyte-block.yaml'), `${'- '.repeat(MEBIBYTE / 2)}x\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('nesting 10,000 deep', () => {
  it.each(FILES.map(([name, , line, column]) => [name, line, column] as const))('reports %s as too-deep at line %i, column %i', async (name, line, column) => {
    const run = await lintBounded([name], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json).map(({ code, line, column }) => ({ code, line, column })) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'too-deep', line, column }],
    });
  });

  it('says what the limit is', async () => {
    const run = await lintBounded(['flow-lists.yaml'], { cwd: dir });
    expect(run.json.diagnostics[0]?.message).toBe('nesting deeper than 128 levels is not accepted');
  });

  it('reports flow nesting inside a profile rendering at the level that passes the limit', async () => {
    const run = await lintBounded(['profile.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'too-deep', file: 'profile.yaml', line: 9, column: 15 + 123, path: '' }],
    });
  });

  it('reports block nesting inside a profile rendering at the level that passes the limit', async () => {
    // Level 6 is the list at column 11 of line 10; each "- " after it opens one more level.
    const run = await lintBounded(['block-in-profile.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({
      code: 1,
      diagnostics: [{ code: 'too-deep', file: 'block-in-profile.yaml', line: 10, column: 11 + 2 * 123, path: '' }],
    });
  });

  it('reports the nesting and still checks the other files of the run', async () => {
    const run = await lintBounded(['flow-maps.yaml', 'block-maps.yaml'], { cwd: dir });
    expect(located(run.json).map((d) => [d.code, d.file])).toEqual([
      ['too-deep', 'block-maps.yaml'],
      ['too-deep', 'flow-maps.yaml'],
    ]);
  });

  // Issue #10, item 10: 1 MiB of flow nesting took 3 s and 590 MB (646 MB here) before its
  // too-deep; now it is refused while it is lexed, under the usual heap ceiling.
  it.each([
    ['mebibyte-flow.yaml', 1, 131],
    ['mebibyte-block.yaml', 1, 257],
  ])('reports 1 MiB of nesting in %s as too-deep at line %i, column %i, in bounded memory', async (name, line, column) => {
    const run = await lintBounded([name], { cwd: dir });
    expect({ code: run.code, diagnostics: located(run.json) }).toEqual({ code: 1, diagnostics: [{ code: 'too-deep', file: name, line, column, path: '' }] });
  });
});
