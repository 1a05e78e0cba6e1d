import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { bootstrapAdmin } from './bootstrap.ts';

const config = loadConfig();
const app = await buildApp(config);
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
