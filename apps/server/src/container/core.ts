import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { FaceEngineProvider } from '../repositories/face-engine/face-engine-provider.ts';
import type { AppConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { DomainEventBus } from '../events/event-bus.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { jobRegistry } from '../jobs/registry.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { PasswordHasher } from '../lib/password-hasher.ts';
import { SecretBox } from '../lib/secret-box.ts';
import { createStorage } from '../storage/create-storage.ts';
import { Metrics } from '../http/metrics.ts';
import { OperationsRepository } from '../repositories/operations.repository.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';

export interface ContainerOptions {
  /** An already open database (tests); otherwise opened from the config. */
  database?: Database;
  clock?: Clock;
  /** The face engine (tests give a fake); otherwise the embedded face-api adapter. */
  faceEngine?: FaceEngineProvider;
}

/** What every domain's wiring shares: configuration, database, clock, secrets, jobs, bus, storage. */
export interface Core {
  config: AppConfig;
  logger: Logger;
  database: Database;
  /** Whether the container opened the database (and so closes it). */
  ownsDatabase: boolean;
  clock: Clock;
  secret: string;
  secrets: SecretBox;
  hasher: PasswordHasher;
  jobs: JobQueue;
  bus: DomainEventBus;
  storage: StorageRepository;
  /** This process's Prometheus metrics (http/metrics.ts). */
  metrics: Metrics;
  /** The database reads of metrics and readiness. */
  operations: OperationsRepository;
}

/** The secret from config, or one generated once into the data dir (embedded mode). */
const resolveSecret = async (config: AppConfig): Promise<string> => {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
};

/** The embedded database's folder (PGlite); its lock is `<folder>.lock` (db/data-dir-lock.ts). */
export const embeddedDatabaseFolder = (config: AppConfig): string =>
  path.join(config.dataDir, 'db');

export const openConfiguredDatabase = (
  config: AppConfig,
  lockRole: 'server' | 'cli' = 'server',
): Promise<Database> =>
  config.databaseUrl
    ? openDatabase({ engine: 'postgres', url: config.databaseUrl })
    : openDatabase({ engine: 'pglite', dataDir: embeddedDatabaseFolder(config), lockRole });

export const createCore = async (
  config: AppConfig,
  logger: Logger,
  options: ContainerOptions,
): Promise<Core> => {
  const database = options.database ?? (await openConfiguredDatabase(config));
  const clock = options.clock ?? systemClock;
  const secret = await resolveSecret(config);
  const metrics = new Metrics();
  const operations = new OperationsRepository(database);
  metrics.bind(operations, () => database.poolStats?.() ?? null);
  return {
    config,
    logger,
    database,
    ownsDatabase: !options.database,
    clock,
    secret,
    secrets: new SecretBox(secret),
    hasher: new PasswordHasher(),
    jobs: new JobQueue(database, logger.child({ component: 'jobs' }), jobRegistry, {
      singleOwner: database.engine === 'pglite',
      metrics,
    }),
    bus: new DomainEventBus(logger.child({ component: 'events' })),
    storage: await createStorage(config, secret, clock),
    metrics,
    operations,
  };
};
