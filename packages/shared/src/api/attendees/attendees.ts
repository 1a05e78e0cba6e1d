import { z } from 'zod';
import { ATTENDEE_KEY_ERRORS, attendeeUidField } from './attendee-fields.ts';
import { EMAIL_MAX_LENGTH } from '../../rules/identity.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { flagOutput, flagSchema } from '../events/event-settings.ts';
import { keyBody, kioskKeyBody } from '../events/events.ts';
import { idSchema } from '../identity/users.ts';
import {
  ATTENDEE_GENERATE_MAX,
  ATTENDEE_ID_MAX_LENGTH,
  MAX_ATTACH_PHOTOS,
} from '../../rules/attendee-id.ts';

/**
 * Attendees (albums spec §3, §7.2; owner-console §5): people with an album of their own. An
 * attendee id (`attId` in links) opens that album; it is a bearer secret like an event key. The
 * private id is printed on cards for the kiosk check and shown only to owners.
 */

const photoUid = z.string({ error: 'not_found' }).trim().min(1, 'not_found').max(100, 'not_found');
const photoUids = z
  .array(photoUid, { error: 'photos_required' })
  .min(1, 'photos_required')
  .max(MAX_ATTACH_PHOTOS, 'invalid_value');

/** What an owner sees of an attendee. */
export const attendeeSchema = z.object({
  id: z.number().int(),
  uid: z.string().describe('Normalised: upper case, no dashes'),
  display_uid: z.string().describe('As printed: groups of four for generated ids'),
  private_id: z.string().nullable().describe('Card check code; owners only'),
  organisation_id: z.number().int(),
  event_ids: z.array(z.number().int()),
  email: z.string().nullable(),
  is_prepaid: flagOutput,
  unlocked: flagOutput,
  partial_unlock_tag: z.string().nullable(),
  is_locked: flagOutput.describe('Locked by the owner: the album link no longer opens'),
  expires_date: z.string().nullable(),
  created_date: z.string(),
  photo_count: z.number().int(),
  album_url: z.string().describe('The attendee album link (`?attId=`)'),
});
export type Attendee = z.infer<typeof attendeeSchema>;

/** What the attendee's own link reveals: never the private id, never other attendees. */
export const attendeeAlbumSchema = z.object({
  uid: z.string(),
  display_uid: z.string(),
  organisation_id: z.number().int(),
  email: z.string().nullable(),
  is_prepaid: flagOutput,
  unlocked: flagOutput.describe('Originals may be downloaded (prepaid, unlocked or a free event)'),
  expires_date: z.string().nullable(),
  events: z.array(
    z.object({
      name: z.string(),
      full_name: z.string(),
      empty_album_text: z.string(),
      logo_full_path: z.string().nullable(),
      accent_color: z
        .string()
        .optional()
        .describe("The event's brand colour on guest pages (`opts.guestAccentColor`), or empty"),
      time_zone: z
        .string()
        .optional()
        .describe("The event's IANA time zone, or empty: `date_utc_diff_hours` applies"),
      date_utc_diff_hours: z.number().int().optional(),
    }),
  ),
  photo_count: z.number().int(),
});
export type AttendeeAlbum = z.infer<typeof attendeeAlbumSchema>;

// ---- owner calls --------------------------------------------------------------------------------

export const generateAttendeeList = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/list/generate`,
  auth: 'owner',
  tag: 'attendees',
  summary:
    'Generates attendee ids (cards, wristbands) for events of one organisation, all or none. Answers the first 1,000; read the rest with the attendee list',
  body: z.object({
    attendee_count: z
      .number({ error: 'attendee_count_invalid' })
      .int('attendee_count_invalid')
      .min(1, 'attendee_count_invalid')
      .max(ATTENDEE_GENERATE_MAX, 'attendee_count_invalid'),
    event_id_array: z
      .array(idSchema, { error: 'event_not_found' })
      .min(1, 'event_not_found')
      .max(100, 'invalid_value'),
    organisation_id: idSchema.optional().describe('Super users; others use their own'),
    email: z
      .string()
      .trim()
      .max(EMAIL_MAX_LENGTH, 'email_invalid')
      .optional()
      .describe('Kept on every generated attendee (where the album link is sent)'),
    is_prepaid: flagSchema.default(0),
    expiration_minutes: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(1, 'invalid_value')
      .max(60 * 24 * 3650, 'invalid_value')
      .nullable()
      .optional(),
    url_prefix: z
      .string()
      .trim()
      .max(500, 'valid_url')
      .optional()
      .describe('Base of the album links; the public URL when absent'),
    partial_unlock_tag: z.string().trim().max(100, 'invalid_value').nullable().optional(),
  }),
  result: z.object({
    count: z.number().int(),
    attendees: z.array(attendeeSchema),
  }),
  errors: ['event_not_found', 'attendee_count_invalid', 'email_invalid', 'valid_url', 'forbidden'],
});

export const attendeeList = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/list/retrieve`,
  auth: 'owner',
  tag: 'attendees',
  summary: 'Attendees of an event, newest first',
  body: z.object({
    event_id: idSchema,
    max_size: z.number().int().min(1, 'invalid_value').max(1000, 'invalid_value').default(100),
    page_number: z.number().int().min(1, 'invalid_value').default(1),
    attendee_uid: z
      .string()
      .max(ATTENDEE_ID_MAX_LENGTH + 20)
      .optional()
      .describe('Prefix search'),
  }),
  result: z.object({
    attendees: z.array(attendeeSchema),
    total_count: z.number().int(),
    page_number: z.number().int(),
    max_size: z.number().int(),
  }),
  errors: ['event_not_found'],
});

