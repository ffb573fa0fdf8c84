import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CLI } from './cli.js';

/** A `kurel serve` process that has logged that it listens (and, unless asked otherwise, that every worker has loaded). */
export interface ServedProcess {
  child: ChildProcessWithoutNullStreams;
  /** The `url` of its `listening` line. */
  url: string;
  /** Every JSON log line so far (more arrive while it runs). */
  lines: Record<string, unknown>[];
  exit: Promise<number | null>;
  /** Sends SIGTERM (SIGKILL when it has not exited within 5 s) and waits for the exit. */
  stop(): Promise<number | null>;
}

/** The log line a service writes once every worker has loaded, when `/readyz` turns 200. */
export const READY_LINE = 'ready: every worker has loaded';

/**
 * Starts `node <cli> serve ...args` (or another entry, for an installed package) and resolves
 * once it logs that every worker has loaded (`until: 'listening'`: once it logs `listening`,
 * when its other workers may still be loading); rejects with its standard error when it exits
 * first.
 */
export function startServe(
  args: readonly string[],
  options: { cwd?: string; cli?: string; env?: NodeJS.ProcessEnv; until?: 'listening' | 'ready' } = {},
): Promise<ServedProcess> {
  const until = options.until === 'listening' ? 'listening' : READY_LINE;
  const child = spawn(process.execPath, [options.cli ?? CLI, 'serve', ...args], {
    cwd: options.cwd,
    env: { ...process.env, LOG_LEVEL: 'info', ...options.env },
  });
  const lines: Record<string, unknown>[] = [];
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    }
    return exit;
  };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    readJsonLines(child.stdout, lines, (line) => {
      if (line['msg'] !== until) return;
      const listening = lines.find((l) => l['msg'] === 'listening');
      resolve({ child, url: String(listening?.['url']), lines, exit, stop });
    });
    void exit.then((code) => reject(new Error(`kurel serve exited with ${code} before it was ${until === 'listening' ? 'listening' : 'ready'}: ${stderr}`)));
  });
}

/** Reads the JSON log lines of `stream` into `lines` as they come, calling `onLine` after each is added. */
export function readJsonLines(
  stream: NodeJS.ReadableStream,
  lines: Record<string, unknown>[] = [],
  onLine: (line: Record<string, unknown>) => void = () => {},
): Record<string, unknown>[] {
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) {
      const line = JSON.parse(part) as Record<string, unknown>;
      lines.push(line);
      onLine(line);
    }
  });
  return lines;
}

/** Polls `probe` every 20 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
