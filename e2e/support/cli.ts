// The command line (`npm run cli -- …`) run in the journey's own process, like its server
// (support/server.ts): the same commands (apps/server/src/cli/commands.ts) without a
// `node --import tsx` of their own, which spent 2–3 s of CPU on imports alone per call.
// `apps/server/test/platform/cli.test.ts` proves the process around them.

/** Runs the command on `env`; answers what it printed; a failed command throws with its output. */
export const cliInThisProcess = async (args: string[], env: NodeJS.ProcessEnv): Promise<string> => {
  const { cliInProcess } = await import('../../apps/server/test/helpers/cli.ts');
  const result = await cliInProcess(args, env);
  if (result.code !== 0)
    throw new Error(
      `npm run cli -- ${args.join(' ')} exited ${result.code}:\n${result.stdout}${result.stderr}`,
    );
  return result.stdout;
};
