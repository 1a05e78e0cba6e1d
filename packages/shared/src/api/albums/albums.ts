import { z } from 'zod';
import { hardenInput } from '../input-rules.ts';
import { defineEndpoint } from '../endpoint.ts';
import { flagOutput, flagSchema } from '../events/event-settings.ts';
import { keyBody, optionalKeyBody } from '../events/events.ts';
import { leadGateBody } from '../attendees/lead-gate.ts';
import { guestPhotoSchema } from '../photos/photos.ts';
import { idSchema } from '../identity/users.ts';
import { emailSchema } from '../../rules/identity.ts';

const photoUid = z.string({ error: 'not_found' }).trim().min(1, 'not_found').max(100, 'not_found');

// ---- live stream (GET, server-sent events; see docs/adr/0002-server-sent-events.md) ----------

/** Path of the live photo stream below `/api/v1`: `GET ?key_type=…&key_value=…`, `text/event-stream`. */
export const PHOTO_STREAM_PATH = '/photo/stream';
/** Name of the server-sent event that carries one photo (data: the photo as the public list shows it). */
export const PHOTO_STREAM_EVENT = 'photo';
/** A GET query, not an endpoint body: it takes the input rule explicitly. */
export const photoStreamQuery = hardenInput(
  z.object({
    ...keyBody,
    // The lead gate (lead-gate.ts) in a query string: the display token of the organiser's screens.
    lead_token: leadGateBody.lead_token,
    display: leadGateBody.display,
  }),
);

// ---- sharing (albums §7.2, owner-console §2) ---------------------------------------------------

export const shareNetworks = [
  'facebook',
  'twitter',
  'linkedin',
  'whatsapp',
  'email',
  'link',
] as const;
export type ShareNetwork = (typeof shareNetworks)[number];

export const generateShareLink = defineEndpoint({
  path: '/photo/generate-html-file-sharing',
  auth: 'owner_optional',
  tag: 'albums',
  summary:
    'Share page (Open Graph tags, readable without JavaScript) of one photo: answers its URL. Key or owner Authorization',
  body: z.object({
    ...optionalKeyBody,
    photo_uid: photoUid,
    event_name: z.string().max(20).optional().describe('Accepted for older clients; not needed'),
  }),
  result: z.object({
    url: z.string(),
    photo_uid: z.string(),
    text: z
      .string()
      .default('')
      .describe(
        'The event’s sharing template for the photo’s kind (photo, video, 360) with {user_name}, {image_url}, {imageUrl}, {url}, {width}, {height}, {srcImg} and {srcVideo} filled: plain text for the share dialog',
      ),
  }),
  errors: ['invalid_key', 'not_found', 'unauthorized_user'],
});

export const trackShare = defineEndpoint({
  path: '/photo/share/track',
  auth: 'key',
  tag: 'albums',
  summary:
    'Records that a viewer shared a photo (the Facebook share is the activity FacebookShare)',
  body: z.object({
    ...keyBody,
    photo_uid: photoUid,
    network: z.enum(shareNetworks, { error: 'invalid_value' }).default('facebook'),
  }),
  result: z.object({ id: z.number().int(), activity_name: z.string() }),
  errors: ['invalid_key', 'unauthorized_user', 'not_found'],
});

// ---- mini-album (albums §5, §7.2) --------------------------------------------------------------

export const MINI_ALBUM_MAX_PHOTOS = 100;
export const MINI_ALBUM_MAX_EMAILS = 20;

