import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';

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
});

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
