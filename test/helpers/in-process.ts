import { type CliRun, runCaptured } from './cli.js';

/** What an in-process CLI run printed and how it exited. */
export type InProcessRun = CliRun;

/** Runs `kurel` in this process through `runCli`, in `cwd`, without colour and with empty standard input. */
export function runInProcess(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<InProcessRun> {
  return runCaptured(argv, { cwd, env });
}
