import { videoRenditions } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type VideoRenditionsDeps = {
  photoDerivatives: { makeVideoRenditions(photoId: number): Promise<unknown> };
};

// Idempotent: a clip already ready, or a GIF that has its rendition, is left alone.
export const videoRenditionsJob = defineJob(
  videoRenditions,
  ({ photoId }, deps: VideoRenditionsDeps) => deps.photoDerivatives.makeVideoRenditions(photoId),
);
