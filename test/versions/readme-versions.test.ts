import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachCommand, type ReadmeSandbox, readmeSandbox, readmeWalkthrough } from '../helpers/readme.js';

let sandbox: ReadmeSandbox;

beforeAll(() => {
  sandbox = readmeSandbox(['test/fixtures/versioned', 'test/fixtures/migrate']);
});

afterAll(() => sandbox.remove());

describe('the README walkthrough of versions', () => {
  const steps = readmeWalkthrough('Versions');

  it('has the steps the issues ask for: pinning, locking, definition-changed after an edit in place, and migrating', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual([
      'cp -r',
      'cd shop',
      'kurel outdated',
      'kurel build',
      'kurel lock',
      'cat kurel.lock.yaml',
      'sed -i',
      'kurel lint',
      'cd ..',
      'cp -r',
      'cd fleet',
      'kurel migrate',
      'kurel migrate',
      'kurel migrate',
      'kurel lint',
      'kurel migrate',
    ]);
    expect(steps[7]!.output).toContain('error definition-changed');
    // The migration walkthrough (issue 14): the renamed key in the diff, --check in CI, --write.
    expect(steps[11]!.output).toContain('+        memoryLimit: 2Gi    # do not lower');
    expect(steps[12]!.command).toContain('--check');
    expect(steps[12]!.output).toContain('exit 1');
    expect(steps[13]!.command).toContain('--write');
    expect(steps.at(-1)!.output).toContain('error migration-lossy');
  });

  it('prints exactly what the README shows, command after command', () => {
    eachCommand(steps, sandbox.root, (step, cwd) => {
      let output: string;
      try {
        // Standard error joins standard output first, so a step may send either one elsewhere.
        output = execFileSync('sh', ['-c', `exec 2>&1; ${step.command}`], { cwd, env: sandbox.env, encoding: 'utf8' });
      } catch (err) {
        output = (err as { stdout: string }).stdout;
      }
      expect(output.replace(/\n$/, ''), step.command).toBe(step.output);
    });
  });
});
