import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { StorageRepository } from './storage.repository.ts';

/**
 * The configured backend: S3 when FLASHBULB_S3_BUCKET is set, else local disk in the data dir.
 * The local backend's signing secret defaults to one derived from the app secret, so every process
 * sharing a data dir and FLASHBULB_SECRET_KEY accepts the others' grants without more config.
 */
export const createStorage = async (
  config: AppConfig,
  appSecret: string,
  clock: Clock,
): Promise<StorageRepository> => {
  if (config.storage.s3) return new S3Storage(config.storage.s3, clock);
  const local = new LocalStorage({
    root: path.join(config.dataDir, 'storage'),
    baseUrl: config.publicUrl,
    clock,
    credentials: {
      accessKeyId: config.storage.localAccessKeyId,
      secretAccessKey:
        config.storage.localSecretAccessKey ??
        createHmac('sha256', appSecret).update('flashbulb local storage v1').digest('base64url'),
    },
  });
  await local.init();
  return local;
};
