// The command line run inside the test's process: the same commands `npm run cli` runs
// (src/cli/commands.ts), with their output captured, without a process of their own. A spawned
// `node --import tsx` costs 2–3 s of CPU in imports alone; a test about what a command does (not
// about the process: signals, exit, file modes) calls this instead.
import { runCli } from '../../src/cli/commands.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run cli -- <args>` on `env` (the whole environment the command sees). */
export const cliInProcess = async (
  args: string[],
  env: NodeJS.ProcessEnv,
  stopSignal: AbortSignal = new AbortController().signal,
): Promise<CliResult> => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    stopSignal: () => stopSignal,
  });
  return { code, stdout, stderr };
};
