import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';

/**
 * Outgoing webhooks (operations): an organisation's operators add endpoints that receive signed
 * POSTs when a photo is ready, an attendee or lead is created, a payment is paid or refunded, or a
 * print finishes — for the whole organisation or one of its events. Super users and the
 * organisation's admins manage them. The signing secret is answered once, by `webhookCreate`.
 */
export const WEBHOOK_EVENT_TYPES = [
  'photo.ready',
  'attendee.created',
  'lead.created',
  'payment.paid',
  'payment.refunded',
  'print.finished',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const id = z.number({ error: 'invalid_value' }).int('invalid_value').positive('invalid_value');

const organisationId = id
  .optional()
  .describe('The organisation (super users: any; admins: their own, the default)');

export const webhookEndpointSchema = z.object({
  id: z.number(),
  organisation_id: z.number(),
  event_id: z.number().nullable().describe('Only this event’s facts; null: every event'),
  url: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.union([z.literal(0), z.literal(1)]),
  disabled_reason: z
    .string()
    .nullable()
    .describe('Why deliveries stopped (repeated failures); null while enabled'),
  secret_hint: z.string().describe('The secret’s last four characters'),
  created_date: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  id: z.number(),
  event_id: z.string().describe('The `Flashbulb-Event-Id` (a replay sends the same)'),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  created_date: z.string(),
  sent_date: z.string().nullable(),
  next_attempt_date: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const errors = ['unauthorized_user', 'forbidden', 'organisation_not_found'] as const;

export const webhookList = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/list`,
  auth: 'owner',
  tag: 'webhooks',
  summary: 'The organisation’s webhook endpoints (secrets never included)',
  body: z.object({ organisation_id: organisationId }),
  result: z.object({ endpoints: z.array(webhookEndpointSchema) }),
  errors,
});

export const webhookCreate = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/create`,
  auth: 'owner',
  tag: 'webhooks',
  summary:
    'Adds an endpoint (http or https; private and loopback addresses refused) and answers its signing secret, this once',
  body: z.object({
    organisation_id: organisationId,
    event_id: id.nullable().optional().describe('Only this event of the organisation'),
    url: z
      .string({ error: 'webhook_url_invalid' })
      .trim()
      .min(1, 'webhook_url_invalid')
      .max(2000, 'webhook_url_invalid'),
    event_types: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'invalid_value' }), {
        error: 'webhook_event_types_required',
      })
      .min(1, 'webhook_event_types_required')
      .max(WEBHOOK_EVENT_TYPES.length, 'invalid_value'),
  }),
  result: z.object({
    endpoint: webhookEndpointSchema,
    secret: z.string().describe('`whsec_…`: verifies `Flashbulb-Signature`; shown only now'),
  }),
  errors: [
    ...errors,
    'event_not_found',
    'webhook_url_invalid',
    'webhook_url_private',
    'webhook_event_types_required',
  ],
});

export const webhookSetEnabled = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/set-enabled`,
  auth: 'owner',
  tag: 'webhooks',
  summary: 'Enables (failure count reset) or disables an endpoint',
  body: z.object({
    id,
    enabled: z.union([z.literal(0), z.literal(1)], { error: 'invalid_value' }),
  }),
  result: z.object({ endpoint: webhookEndpointSchema }),
  errors: [...errors, 'webhook_not_found'],
});

export const webhookDelete = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/delete`,
  auth: 'owner',
  tag: 'webhooks',
  summary: 'Removes an endpoint and its delivery log',
  body: z.object({ id }),
  result: z.object({}),
  errors: [...errors, 'webhook_not_found'],
});

export const webhookDeliveries = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/deliveries`,
  auth: 'owner',
  tag: 'webhooks',
  summary: 'An endpoint’s delivery log, newest first (at most 200)',
  body: z.object({ id }),
  result: z.object({ deliveries: z.array(webhookDeliverySchema) }),
  errors: [...errors, 'webhook_not_found'],
});

export const webhookReplay = defineEndpoint({
  path: `${OWNER_PREFIX}/webhooks/replay`,
  auth: 'owner',
  tag: 'webhooks',
  summary:
    'Sends a delivery’s body again as a new delivery with the same event id (the endpoint must be enabled)',
  body: z.object({ delivery_id: id }),
  result: z.object({ delivery: webhookDeliverySchema }),
  errors: [...errors, 'webhook_not_found', 'webhook_disabled'],
});
