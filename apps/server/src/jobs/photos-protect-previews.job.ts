import { photosProtectPreviews } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PhotosProtectPreviewsDeps = {
  previewProtection: { protectEvent(eventId: number): Promise<unknown> };
};

export const photosProtectPreviewsJob = defineJob(
  photosProtectPreviews,
  ({ eventId }, deps: PhotosProtectPreviewsDeps) => deps.previewProtection.protectEvent(eventId),
);
