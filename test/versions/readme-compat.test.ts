import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { readmeWalkthrough } from '../helpers/readme.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let root: string;
let bin: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kurel-readme-compat-'));
  bin = join(root, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kurel'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'kurel'), 0o755);
  cpSync(join(ROOT, 'test/fixtures/versioned'), join(root, 'test/fixtures/versioned'), { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the README walkthrough of releasing a definition', () => {
  const steps = readmeWalkthrough('Releasing a definition');

  it('checks the fixture package, then a release that declares too small a bump', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual(['cp -r', 'cd shop', 'kurel compat', 'sed -e', 'kurel compat']);
    expect(steps.at(-1)!.output).toContain('hint: release it as 2.0.0');
  });

  it('prints exactly what the README shows, command after command', () => {
    let cwd = root;
    for (const step of steps) {
      if (step.command.startsWith('cd ')) {
        cwd = resolve(cwd, step.command.slice(3));
        continue;
      }
      const output = execFileSync('sh', ['-c', `${step.command} 2>&1`], {
        cwd,
        env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env['PATH']}` },
        encoding: 'utf8',
      });
      expect(output.replace(/\n$/, ''), step.command).toBe(step.output);
    }
  });
});
