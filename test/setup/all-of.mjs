// Runs each command given (one argument each, as a shell would) at the same time, prints each
// one's output once it ends, and exits 1 when any fails: the type checks and the lint of
// `npm test` are independent, and one after another they left a core idle.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('error', (err) => resolve({ command, code: 1, output: Buffer.from(String(err)) }));
        child.on('close', (code, signal) => resolve({ command, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
      }),
  ),
);
for (const { command, code, output } of results) {
  if (output.length > 0 || code !== 0) process.stdout.write(`> ${command}${code === 0 ? '' : ` (exit ${code})`}\n${output}`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
