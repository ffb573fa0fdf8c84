import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachCommand, type ReadmeSandbox, readmeSandbox, readmeWalkthrough } from '../helpers/readme.js';

let sandbox: ReadmeSandbox;

beforeAll(() => {
  sandbox = readmeSandbox(['profiles', 'definitions', 'examples/shop']);
});

afterAll(() => sandbox.remove());

describe("the README's five-minute tour", () => {
  const steps = readmeWalkthrough('README.md', 'A five-minute tour');

  it('lints a clean and a broken profile, judges at a platform version, and builds against two profiles', () => {
    expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual([
      'kurel lint',
      "sed 's/ingressClassName/ingressClass/'",
      'kurel lint',
      'kurel lint',
      'kurel build',
      'kurel build',
    ]);
    expect(steps[2]!.output).toContain('hint: did you mean ingressClassName?');
    expect(steps[3]!.output).toContain('error field-unavailable');
    expect(steps.at(-1)!.output).toContain('error missing-capability');
  });

  it('prints exactly what the README shows, command after command', () => {
    eachCommand(steps, sandbox.root, (step, cwd) => {
      let output: string;
      try {
        // Standard error joins standard output first, as on a terminal.
        output = execFileSync('sh', ['-c', `exec 2>&1; ${step.command}`], { cwd, env: sandbox.env, encoding: 'utf8' });
      } catch (err) {
        output = (err as { stdout: string }).stdout;
      }
      expect(output.replace(/\n$/, ''), step.command).toBe(step.output);
    });
  });
});
