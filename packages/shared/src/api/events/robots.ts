import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';
import { keyBody } from './events.ts';

/** Robots (owner-console §4): upload machines of an organisation, each with its own API key. */

export const robotSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  organisation_id: z.number().int(),
  event_id: z.number().int().nullable(),
  event_name: z.string().nullable(),
  last_upload_date: z
    .string()
    .nullable()
    .describe('ISO 8601: when the robot’s last photo arrived; null before its first'),
  upload_count: z.number().int().describe('Photos the robot has uploaded, every event counted'),
});
export type Robot = z.infer<typeof robotSchema>;

export const robotList = defineEndpoint({
  path: `${OWNER_PREFIX}/robot/list/retrieve`,
  auth: 'owner',
  tag: 'robots',
  summary: 'Robots of an organisation (super users: any or all; others: their own)',
  body: z.object({ organisation_id: idSchema.optional() }),
  result: z.object({ robots: z.array(robotSchema) }),
  errors: ['forbidden'],
});

export const createRobot = defineEndpoint({
  path: `${OWNER_PREFIX}/robot/create`,
  auth: 'owner',
  tag: 'robots',
  summary:
    'Create a robot (super users and admins), optionally attached to an event the caller manages; its API key is shown only in this reply',
  body: z.object({
    organisation_id: idSchema,
    name: z
      .string({ error: 'robot_name_required' })
      .trim()
      .min(1, 'robot_name_required')
      .max(100, 'invalid_value'),
    event_id: idSchema
      .optional()
      .describe(
        'Create the robot from this event (of the same organisation): it feeds the event at once',
      ),
  }),
  result: robotSchema.extend({ api_key: z.string() }),
  errors: ['forbidden', 'organisation_not_found', 'event_not_found'],
});

export const regenerateRobotKey = defineEndpoint({
  path: `${OWNER_PREFIX}/robot/key/regenerate`,
  auth: 'owner',
  tag: 'robots',
  summary:
    'A new API key for a robot (super users and its organisation’s admins); the old key stops working at once; the new key is shown only in this reply',
  body: z.object({ id: idSchema }),
  result: robotSchema.extend({ api_key: z.string() }),
  errors: ['forbidden', 'robot_not_found'],
});

/** A robot key asks who it is: its robot and the event it feeds (the robot client's first call). */
export const robotWhoami = defineEndpoint({
  path: '/robot/whoami',
  auth: 'key',
  tag: 'robots',
  summary:
    'Robot key: the robot behind the key and the event it uploads to. A right key whose robot feeds no event answers robot_not_attached; a key no robot has, invalid_key',
  body: z.object({ ...keyBody }),
  result: z.object({
    robot: z.object({ id: z.number().int(), name: z.string() }),
    event: z.object({ id: z.number().int(), name: z.string(), full_name: z.string() }),
  }),
  errors: ['invalid_key', 'robot_not_attached', 'unauthorized_user'],
});

/** What a robot did: a photo it uploaded, or an activity its booth reported. */
export const robotActivitySchema = z.object({
  kind: z.enum(['upload', 'activity']),
  id: z.number().int().describe('The photo id (upload) or the activity id'),
  at: z.string().describe('ISO 8601'),
  robot_id: z.number().int(),
  robot_name: z.string().nullable().describe('Null once the robot is gone'),
  event_id: z.number().int(),
  event_name: z.string(),
  name: z.string().describe('The file name (upload) or the activity name the booth reported'),
  type: z.enum(['info', 'warning', 'error']).describe('Uploads are info'),
  photo_id: z.number().int().nullable(),
});
export type RobotActivity = z.infer<typeof robotActivitySchema>;

const instantSchema = z
  .string({ error: 'invalid_value' })
  .max(40, 'invalid_value')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'invalid_value');

/** Cursor of the activity log: `<ISO instant>~<kind>~<id>` of the last entry of a page. */
export const ROBOT_ACTIVITY_CURSOR = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)~(upload|activity)~(\d{1,12})$/;

export const robotActivityList = defineEndpoint({
  path: `${OWNER_PREFIX}/robot/activity/list`,
  auth: 'owner',
  tag: 'robots',
  summary:
    'The robot activity log, newest first: photos robots uploaded and activities their booths reported; by event (who manages it) or by organisation (super users and admins), filtered by robot and time',
  body: z.object({
    event_id: idSchema.optional().describe('Only this event (its managers may ask)'),
    robot_id: idSchema.optional().describe('Only this robot'),
    organisation_id: idSchema
      .optional()
      .describe('Super users: only this organisation (admins always see their own)'),
    from: instantSchema.optional().describe('ISO 8601: entries at or after'),
    to: instantSchema.optional().describe('ISO 8601: entries before'),
    cursor: z
      .string({ error: 'invalid_value' })
      .regex(ROBOT_ACTIVITY_CURSOR, 'invalid_value')
      .optional()
      .describe('The next page: next_cursor of the previous reply'),
    limit: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(1, 'invalid_value')
      .max(200, 'invalid_value')
      .default(50),
  }),
  result: z.object({
    entries: z.array(robotActivitySchema),
    next_cursor: z.string().nullable(),
  }),
  errors: ['forbidden', 'event_not_found', 'robot_not_found'],
});
