import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from './app.ts';
import type { AppConfig } from './config.ts';
import { bootstrapAdmin } from './bootstrap.ts';
import { describeOpenModes, secureDataDir } from './lib/data-dir-modes.ts';

/**
 * Start a server the way `npm start` does: build the app on the data directory, create the first
 * admin when the environment names one, listen, warm face search in the background, and announce
 * the address in the data directory's lock (the command line finds the running server there).
 * `main.ts` adds the process's signals; the end-to-end journeys call this in their own process.
 */
export const serve = async (
  config: AppConfig,
  options: Pick<BuildOptions, 'logStream'> = {},
): Promise<FastifyInstance> => {
  const openModes = await secureDataDir(config.dataDir);
  const app = await buildApp(config, options);
  for (const line of describeOpenModes(openModes)) app.log.warn(line);
  await bootstrapAdmin(app.container, config, app.log);
  await app.listen({ port: config.port, host: config.host });
  // Face search: the models and the recent events' descriptors load now, not on a guest's first
  // selfie. In the background: the server answers meanwhile.
  app.container.services.faceSearch.warmAtStart().then(
    (warmed) => {
      if (warmed.events.length > 0) app.log.info(warmed, 'face search warmed');
    },
    (error: unknown) => app.log.warn({ err: error }, 'face search warm-up failed'),
  );
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
  return app;
};
