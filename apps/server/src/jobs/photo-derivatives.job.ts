import { photoDerivatives } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotoDerivativesDeps = {
  photoDerivatives: { makeDerivatives(photoId: number): Promise<unknown> };
};

// Idempotent: a photo already ready is left alone.
export const photoDerivativesJob = defineJob(
  photoDerivatives,
  ({ photoId }, deps: PhotoDerivativesDeps) => deps.photoDerivatives.makeDerivatives(photoId),
);
