import { describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';

// docs/profiles.md: the text output puts a caret under the offending span of the source line,
// in the colour of the problem's severity, never past the part of a long line it shows.

const HEADER = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: x\nspec:\n  capabilities:\n';
const lint = (text: string, ...flags: string[]) => runKurel(['lint', '-', '--stdin-filepath', 'cluster.yaml', ...flags], { input: text });

describe('the caret of the text output', () => {
  it('ends with the shown part of a line cut at 300 characters (too-deep on a long line)', async () => {
    const run = await lint(`${HEADER}    scaler:\n      rendering: ${'['.repeat(400)}${']'.repeat(400)}\n`);
    const [, excerpt, caret] = run.stdout.split('\n');
    expect(excerpt).toBe(`        rendering: ${'['.repeat(300 - '      rendering: '.length)}…`);
    expect(caret).toBe(`  ${' '.repeat(141)}${'^'.repeat(excerpt!.length - 2 - 141)}`);
  });

  it('is yellow under a warning and red under an error, with --color always', async () => {
    const run = await lint(`${HEADER}    exposee: {}\n    pvc: {rendering: {size: 3}}\n`, '--color', 'always');
    const lines = run.stdout.split('\n');
    const caretOf = (index: number) => lines.find((line, i) => i > index && /\^/.test(line));
    const warningAt = lines.findIndex((line) => line.includes('unknown-capability'));
    const errorAt = lines.findIndex((line) => line.includes('\u001b[31merror'));
    expect(warningAt).toBeGreaterThanOrEqual(0);
    expect(errorAt).toBeGreaterThanOrEqual(0);
    // The caret alone, between the colour's start and its end: yellow (33) or red (31).
    const colourOf = (line: string | undefined) => /^ +(.\[\d+m)\^+(.\[39m)$/.exec(line ?? '')?.slice(1);
    expect(colourOf(caretOf(warningAt))).toEqual(['\u001b[33m', '\u001b[39m']);
    expect(colourOf(caretOf(errorAt))).toEqual(['\u001b[31m', '\u001b[39m']);
  });
});
