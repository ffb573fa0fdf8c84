import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI the package ships (`npm test` builds it first). */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What a CLI run printed and how it exited. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `kurel` CLI as a separate process. */
export function runKurel(args: readonly string[], options: { cwd?: string; input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
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

/** Runs the CLI with `--format json` appended and parses the envelope. */
export async function runKurelJson<T = JsonEnvelope>(
  args: readonly string[],
  options: { cwd?: string; input?: string | Buffer } = {},
): Promise<CliRun & { json: T }> {
  const run = await runKurel([...args, '--format', 'json'], options);
  return { ...run, json: JSON.parse(run.stdout) as T };
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
