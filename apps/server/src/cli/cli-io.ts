/**
 * What a command reads and writes besides its arguments: the environment, its two output streams
 * and, for the commands that run until stopped, a stop signal. `main.ts` binds them to the
 * process; tests run the same commands in their own process with captured output.
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Aborted when the command should stop (Ctrl-C); asked for only by the long-running commands. */
  stopSignal(): AbortSignal;
}