export const attendeesByPhotos = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/retrieve-by-photo-list`,
  auth: 'owner',
  tag: 'attendees',
  summary: 'The attendees each photo belongs to (by upload or attachment)',
  body: z.object({ photo_uids: photoUids }),
  result: z.array(z.object({ photo_uid: z.string(), attendee_uids: z.array(z.string()) })),
  errors: ['not_found'],
});

export const ownerAttachPhotos = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/attach-photos`,
  auth: 'owner',
  tag: 'attendees',
  summary: 'Adds photos of an event to an attendee’s album (already attached ones are kept)',
  body: z.object({
    event_id: idSchema,
    attendee_uid: attendeeUidField,
    photo_uid_array: photoUids,
  }),
  result: z.object({ attendee_uid: z.string(), attached_count: z.number().int() }),
  errors: ['event_not_found', 'invalid_attendee_id', 'not_found'],
});

export const unlinkPhotos = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/unlink-photos`,
  auth: 'owner',
  tag: 'attendees',
  summary:
    'Removes photos from an attendee’s album; one event at a time (owner-console §5). The photos stay in the event',
  body: z.object({
    event_id_array: z
      .array(idSchema, { error: 'event_not_found' })
      .min(1, 'event_not_found')
      .max(1, 'unlink_single_event'),
    attendee_uid: attendeeUidField,
    photo_uid_array: photoUids,
  }),
  result: z.object({ attendee_uid: z.string(), unlinked_count: z.number().int() }),
  errors: ['event_not_found', 'invalid_attendee_id', 'unlink_single_event', 'not_found'],
});

export const lockAttendee = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/lock-by-owner`,
  auth: 'owner',
  tag: 'attendees',
  summary: 'Locks (or, with is_locked 0, reopens) an attendee album: a locked link opens nothing',
  body: z.object({
    event_id: idSchema,
    attendee_uid: attendeeUidField,
    is_locked: flagSchema.default(1),
  }),
  result: attendeeSchema,
  errors: ['event_not_found', 'invalid_attendee_id'],
});

// ---- public calls -------------------------------------------------------------------------------

export const retrieveAttendee = defineEndpoint({
  path: '/attendee/retrieve',
  auth: 'key',
  tag: 'attendees',
  summary:
    'The attendee album behind an attendee key (`key_type` attendee, `key_value` the id). With organisation_id (attOrgId links) the attendee must belong to it',
  body: z.object({
    ...keyBody,
    organisation_id: idSchema.optional(),
  }),
  result: attendeeAlbumSchema,
  errors: ATTENDEE_KEY_ERRORS,
});

export const checkAttendeeUid = defineEndpoint({
  path: '/attendee/check-uid',
  auth: 'none',
  tag: 'attendees',
  summary:
    'Kiosk card check (albums §2.3): whether an attendee id exists and is open, and with private_id whether the card’s private id matches',
  body: z.object({
    attendee_uid: attendeeUidField,
    private_id: z.string().trim().max(40).optional(),
  }),
  result: z.object({ valid: z.boolean(), attendee_uid: z.string().nullable() }),
  errors: [],
  rateLimited: true,
});

export const attachPhotosByKey = defineEndpoint({
  path: '/attendee/attach-photos',
  auth: 'key',
  tag: 'attendees',
  summary:
    'All-photos kiosk (evSB1): adds chosen photos to the attendee’s album. Private or event-owner key of the photos’ event',
  body: z.object({ ...kioskKeyBody, attendee_uid: attendeeUidField, photo_uid_array: photoUids }),
  result: z.object({ attendee_uid: z.string(), attached_count: z.number().int() }),
  errors: [...ATTENDEE_KEY_ERRORS, 'not_found'],
});

