/** Where the service writes: its log lines and its start-up refusal. */
export interface ServiceIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}
