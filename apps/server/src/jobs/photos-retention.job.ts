import { photosRetention } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotosRetentionDeps = { photoRetention: { runRetention(): Promise<unknown> } };

export const photosRetentionJob = defineJob(
  photosRetention,
  (_payload, deps: PhotosRetentionDeps) => deps.photoRetention.runRetention(),
);
