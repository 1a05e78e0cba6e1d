import { z } from 'zod';
import { NOTIFICATION_TOPIC_KEYS } from '../../rules/event-rules.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';

/**
 * Messages: an event's outbox — every mail and SMS sent for it, including those held
 * because no provider is configured (the embedded default) — and resending one. Topic keys the
 * product publishes to: NOTIFICATION_TOPIC_KEYS (`photo_ready`, `album_unlocked`, `print_ready`,
 * `payment_receipt`, `attendee_reminder`); a message of a topic has kind `topic.<key>`.
 */

export const OUTBOX_STATUSES = [
  'outbox',
  'queued',
  'sending',
  'sent',
  'failed',
  'delivered',
  'undelivered',
] as const;

export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['mail', 'sms']),
  kind: z.string(),
  topic: z
    .string()
    .nullable()
    .describe('The topic key when the message is a topic notification (kind `topic.<key>`)'),
  recipient: z.string(),
  sender: z.string().nullable(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number().int(),
  provider: z.string().nullable(),
  provider_message_id: z.string().nullable(),
  last_error: z.string().nullable().describe('The provider’s answer to the last failed attempt'),
  created_date: z.string(),
  sent_date: z.string().nullable(),
  subject: z.string().nullable().describe('Mail only'),
  text: z.string().describe('The plain-text body (mail) or the SMS text'),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxList = defineEndpoint({
  path: `${OWNER_PREFIX}/outbox/list`,
  auth: 'owner',
  tag: 'messages',
  summary:
    'An event’s mail and SMS, newest first (recipient, topic, status, attempts, provider answer)',
  body: z.object({
    event_id: idSchema
      .optional()
      .describe(
        'Omitted: the messages of no event (sign-in codes, invitations, password resets); super users only',
      ),
    channel: z.enum(['mail', 'sms'], { error: 'invalid_value' }).optional(),
    status: z.enum(OUTBOX_STATUSES, { error: 'invalid_value' }).optional(),
    limit: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(1, 'invalid_value')
      .max(500, 'invalid_value')
      .default(200),
  }),
  result: z.object({
    messages: z.array(outboxMessageSchema),
    topic_keys: z.array(z.enum(NOTIFICATION_TOPIC_KEYS)),
  }),
  errors: ['event_not_found', 'forbidden'],
});

export const outboxResend = defineEndpoint({
  path: `${OWNER_PREFIX}/outbox/resend`,
  auth: 'owner',
  tag: 'messages',
  summary:
    'Sends a message of the event again: a new outbox entry with the same recipient and content (the original keeps its history)',
  body: z.object({
    event_id: idSchema.optional().describe('Omitted: a message of no event; super users only'),
    message_id: idSchema,
  }),
  result: z.object({ message: outboxMessageSchema }),
  errors: ['event_not_found', 'not_found', 'forbidden'],
});

/** Sender verification: the link of the e-mail that confirms an event’s from address. */
export const verifyFromAddress = defineEndpoint({
  path: '/event/from-address/verify',
  auth: 'none',
  tag: 'events',
  summary: 'Confirm an event’s e-mail from address with the token from the verification e-mail',
  body: z.object({
    token: z.string().min(10, 'verification_link_invalid').max(200, 'verification_link_invalid'),
  }),
  result: z.object({ email_from_address: z.string() }),
  errors: ['verification_link_invalid'],
});
