import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachCommand, type ReadmeSandbox, readmeSandbox, readmeWalkthrough } from '../helpers/readme.js';

let sandbox: ReadmeSandbox;

beforeAll(() => {
  sandbox = readmeSandbox(['test/fixtures/versioned']);
});

afterAll(() => sandbox.remove());

describe('the walkthrough of releasing a definition in docs/compat.md', () => {
  const steps = readmeWalkthrough('docs/compat.md');

  it('checks the fixture package, then a release that declares too small a bump', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual(['cp -r', 'cd shop', 'kurel compat', 'sed -e', 'kurel compat']);
    expect(steps.at(-1)!.output).toContain('hint: release it as 2.0.0');
  });

  it('prints exactly what the page shows, command after command', () => {
    eachCommand(steps, sandbox.root, (step, cwd) => {
      const output = execFileSync('sh', ['-c', `${step.command} 2>&1`], { cwd, env: sandbox.env, encoding: 'utf8' });
      expect(output.replace(/\n$/, ''), step.command).toBe(step.output);
    });
  });
});
