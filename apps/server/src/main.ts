import { loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { StartupError } from './lib/startup-error.ts';
import { restrictNewFileModes } from './lib/data-dir-modes.ts';
import { serve } from './serve.ts';

// Before anything is written: the database files, the secret key and stored objects are this
// user's alone (PGlite would create them world-writable under a default umask).
restrictNewFileModes();
const config = loadConfig();
const app = await serve(config).catch((error: unknown) => {
  // A second server on the same embedded database folder: refuse with the reason, no stack.
  if (error instanceof DataDirLockedError || error instanceof StartupError) {
    process.stderr.write(`Flashbulb cannot start: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
});

let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  // Stop taking requests, let running ones and jobs finish, then close the database.
  const timer = setTimeout(() => process.exit(1), 15_000);
  timer.unref();
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
