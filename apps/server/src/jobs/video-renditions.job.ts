import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * Enqueued by `photo.derivatives` for a clip or an animated GIF: the poster (and the photo
 * derivatives made from it) and the web-playable MP4 renditions, then `photo.ready` for a clip.
 */
export const videoRenditionsJob = defineJob({
  name: 'video.renditions',
  summary:
    'Make the poster and the web-playable MP4 renditions (plain, watermarked, paid preview) of a clip or animated GIF',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  // A minute of 1080p takes a few minutes on a small, shared machine (docs/performance.md).
  expireSeconds: 30 * 60,
  policy: 'stately',
  singletonKey: ({ photoId }) => `video-${photoId}`,
  // Idempotent: a clip already ready, or a GIF that has its rendition, is left alone.
  run: ({ photoId }, deps) => deps.photoDerivatives.makeVideoRenditions(photoId),
});
