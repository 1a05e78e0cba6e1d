import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { FaceEngineProvider } from '../repositories/faces/engine/face-engine-provider.ts';
import type { HostResolver } from '../repositories/operations/webhook-sender.ts';
import type { AppConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { SignalBus } from '../signals/signal-bus.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { jobCatalogue } from '../jobs/catalogue.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { PasswordHasher } from '../lib/password-hasher.ts';
import { SecretBox } from '../lib/secret-box.ts';
import { ThrottleRepository } from '../repositories/identity/throttle.repository.ts';
import { Quotas } from '../services/operations/quotas.ts';
import { StartupError } from '../lib/startup-error.ts';
import { createStorage } from '../storage/create-storage.ts';
import { Metrics } from '../http/metrics.ts';
import { MaintenanceGate } from '../lib/maintenance-gate.ts';
import { OperationsRepository } from '../repositories/operations/operations.repository.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';

export interface ContainerOptions {
  /** An already open database (tests); otherwise opened from the config. */
  database?: Database;
  clock?: Clock;
  /** The face engine (tests give a fake); otherwise the embedded face-api adapter. */
  faceEngine?: FaceEngineProvider;
  /** The password hasher (tests give one of low cost); otherwise argon2id at the server's cost. */
  passwordHasher?: PasswordHasher;
  /** How outgoing webhooks resolve host names (tests give a double); otherwise the system's. */
  webhookResolve?: HostResolver;
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
  bus: SignalBus;
  storage: StorageRepository;
  /** Quotas per organisation and per key, counted in the database (services/operations/quotas.ts). */
  quotas: Quotas;
  /** This process's Prometheus metrics (http/metrics.ts). */
  metrics: Metrics;
  /** The database reads of metrics and readiness. */
  operations: OperationsRepository;
  /** Maintenance while a backup is restored into the running server (503 to other requests). */
  maintenance: MaintenanceGate;
}

/** Bytes a secret must have at least (AES-256 keys and HMAC keys are derived from it). */
export const MIN_SECRET_BYTES = 32;

/**
 * The secret from config, or one generated once into the data dir (embedded mode). A `secret.key`
 * read back shorter than 32 bytes (truncated, emptied, hand-edited) refuses to start: every token,
 * signed URL and sealed secret would otherwise rest on a guessable key.
 */
export const resolveSecret = async (config: AppConfig): Promise<string> => {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  let secret: string;
  try {
    secret = (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(
      () => undefined,
    );
    secret = (await readFile(file, 'utf8')).trim();
  }
  const bytes = Buffer.byteLength(secret);
  if (bytes < MIN_SECRET_BYTES) {
    throw new StartupError(
      `${file} holds ${bytes} bytes; the secret key needs at least ${MIN_SECRET_BYTES}. ` +
        'Restore the file from a backup or set FLASHBULB_SECRET_KEY (deleting it makes a new key, ' +
        'and secrets sealed with the old one can no longer be read).',
    );
  }
  return secret;
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
  // The secret first: a bad one refuses to start before the database folder is opened and locked.
  const secret = await resolveSecret(config);
  const database = options.database ?? (await openConfiguredDatabase(config));
  const clock = options.clock ?? systemClock;
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
    hasher: options.passwordHasher ?? new PasswordHasher(),
    jobs: new JobQueue(database, logger.child({ component: 'jobs' }), jobCatalogue, {
      singleOwner: database.engine === 'pglite',
      metrics,
    }),
    bus: new SignalBus(logger.child({ component: 'events' })),
    storage: await createStorage(config, secret, clock),
    quotas: new Quotas({
      throttle: new ThrottleRepository(database.db, database),
      limits: config.quotas,
    }),
    metrics,
    operations,
    maintenance: new MaintenanceGate(),
  };
};
