import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { keyBody } from '../events/events.ts';

/**
 * Insight: how an event (or every event of an organisation) is doing — photos in, guests reached,
 * downloads, shares by channel, leads, messages, prints, money and face searches, by hour and by
 * booth (docs/domains/operations.md "Insight"). Guests' views and downloads are counted by
 * `insightTrack`, which the album pages call after they have shown; nothing personal is kept.
 */

const id = z.number({ error: 'invalid_value' }).int('invalid_value').positive('invalid_value');

export const INSIGHT_SERIES = [
  'photos',
  'views',
  'downloads',
  'shares',
  'leads',
  'prints',
  'face_searches',
] as const;
export type InsightSeriesName = (typeof INSIGHT_SERIES)[number];

const count = z.number().int();

export const insightTotalsSchema = z.object({
  photos: count.describe('Photos in (originals; processed copies not counted)'),
  views: count.describe('Album page views'),
  unique_visitors: count.describe(
    'Distinct visitors per day, added up over the days (a salted hash, rotated daily)',
  ),
  downloads: count,
  shares: count,
  leads: count,
  mails_delivered: count,
  mails_bounced: count.describe('Mails that failed or bounced'),
  sms_delivered: count,
  sms_bounced: count,
  prints: count.describe('Sheets printed (copies counted)'),
  orders_paid: count,
  revenue: count.describe('Paid orders, refunded ones included, in the currency’s minor unit'),
  refunds: count.describe('Refunded orders, in the currency’s minor unit'),
  face_searches: count,
});
export type InsightTotals = z.infer<typeof insightTotalsSchema>;

export const insightTimelinePointSchema = z.object({
  at: z.string().describe('Local hour `YYYY-MM-DD HH:00` (unit hour) or day `YYYY-MM-DD`'),
  photos: count,
  views: count,
  downloads: count,
  shares: count,
  leads: count,
  prints: count,
  face_searches: count,
});
export type InsightTimelinePoint = z.infer<typeof insightTimelinePointSchema>;

export const insightBoothSchema = z.object({
  robot_id: z.number().nullable().describe('null: photos no booth sent (console, guests)'),
  name: z.string().nullable(),
  photos: count,
  downloads: count,
  shares: count,
  prints: count.describe(
    'Sheets printed (copies counted), each put down to its first photo’s booth',
  ),
  revenue: count.describe(
    'Paid orders (refunded ones included) shared evenly over their photos’ booths, minor unit',
  ),
  refunds: count.describe(
    'The refunded orders among them, shared alike: revenue less refunds is what the booth kept',
  ),
});
export type InsightBooth = z.infer<typeof insightBoothSchema>;

export const insightSchema = z.object({
  currency: z.string().describe('ISO 4217: the organisation’s currency, which money is in'),
  totals: insightTotalsSchema,
  shares_by_channel: z.array(z.object({ channel: z.string(), count })),
  booths: z.array(insightBoothSchema),
  timeline_unit: z.enum(['hour', 'day']),
  timeline: z.array(insightTimelinePointSchema),
  busiest_hours: z.array(z.object({ hour: count, total: count })),
});
export type Insight = z.infer<typeof insightSchema>;

export const insightEventRowSchema = insightTotalsSchema.extend({
  event_id: z.number(),
  name: z.string(),
  full_name: z.string(),
});
export type InsightEventRow = z.infer<typeof insightEventRowSchema>;

export const eventInsight = defineEndpoint({
  path: `${OWNER_PREFIX}/insight/event`,
  auth: 'owner',
  tag: 'insight',
  summary:
    'How an event is doing: totals, shares by channel, booths, a timeline by the event’s local hour and its busiest hours',
  body: z.object({ event_id: id }),
  result: insightSchema.extend({
    event: z.object({
      id: z.number(),
      name: z.string(),
      full_name: z.string(),
      time_zone: z.string(),
    }),
  }),
  errors: ['unauthorized_user', 'forbidden', 'event_not_found'],
});

export const organisationInsight = defineEndpoint({
  path: `${OWNER_PREFIX}/insight/organisation`,
  auth: 'owner',
  tag: 'insight',
  summary:
    'How every event of an organisation is doing: the same as `eventInsight` over all of them (each event’s hours in its own time zone), and one row per event',
  body: z.object({
    organisation_id: id
      .optional()
      .describe('The organisation (super users: any; admins: their own, the default)'),
  }),
  result: insightSchema.extend({ events: z.array(insightEventRowSchema) }),
  errors: ['unauthorized_user', 'forbidden', 'organisation_not_found'],
});

export const insightTrack = defineEndpoint({
  path: '/insight/track',
  auth: 'key',
  tag: 'insight',
  summary:
    'Counts that an album page was viewed, or a photo or zip downloaded; anonymous (no address kept). Answers nothing',
  body: z.object({
    ...keyBody,
    kind: z.enum(['view', 'download'], { error: 'invalid_value' }),
    photo_uid: z
      .string({ error: 'not_found' })
      .trim()
      .min(1, 'not_found')
      .max(100, 'not_found')
      .optional()
      .describe('The downloaded photo (its booth is counted); none for a zip'),
  }),
  result: z.object({}),
  errors: ['invalid_key', 'unauthorized_user'],
});
