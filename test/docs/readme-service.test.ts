import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServedProcess, startServe } from '../helpers/serve.js';

// The README's HTTP step, run as a reader runs it: right after the service starts to listen,
// while it may still answer 503, its first command waits on /readyz.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');

/** The sh block after "The same checks run over HTTP": its commands and the answer it shows. */
function httpStep(): { commands: string[]; answer: string } {
  const from = README.indexOf('The same checks run over HTTP');
  const start = README.indexOf('```sh\n', from) + '```sh\n'.length;
  const lines = README.slice(start, README.indexOf('```', start)).trimEnd().split('\n');
  return {
    commands: lines.filter((line) => !line.startsWith('#')),
    answer: lines
      .filter((line) => line.startsWith('# '))
      .map((line) => line.slice(2))
      .join('\n'),
  };
}

let served: ServedProcess | undefined;
afterAll(async () => {
  await served?.stop();
});

describe("the README's HTTP step", () => {
  it('waits for /readyz, then answers the validation the README shows', async () => {
    const { commands, answer } = httpStep();
    expect(commands[0]).toMatch(/^curl .*--retry.* http:\/\/127\.0\.0\.1:8080\/readyz$/);
    served = await startServe(['--port', '0', '--processes', '1', '--workers', '1'], { cwd: ROOT, until: 'listening' });
    const script = commands.map((command) => command.replaceAll('http://127.0.0.1:8080', served!.url)).join(' &&\n');
    expect(execFileSync('sh', ['-c', script], { cwd: ROOT, encoding: 'utf8' })).toBe(answer);
  });
});
