import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachCommand, type ReadmeSandbox, readmeSandbox, readmeWalkthrough, type Step } from '../helpers/readme.js';

let sandbox: ReadmeSandbox;

beforeAll(() => {
  sandbox = readmeSandbox(['test/fixtures/versioned', 'test/fixtures/migrate']);
});

afterAll(() => sandbox.remove());

/** Runs each step in the sandbox and checks it prints exactly what the page shows. */
function runsAsShown(steps: readonly Step[]): void {
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
}

describe('the walkthrough of versions in docs/versions.md', () => {
  const steps = readmeWalkthrough('docs/versions.md');

  it('has the steps the issues ask for: pinning, locking, and definition-changed after an edit in place', () => {
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
    expect(steps[7]!.output).toContain('error definition-changed');
  });

  it('prints exactly what the page shows, command after command', () => {
    runsAsShown(steps);
  });
});

describe('the walkthrough of migrating in docs/migrate.md', () => {
  const steps = readmeWalkthrough('docs/migrate.md');

  it('has the steps the issues ask for: the renamed key in the diff, --check in CI, --write, a lossy step back', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual([
      'cp -r',
      'cd fleet',
      'kurel migrate',
      'kurel migrate',
      'kurel migrate',
      'kurel lint',
      'kurel migrate',
    ]);
    expect(steps[2]!.output).toContain('+        memoryLimit: 2Gi    # do not lower');
    expect(steps[3]!.command).toContain('--check');
    expect(steps[3]!.output).toContain('exit 1');
    expect(steps[4]!.command).toContain('--write');
    expect(steps.at(-1)!.output).toContain('error migration-lossy');
  });

  it('prints exactly what the page shows, command after command', () => {
    runsAsShown(steps);
  });
});
