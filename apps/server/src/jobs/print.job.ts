import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued for each new print job (print calls, auto-print, unlock-and-print). */
export const printRenderJob = defineJob({
  name: 'print.render',
  summary: 'Render one print sheet with sharp and hand it to its pool’s printer',
  payload: z.object({ printJobId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  singletonKey: ({ printJobId }) => `print.render:${printJobId}`,
  // Idempotent: the job's state moves compare-and-set; a printed or cancelled job is skipped.
  run: ({ printJobId }, deps) => deps.printing.renderAndPrint(printJobId),
});

/** Sweep: stored print requests not yet queued, and queued jobs whose render job was lost. */
export const printResumeJob = defineJob({
  name: 'print.resume',
  summary: 'Queue stored print requests and re-send print jobs stuck in queued (every 5 min)',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 30, backoff: false },
  schedule: '*/5 * * * *',
  run: (_payload, deps) => deps.printing.resume(),
});

/**
 * `photo.ready` with `lookForTagsInImages` creating stories (ADR 0009 addendum): queues the story
 * sheet of the photo's group once it is complete. Idempotent: a photo already in an automatic
 * story is never grouped again (lock per event, request key per story).
 */
export const printTagStoriesJob = defineJob({
  name: 'print.tag-stories',
  summary: 'Queue an automatic story sheet when tagged photos fill a group (ADR 0009)',
  payload: z.object({ eventId: z.number().int().positive(), photoId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `print.tag-stories:${photoId}`,
  run: ({ eventId, photoId }, deps) => deps.printing.tagStories(eventId, photoId),
});
