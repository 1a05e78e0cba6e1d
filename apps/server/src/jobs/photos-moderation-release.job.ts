import { photosModerationRelease } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotosModerationReleaseDeps = { photoModeration: { release(): Promise<unknown> } };

export const photosModerationReleaseJob = defineJob(
  photosModerationRelease,
  (_payload, deps: PhotosModerationReleaseDeps) => deps.photoModeration.release(),
);
