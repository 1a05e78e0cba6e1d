import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { bootstrapAdmin } from './bootstrap.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { StartupError } from './lib/startup-error.ts';
import { describeOpenModes, restrictNewFileModes, secureDataDir } from './lib/data-dir-modes.ts';

// Before anything is written: the database files, the secret key and stored objects are this
// user's alone (PGlite would create them world-writable under a default umask).
restrictNewFileModes();
const config = loadConfig();
const openModes = await secureDataDir(config.dataDir);
const app = await buildApp(config).catch((error: unknown) => {
  // A second server on the same embedded database folder: refuse with the reason, no stack.
  if (error instanceof DataDirLockedError || error instanceof StartupError) {
    process.stderr.write(`Flashbulb cannot start: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
});
for (const line of describeOpenModes(openModes)) app.log.warn(line);
await bootstrapAdmin(app.container, config, app.log);

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

await app.listen({ port: config.port, host: config.host });
// Face search: the models and the recent events' descriptors load now, not on a guest's first
// selfie. In the background: the server answers meanwhile.
app.container.services.faceSearch.warmAtStart().then(
  (warmed) => {
    if (warmed.events.length > 0) app.log.info(warmed, 'face search warmed');
  },
  (error: unknown) => app.log.warn({ err: error }, 'face search warm-up failed'),
);
// The command line finds the running server through the database folder's lock.
const address = app.server.address() as AddressInfo | null;
if (address) {
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  await app.container.database.lock?.announce(`http://${host}:${address.port}`);
}
