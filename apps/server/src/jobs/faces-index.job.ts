import { facesIndex } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type FacesIndexDeps = { faceIndex: { indexPhoto(photoId: number): Promise<unknown> } };

// Idempotent: a photo already scanned with the same model and cut-off is skipped.
export const facesIndexJob = defineJob(facesIndex, ({ photoId }, deps: FacesIndexDeps) =>
  deps.faceIndex.indexPhoto(photoId),
);
