/** What a command needs from its process, so tests can run commands in-process. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin(): Promise<Uint8Array>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}
