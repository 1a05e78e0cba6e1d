// The command line's process: `npm run cli -- …` (commands.ts holds the commands).
import { restrictNewFileModes } from '../lib/data-dir-modes.ts';
import { runCli } from './commands.ts';

// Whatever this command writes into the data folder (database files, the secret key) is the
// server user's alone.
restrictNewFileModes();

/** Ctrl-C or SIGTERM stops a long-running command (upload --watch, print-agent, terminal-sim). */
let stop: AbortController | undefined;
const stopSignal = (): AbortSignal => {
  if (!stop) {
    const controller = new AbortController();
    stop = controller;
    process.once('SIGINT', () => controller.abort());
    process.once('SIGTERM', () => controller.abort());
  }
  return stop.signal;
};

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stopSignal,
});
process.exit(code);
