// An event's settings as stored (columns and JSON with their defaults), and its display token.
import {
  eventOptsSchema,
  eventSettingsShape,
  leadParamsSchema,
  notificationDataSchema,
  shopifyShippingAddressSchema,
  type EventSettings,
} from '@flashbulb/shared';
import type { z } from 'zod';
import type { SecretBox } from '../../lib/secret-box.ts';
import type {
  EventRecord,
  EventRow,
  EventSettingsColumns,
} from '../../repositories/events/event.repository.ts';

const RELATION_KEYS = new Set(['robot_id_array', 'image_process_id_array', 'ppt_id_array']);

/** The settings stored as columns of `events` (every setting but the three id lists). */
export const SETTINGS_COLUMN_KEYS = Object.keys(eventSettingsShape).filter(
  (k) => !RELATION_KEYS.has(k),
) as (keyof EventSettingsColumns)[];

/** Stored JSON written by an older version may lack newer keys: fill them with their defaults. */
const withDefaults = <S extends z.ZodType>(schema: S, value: z.output<S>): z.output<S> => {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
};

export const settingsOfRow = (row: EventRow): EventSettingsColumns => {
  const columns = {} as Record<keyof EventSettingsColumns, unknown>;
  for (const key of SETTINGS_COLUMN_KEYS) columns[key] = row[key];
  const settings = columns as EventSettingsColumns;
  return {
    ...settings,
    opts: withDefaults(eventOptsSchema, row.opts),
    notification_data: withDefaults(notificationDataSchema, row.notification_data),
    lead_params: withDefaults(leadParamsSchema, row.lead_params),
    shopify_shipping_address: withDefaults(
      shopifyShippingAddressSchema,
      row.shopify_shipping_address,
    ),
  };
};

export const settingsOfRecord = (event: EventRecord): EventSettings => ({
  ...settingsOfRow(event.row),
  robot_id_array: event.robotIds,
  image_process_id_array: event.imageProcessIds,
  ppt_id_array: event.pptIds,
});

/**
 * What the event's display token signs (the lead gate of the organiser's screens, LeadService):
 * per event, so one event's screen link opens no other event's gate.
 */
export const displayTokenMessage = (eventId: number): string => `lead-display:${eventId}`;

/** The event's display token: what its screen links carry to skip the lead gate. */
export const displayTokenOf = (secrets: Pick<SecretBox, 'hmac'>, eventId: number): string =>
  secrets.hmac(displayTokenMessage(eventId));
