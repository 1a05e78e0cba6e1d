import { storageSweepUploads } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type StorageSweepUploadsDeps = { uploadSweep: { sweep(): Promise<unknown> } };

export const storageSweepUploadsJob = defineJob(
  storageSweepUploads,
  (_payload, deps: StorageSweepUploadsDeps) => deps.uploadSweep.sweep(),
);
