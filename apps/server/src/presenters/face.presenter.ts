import type { ignoredFaceSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import type { IgnoredFaceRow } from '../repositories/faces/ignored-face.repository.ts';

type IgnoredFace = z.infer<typeof ignoredFaceSchema>;

/** An index-ignore face as the editor lists it. */
export const ignoredFaceForOwner = (row: IgnoredFaceRow): IgnoredFace => ({
  id: row.id,
  event_id: row.eventId,
  full_path: row.fullPath,
  created_date: row.createdAt.toISOString(),
});
