import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One `$ command` of a README section and the output printed under it. */
export interface Step {
  command: string;
  output: string;
}

/** The `console` blocks of the README section under `## <heading>`, in order, as commands and their outputs. */
export function readmeWalkthrough(heading: string): Step[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no section "## ${heading}"`);
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
