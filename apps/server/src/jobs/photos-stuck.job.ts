import { photosStuck } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotosStuckDeps = { photoDerivatives: { requeueStuck(): Promise<unknown> } };

export const photosStuckJob = defineJob(photosStuck, (_payload, deps: PhotosStuckDeps) =>
  deps.photoDerivatives.requeueStuck(),
);
