import { photoImageProcess } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotoImageProcessDeps = {
  photoVariants: { run(photoId: number, imageProcessId: number): Promise<unknown> };
};

// Idempotent: a variant already made is only announced again.
export const photoImageProcessJob = defineJob(
  photoImageProcess,
  ({ photoId, imageProcessId }, deps: PhotoImageProcessDeps) =>
    deps.photoVariants.run(photoId, imageProcessId),
);
