import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';

// `kurel lint … --format json | head -c 100`: when the reader of standard output goes away,
// kurel stops printing without a word and exits as it would have (README "Exit codes").

// 2000 unknown capabilities: far more output than a pipe's buffer holds.
const BIG = `apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: big\nspec:\n  capabilities:\n${Array.from(
  { length: 2000 },
  (_, i) => `    unknown${i}: {}\n`,
).join('')}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-pipe-'));
  writeFileSync(join(dir, 'big.yaml'), BIG);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Runs the CLI, reads the first chunk of its standard output, then closes the pipe.
function readHeadThenClose(args: string[]): Promise<{ code: number | null; head: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let head = '';
    let stderr = '';
    child.stdout.once('data', (chunk: Buffer) => {
      head = chunk.toString('utf8').slice(0, 100);
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('close', (code) => resolve({ code, head, stderr }));
  });
}

describe('a reader that goes away', () => {
  it.each([
    [['lint', 'big.yaml', '--format', 'json', '--strict'], 1, '{\n  "valid": false,'],
    [['lint', 'big.yaml', '--format', 'json'], 0, '{\n  "valid": true,'],
    [['lint', 'big.yaml'], 0, 'big.yaml:1:1 warning too-many-problems'],
  ])('%j stops quietly with the exit code of the run', async (args, code, start) => {
    const run = await readHeadThenClose(args);
    expect(run.head.startsWith(start)).toBe(true);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code, stderr: '' });
  });
});