export const sendMiniAlbumLink = defineEndpoint({
  path: '/event/mini-album/send-link',
  auth: 'owner_optional',
  tag: 'albums',
  summary:
    'Makes a mini-album of chosen photos and sends its link by e-mail and/or SMS with the event’s templates. Key or owner Authorization (then event_id)',
  body: z.object({
    ...optionalKeyBody,
    event_id: idSchema.optional().describe('Owner path only: the event of the photos'),
    email_to_address_array: z
      .array(z.string({ error: 'email_invalid' }).max(1000, 'email_invalid'))
      .max(MINI_ALBUM_MAX_EMAILS, 'invalid_value')
      .default([])
      .describe(
        'E-mail addresses; an entry may be a comma-separated list. With several addresses an invalid one is skipped (albums §5), with one it must be valid',
      ),
    photo_uid_array: z
      .array(photoUid, { error: 'photos_required' })
      .max(MINI_ALBUM_MAX_PHOTOS, 'invalid_value')
      .default([])
      .describe('The photos; with instant_code_array, at least one of the two lists'),
    instant_code_array: z
      .array(z.string({ error: 'not_found' }).max(12, 'not_found'), { error: 'not_found' })
      .max(MINI_ALBUM_MAX_PHOTOS, 'invalid_value')
      .default([])
      .describe(
        'Instant codes of the event (from upload grants) whose photos may not be ready yet: the mini-album shows each as developing until it is, and the message goes out now',
      ),
    receiver_full_name: z.string().trim().max(200, 'invalid_value').default(''),
    sms_number: z
      .string()
      .max(40, 'phone_invalid')
      .nullable()
      .optional()
      .describe('US phone number; sent only when the event has SMS enabled'),
    sender_attendee_uid: z.string().max(100, 'invalid_value').nullable().optional(),
    receiver_company_name: z.string().trim().max(200, 'invalid_value').nullable().optional(),
    contact_phone_number: z.string().max(40, 'phone_invalid').nullable().optional(),
    receiver_consent: flagSchema
      .optional()
      .describe('Required (1) where the event collects leads (collect_leads = 1)'),
  }),
  result: z.object({
    url: z.string().describe('`<public url>/?mId=<token>`'),
    emailed_addresses: z.array(z.string()),
    rejected_addresses: z.array(z.string()).describe('Invalid entries of a several-address list'),
    sms_count: z.number().int(),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'event_not_found',
    'photos_required',
    'not_found',
    'email_invalid',
    'phone_invalid',
    'recipient_required',
    'sms_not_enabled',
    'consent_required',
    'too_many_recipients',
    'too_many_requests',
  ],
});

export const miniAlbumSchema = z.object({
  event: z.object({
    id: z.number().int(),
    name: z.string(),
    full_name: z.string(),
    empty_album_text: z.string(),
    logo_full_path: z.string().nullable(),
  }),
  photos: z
    .array(guestPhotoSchema)
    .describe('As the public list presents them (guest view); hidden ones left out'),
  developing: z
    .array(z.object({ code: z.string(), url: z.string() }))
    .default([])
    .describe(
      'Instant links sent before their photos were ready and not ready yet: each one’s page (it fills in when the photo is)',
    ),
  created_date: z.string(),
});
export type MiniAlbum = z.infer<typeof miniAlbumSchema>;

export const retrieveMiniAlbum = defineEndpoint({
  path: '/mini-album/retrieve',
  auth: 'none',
  tag: 'albums',
  summary: 'The event basics and photos of a mini-album, by the token of its link (`mId`)',
  body: z.object({
    token: z.string({ error: 'not_found' }).trim().min(1, 'not_found').max(200, 'not_found'),
  }),
  result: miniAlbumSchema,
  errors: ['not_found'],
});

// ---- album download (a selection or the whole album as one zip) --------------------

/** Most photos one selection may name (the whole album has no limit: leave the list out). */
export const ALBUM_DOWNLOAD_MAX_PHOTOS = 500;
/**
 * Above this many photos the whole album is not streamed to the page: a job builds the zip into
 * storage and mails its link. A phone on venue Wi-Fi rarely finishes a download of several GB in
 * one go, and a failed stream starts again from nothing; a stored zip resumes (range requests).
 * The same figure as a selection's limit, so every streamed zip is at most this many photos.
 */
export const ALBUM_DOWNLOAD_MAIL_THRESHOLD = ALBUM_DOWNLOAD_MAX_PHOTOS;
/** Path below `/api/v1` of the zip itself: `GET ?ticket=…` (the ticket from `createAlbumDownload`). */
export const ALBUM_DOWNLOAD_PATH = '/album/download';
/** Path below `/api/v1` of a zip a job stored (the link the mail carries): `GET ?ticket=…`. */
export const ALBUM_DOWNLOAD_FILE_PATH = '/album/download/file';
/** Seconds a download ticket stays valid. */
export const ALBUM_DOWNLOAD_TICKET_SECONDS = 300;
/** Days a mailed zip's link (and the stored zip) stays valid. */
export const ALBUM_DOWNLOAD_MAILED_DAYS = 7;
/** Response header of a streamed zip: how many files it holds (the page's progress). */
export const ZIP_ENTRIES_HEADER = 'x-total-entries';

export const ALBUM_DOWNLOAD_SIZES = ['web', 'original'] as const;
/** `web`: the picture the album shows (2000 px preview, or watermarked); `original`: the file as shot. */
export type AlbumDownloadSize = (typeof ALBUM_DOWNLOAD_SIZES)[number];

export const createAlbumDownload = defineEndpoint({
  path: '/album/download/create',
  auth: 'key',
  tag: 'albums',
  summary:
    'Checks that the key may download the chosen photos (or, without a list, the whole album) and answers a short-lived address of the zip, streamed by the server with its length and entry count: originals where the key may download them (a free event’s guests too, for photos without a watermark, unless the operator limits guests to the web size), otherwise the shown picture of a free event’s album unless the operator turned downloads off; paid originals never. A whole album above the mail threshold is built by a job and its link mailed to `email`',
  body: z.object({
    ...keyBody,
    ...leadGateBody,
    photo_id_array: z
      .array(idSchema, { error: 'invalid_value' })
      .min(1, 'invalid_value')
      .max(ALBUM_DOWNLOAD_MAX_PHOTOS, 'too_many_photos')
      .optional()
      .describe('Photos to download; leave out for the whole album'),
    size: z
      .enum(ALBUM_DOWNLOAD_SIZES, { error: 'invalid_value' })
      .optional()
      .describe(
        'web or original; left out: the largest the key may have. original where no photo may be had as original is download_not_allowed (field size)',
      ),
    email: emailSchema
      .optional()
      .describe(
        `Where the link goes when the whole album has more than ${ALBUM_DOWNLOAD_MAIL_THRESHOLD} photos (required then)`,
      ),
  }),
  result: z.object({
    url: z
      .string()
      .nullable()
      .describe('GET it before expires_in seconds; the zip streams. Null when the link is mailed'),
    photo_count: z.number().int().describe('Photos the zip holds (a selection: those allowed)'),
    expires_in: z.number().int(),
    mailed: flagOutput.describe(
      '1: too many photos to stream; a job builds the zip and mails its link',
    ),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'not_found',
    'download_not_allowed',
    'too_many_photos',
    'lead_required',
    'email_required',
  ],
});
