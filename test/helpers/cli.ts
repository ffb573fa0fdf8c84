import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';

/** The built CLI the package ships (the e2e tests run it as a process; `test/setup/build-dist.ts` keeps it current). */
export const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/** What a CLI run printed and how it exited. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a test runs the CLI: the working folder, standard input and variables added to the environment. */
export interface RunOptions {
  cwd?: string;
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `kurel` in this process through `runCli`, from the sources, with everything it would take
 * from its process (working folder, environment with NO_COLOR, standard input, whether the
 * streams are terminals) given through its `CommandIo`: nothing process-wide is read or changed,
 * so test files running side by side in worker threads cannot disturb each other.
 */
export async function runKurel(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return runCaptured(args, {
    cwd: resolve(options.cwd ?? process.cwd()),
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}

/**
 * Runs `kurel` in this process through `runCli` with exactly the folder, environment and
 * standard input given (nothing of the test process's own), its streams not terminals; what it
 * prints is captured. A command that throws ends as the built entry ends it: exit 2.
 */
export async function runCaptured(args: readonly string[], given: { cwd: string; env: NodeJS.ProcessEnv; input?: string | Buffer }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const input = Buffer.from(given.input ?? '');
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: () => Promise.resolve(input),
    cwd: given.cwd,
    env: given.env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  let code: number;
  try {
    code = await runCli(args, io);
  } catch (err) {
    // What the built entry prints and exits with when a command throws (src/cli/main.ts).
    stderr += `kurel: internal error: ${(err as Error)?.stack ?? String(err)}\n`;
    code = 2;
  }
  return { code, stdout, stderr };
}

/** Runs the built `kurel` CLI (`dist/cli.cjs`) as a separate process: for what only a real process shows. */
export function spawnKurel(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = exitCodeOf(err);
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs the CLI in-process with `--format json` appended and parses the envelope. */
export async function runKurelJson<T = JsonEnvelope>(args: readonly string[], options: RunOptions = {}): Promise<CliRun & { json: T }> {
  const run = await runKurel([...args, '--format', 'json'], options);
  return { ...run, json: parseOutput<T>(run) };
}

/** Runs the built CLI as a process with `--format json` appended and parses the envelope. */
export async function spawnKurelJson<T = JsonEnvelope>(args: readonly string[], options: RunOptions = {}): Promise<CliRun & { json: T }> {
  const run = await spawnKurel([...args, '--format', 'json'], options);
  return { ...run, json: parseOutput<T>(run) };
}

function parseOutput<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`kurel printed no JSON (exit ${run.code}); stderr:\n${run.stderr}\nstdout:\n${run.stdout}`);
  }
}

/** The `--format json` envelope. */
export interface JsonEnvelope {
  valid: boolean;
  diagnostics: {
    code: string;
    severity: string;
    message: string;
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    path: string;
    hint?: string;
  }[];
  files: { path: string; kind: string; status: string; reason?: string; resolved?: { gitopsEngine: string; capabilities: Record<string, unknown> } }[];
  application?: unknown;
}

/** The exit code a finished child process reports through execFile's error (0 without one). */
export function exitCodeOf(err: unknown): number {
  if (!err) return 0;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : 1;
}