export const attachPhotosByQrScan = defineEndpoint({
  path: '/attendee/attach-photos-by-qr-scan',
  auth: 'key',
  tag: 'attendees',
  summary:
    'QR ride kiosk (evSB3): the scanned card (an attId link or a bare id) takes the chosen photos. Private or event-owner key',
  body: z.object({
    ...kioskKeyBody,
    qr_text: z
      .string({ error: 'invalid_attendee_id' })
      .trim()
      .min(1, 'invalid_attendee_id')
      .max(2000, 'invalid_attendee_id'),
    photo_uid_array: photoUids,
  }),
  result: z.object({
    attendee_uid: z.string(),
    display_uid: z.string(),
    attached_count: z.number().int(),
    album_url: z.string(),
  }),
  errors: [...ATTENDEE_KEY_ERRORS, 'not_found'],
});

export const updateAttendeeByKiosk = defineEndpoint({
  path: '/attendee/update-by-kiosk',
  auth: 'key',
  tag: 'attendees',
  summary:
    'A kiosk visitor leaves the e-mail address their album link goes to. The kiosk only (the private key with the event’s display token `display`), for an attendee of its event',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    email_address: z.string().trim().max(EMAIL_MAX_LENGTH, 'email_invalid'),
    client_request_id: z
      .string({ error: 'invalid_value' })
      .trim()
      .min(8, 'invalid_value')
      .max(100, 'invalid_value')
      .optional()
      .describe(
        'Idempotency: the same id again (for this attendee and address) mails the album link no second time; the answer is the same',
      ),
  }),
  result: z.object({ attendee_uid: z.string(), email: z.string() }),
  errors: [...ATTENDEE_KEY_ERRORS, 'email_invalid', 'invalid_value'],
  rateLimited: true,
});

export const checkAndGroupAttendees = defineEndpoint({
  path: '/attendee/check-and-group-uid-list',
  auth: 'key',
  tag: 'attendees',
  summary:
    'Kiosk: several cards into one album. The first id keeps the album and gains the photos of the others; every card open, of the kiosk’s organisation and created at most 3 days ago (owner-console §5). The kiosk only (the private key with the event’s display token `display`); every card an attendee of its event',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid_list: z
      .array(attendeeUidField, { error: 'attendee_group_needs_two' })
      .min(2, 'attendee_group_needs_two')
      .max(20, 'invalid_value'),
  }),
  result: z.object({
    attendee_uid: z.string(),
    grouped_uids: z.array(z.string()),
    attached_count: z.number().int(),
    album_url: z.string(),
  }),
  errors: [...ATTENDEE_KEY_ERRORS, 'attendee_group_too_old', 'attendee_group_needs_two'],
  rateLimited: true,
});

export const checkKioskCard = defineEndpoint({
  path: '/attendee/check-card',
  auth: 'key',
  tag: 'attendees',
  summary:
    'Kiosk entry page (albums §2.3): the scanned text (an attId link or a bare code; the text after `=`, dashes removed) checked against the private id printed on the card, among open attendees of the kiosk’s organisation. The kiosk’s key (private or event-owner). An unknown card answers valid false',
  body: z.object({
    ...kioskKeyBody,
    card_code: z.string({ error: 'invalid_value' }).max(2000, 'invalid_value'),
  }),
  result: z.object({
    valid: z.boolean(),
    attendee_uid: z.string().nullable(),
  }),
  errors: ['invalid_key', 'unauthorized_user'],
  rateLimited: true,
});

export const checkKioskStaffPin = defineEndpoint({
  path: '/attendee/kiosk-staff/check',
  auth: 'key',
  tag: 'attendees',
  summary:
    'The kiosk’s staff controls (employee unlock code, VIP code, print pool, delete): the staff PIN typed on the kiosk, checked against the event’s `kiosk_staff_pin` secure field. The kiosk only (private key + display token). Wrong PINs count per kiosk (event and address): after 5 in a row it waits a minute, and at most 30 an hour',
  body: z.object({
    ...kioskKeyBody,
    pin: z
      .string({ error: 'invalid_staff_pin' })
      .trim()
      .min(1, 'invalid_staff_pin')
      .max(20, 'invalid_staff_pin'),
  }),
  result: z.object({ valid: z.literal(true) }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'invalid_staff_pin',
    'kiosk_staff_pin_not_set',
    'too_many_attempts',
  ],
  rateLimited: true,
});
