import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';
import { photoSchema } from './photos.ts';

/**
 * Moderation: with the event's `moderationEnabled` on, new photos wait in a
 * console queue and reach no guest, stream, face result, auto-print or message until approved.
 */

const page = {
  page_number: z.number({ error: 'invalid_value' }).int().min(1, 'invalid_value').default(1),
  max_size: z
    .number({ error: 'invalid_value' })
    .int()
    .min(1, 'invalid_value')
    .max(500, 'invalid_value')
    .default(100),
};

export const moderationQueue = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/moderation/queue`,
  auth: 'owner',
  tag: 'photos',
  summary:
    'The photos of an event waiting for moderation, oldest first, by booth (robot) and by tag; with the robots and tags to filter by',
  body: z.object({
    event_id: idSchema,
    robot_id: idSchema.optional(),
    tag: z
      .string({ error: 'invalid_value' })
      .trim()
      .min(1, 'invalid_value')
      .max(100, 'invalid_value')
      .optional(),
    ...page,
  }),
  result: z.object({
    photos: z.array(photoSchema),
    total_count: z.number().int(),
    robots: z.array(z.object({ id: z.number().int(), name: z.string() })),
    tags: z.array(z.string()),
  }),
  errors: ['event_not_found', 'invalid_value'],
});

export const moderationReasonSchema = z
  .string({ error: 'invalid_value' })
  .trim()
  .max(500, 'invalid_value');

export const moderationDecide = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/moderation/decide`,
  auth: 'owner',
  tag: 'photos',
  summary:
    'Approve or reject waiting photos in bulk. Approved photos reach guests and everything a new photo starts (stream, faces, auto-print, messages) runs once; rejected photos are deleted with their files, the reason kept in the moderation log',
  body: z.object({
    event_id: idSchema,
    photo_id_array: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
    decision: z.enum(['approve', 'reject'], { error: 'invalid_value' }),
    reason: moderationReasonSchema.optional().describe('Required to reject'),
  }),
  result: z.object({ approved: z.number().int(), rejected: z.number().int() }),
  errors: ['event_not_found', 'not_found', 'delete_reason_required', 'invalid_value'],
});

export const moderationLogEntrySchema = z.object({
  id: z.number().int(),
  photo_id: z.number().int(),
  photo_uid: z.string(),
  file_name: z.string(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().nullable(),
  user_email: z.string().nullable().describe('Who decided (null: the user is gone)'),
  created_at: z.string(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

export const moderationLog = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/moderation/log`,
  auth: 'owner',
  tag: 'photos',
  summary: 'The event’s moderation decisions, newest first: who, when, which photo, why',
  body: z.object({ event_id: idSchema, ...page }),
  result: z.object({ entries: z.array(moderationLogEntrySchema), total_count: z.number().int() }),
  errors: ['event_not_found', 'invalid_value'],
});
