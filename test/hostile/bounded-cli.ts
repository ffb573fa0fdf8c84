import { spawn } from 'node:child_process';
import { CLI, type CliRun, type JsonEnvelope } from '../helpers/cli.js';

/** The old-space ceiling hostile inputs run under: far below what expanding them would take. */
export const HEAP_LIMIT_MB = 96;

/**
 * How long a hostile run may take before it counts as hung and is killed: a ceiling for a hang,
 * not a speed check (files run side by side), below the tests' own 60 s.
 */
const ANSWER_WITHIN_MS = 50_000;

/**
 * Runs `kurel lint` (the built CLI) with `--format json` under a small heap ceiling, so an input that makes
 * kurel allocate without bound crashes the run (and fails the test) instead of passing slowly.
 * Standard input may be larger than kurel reads; a pipe closed early is not an error here.
 * `heapLimitMb` raises the ceiling for inputs whose mere parse needs more. A run still going
 * after 50 s is killed and fails.
 */
export function lintBounded(
  args: readonly string[],
  options: { cwd?: string; input?: Buffer; heapLimitMb?: number } = {},
): Promise<CliRun & { json: JsonEnvelope }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${options.heapLimitMb ?? HEAP_LIMIT_MB}`, CLI, 'lint', ...args, '--format', 'json'], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => {
      // kurel stops reading standard input past its size limit and exits.
    });
    child.stdin.end(options.input ?? '');
    child.on('error', reject);
    // A run that hangs (a FIFO read with no writer) fails here instead of outliving the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kurel did not answer within ${ANSWER_WITHIN_MS} ms`));
    }, ANSWER_WITHIN_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const run = { code: code ?? -1, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
      if (signal || run.stderr.includes('heap out of memory')) {
        reject(new Error(`kurel crashed (${signal ?? `exit ${code}`}): ${run.stderr.slice(0, 500)}`));
        return;
      }
      try {
        resolve({ ...run, json: JSON.parse(run.stdout) as JsonEnvelope });
      } catch {
        reject(new Error(`kurel printed no JSON envelope (exit ${code}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`));
      }
    });
  });
}

/** The parts of a diagnostic these tests pin: code, position and path. */
export function located(json: JsonEnvelope): { code: string; file: string; line: number; column: number; path: string }[] {
  return json.diagnostics.map((d) => ({ code: d.code, file: d.file, line: d.line, column: d.column, path: d.path }));
}
