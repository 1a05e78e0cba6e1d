import { storageProtectPhoto } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type StorageProtectPhotoDeps = {
  storageMigration: { protectPhoto(photoId: number): Promise<unknown> };
};

export const storageProtectPhotoJob = defineJob(
  storageProtectPhoto,
  ({ photoId }, deps: StorageProtectPhotoDeps) => deps.storageMigration.protectPhoto(photoId),
);
