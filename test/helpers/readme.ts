import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One `$ command` of a walkthrough in the docs and the output printed under it. */
export interface Step {
  command: string;
  output: string;
}

/**
 * The `console` blocks of a page of the docs (`README.md`, `docs/versions.md`, …), in order, as
 * commands and their outputs: of the whole page, or of its section `## <heading>` when given.
 */
export function readmeWalkthrough(page: string, heading?: string): Step[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  let section = text;
  if (heading !== undefined) {
    const start = text.indexOf(`\n## ${heading}\n`);
    if (start === -1) throw new Error(`${page} has no section "## ${heading}"`);
    const end = text.indexOf('\n## ', start + 1);
    section = text.slice(start, end === -1 ? undefined : end);
  }
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

/** A folder to run a walkthrough of the docs in: the fixtures it copies, and `kurel` on the PATH as the built CLI. */
export interface ReadmeSandbox {
  root: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** Makes a {@link ReadmeSandbox} holding the repository's `fixtures` folders at the same relative paths. */
export function readmeSandbox(fixtures: readonly string[]): ReadmeSandbox {
  const root = mkdtempSync(join(tmpdir(), 'kurel-readme-'));
  const bin = join(root, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kurel'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'kurel'), 0o755);
  for (const fixture of fixtures) cpSync(join(ROOT, fixture), join(root, fixture), { recursive: true });
  return {
    root,
    env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env['PATH']}` },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Calls `run` for each step but a `cd`, which moves the folder the next steps run in (from the sandbox's root). */
export function eachCommand(steps: readonly Step[], root: string, run: (step: Step, cwd: string) => void): void {
  let cwd = root;
  for (const step of steps) {
    if (step.command.startsWith('cd ')) cwd = resolve(cwd, step.command.slice(3));
    else run(step, cwd);
  }
}
