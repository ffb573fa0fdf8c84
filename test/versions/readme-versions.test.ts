import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One `$ command` of the README's Versions section and the output printed under it. */
interface Step {
  command: string;
  output: string;
}

/** The `console` blocks of the README's "Versions" section, in order, as commands and their outputs. */
function walkthrough(): Step[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Versions\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const steps: Step[] = [];
  for (const block of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.replace(/\n$/, '').split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: '' });
      else if (steps.length > 0) steps[steps.length - 1]!.output += `${line}\n`;
    }
  }
  for (const step of steps) step.output = step.output.replace(/\n$/, '');
  return steps;
}

let root: string;
let bin: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-readme-'));
  bin = join(root, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kurel'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'kurel'), 0o755);
  cpSync(join(ROOT, 'test/fixtures/versioned'), join(root, 'test/fixtures/versioned'), { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the README walkthrough of versions', () => {
  const steps = walkthrough();

  it('has the steps the issue asks for: pinning, locking, and definition-changed after an edit in place', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual([
      'cp -r',
      'cd shop',
      'kurel outdated',
      'kurel build',
      'kurel lock',
      'cat kurel.lock.yaml',
      'sed -i',
      'kurel lint',
    ]);
    expect(steps.at(-1)!.output).toContain('error definition-changed');
  });

  it('prints exactly what the README shows, command after command', () => {
    let cwd = root;
    for (const step of steps) {
      if (step.command.startsWith('cd ')) {
        cwd = resolve(cwd, step.command.slice(3));
        continue;
      }
      let output: string;
      try {
        output = execFileSync('sh', ['-c', `${step.command} 2>&1`], {
          cwd,
          env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env['PATH']}` },
          encoding: 'utf8',
        });
      } catch (err) {
        output = (err as { stdout: string }).stdout;
      }
      expect(output.replace(/\n$/, ''), step.command).toBe(step.output);
    }
  });
});
