import type { CommandIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';

/** What an in-process CLI run printed and how it exited. */
export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `kurel` in this process through `runCli`, in `cwd`, without colour and with empty standard input. */
export async function runInProcess(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stdin: () => Promise.resolve(new Uint8Array()),
    cwd,
    env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
