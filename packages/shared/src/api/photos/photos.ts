import { z } from 'zod';
import { ATTENDEE_KEY_ERRORS } from '../attendees/attendee-fields.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { flagOutput, flagSchema } from '../events/event-settings.ts';
import { keyBody, optionalKeyBody } from '../events/events.ts';
import { leadGateBody } from '../attendees/lead-gate.ts';
import { idSchema } from '../identity/users.ts';
import { isValidFileName } from '../../rules/text-rules.ts';

/** Derivative URLs of a photo; absent while processing or when the event does not ask for one. */
export const photoUrlsSchema = z.object({
  original: z.string().nullable().describe('Only for keys allowed to download originals'),
  preview: z.string().nullable().describe('Fit 2000×2000, quality 0.9, metadata stripped'),
  thumbnail: z.string().nullable().describe('About 400 px'),
  live_view_watermark: z.string().nullable(),
  photo_watermark: z.string().nullable(),
  protector_watermark: z.string().nullable(),
  video: z
    .string()
    .nullable()
    .describe(
      'A video or animated GIF: the web-playable MP4 for this caller (watermarked for guests of a watermarked event; a short watermarked preview for a guest of a paid event before the unlock)',
    ),
});

export const photoSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  event_id: z.number().int(),
  full_path: z.string().describe('Storage path; the uid sits between uid_ and _uid'),
  file_name: z.string(),
  content_type: z.string(),
  media_type: z.enum(['image', 'video']),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  size_bytes: z.number().int(),
  robot_id: z.number().int().nullable(),
  attendee_uid: z.string().nullable(),
  category: z.string().nullable(),
  is_visible: flagOutput,
  is_original: flagOutput,
  is_curatable: flagOutput,
  is_curated: flagOutput,
  printable: flagOutput,
  printed: flagOutput,
  image_process_id: z.number().int().nullable(),
  original_photo_id: z.number().int().nullable(),
  status: z.enum(['processing', 'ready', 'failed']),
  duration_ms: z
    .number()
    .int()
    .nullable()
    .describe('A video or animated GIF: its length in milliseconds'),
  is_360: flagOutput.describe('An equirectangular 360° photo (opens the 360 viewer)'),
  created_date: z.string().describe('When the upload completed'),
  available_date: z.string().describe('When albums may show it (after any photo delay)'),
  urls: photoUrlsSchema,
});
export type Photo = z.infer<typeof photoSchema>;

/**
 * A photo as a guest audience sees it (public, private and attendee keys; mini-album links): no
 * storage path, robot, attendee id (a bearer secret: it opens that attendee's album), process or
 * source photo. Operators and the event-owner and robot keys get the whole `photoSchema`.
 */
export const guestPhotoSchema = photoSchema.omit({
  full_path: true,
  robot_id: true,
  attendee_uid: true,
  image_process_id: true,
  original_photo_id: true,
});
export type GuestPhoto = z.infer<typeof guestPhotoSchema>;
/** What a key's photo read answers: the whole photo (operator audiences) or the guest view. */
export const keyPhotoSchema = z.union([photoSchema, guestPhotoSchema]);
export type KeyPhoto = z.infer<typeof keyPhotoSchema>;

/** An uploaded file's name as its grant is asked for (a booth's, a guest's, the kiosk camera's). */
export const uploadFileNameField = z
  .string({ error: 'file_name_invalid' })
  .trim()
  .min(1, 'file_name_invalid')
  .max(255, 'file_name_invalid')
  .refine(isValidFileName, 'file_name_invalid');

// ---- upload -------------------------------------------------------------------------------------

/** The event an upload grant is for, the file's name and its type (owner's and guest's grants). */
const uploadTarget = {
  event_name: z
    .string({ error: 'event_not_found' })
    .trim()
    .min(1, 'event_not_found')
    .max(20, 'event_not_found'),
  file_name: uploadFileNameField,
  content_type: z
    .string({ error: 'unsupported_picture_format' })
    .trim()
    .min(1, 'unsupported_picture_format')
    .max(100),
};

export const photoUploadGrantSchema = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string().describe('Storage key to pass to upload-complete'),
  max_bytes: z.number().int(),
  expires_date: z.string(),
  instant_url: z
    .string()
    .optional()
    .describe(
      'The photo’s permanent guest page, usable at once: it says the photo is developing until it is ready, then shows it (a booth shows it as a QR code before uploading). Always sent by this server; optional for clients of older ones',
    ),
  instant_code: z
    .string()
    .optional()
    .describe(
      'The short code of that page, unique in the event (6 characters, no look-alike letters or digits)',
    ),
});

const grantBody = z.object({
  ...optionalKeyBody,
  ...uploadTarget,
  attendee_uid: z
    .union([
      z.string({ error: 'invalid_attendee_id' }).max(100, 'invalid_attendee_id'),
      z
        .array(z.string({ error: 'invalid_attendee_id' }).max(100, 'invalid_attendee_id'), {
          error: 'invalid_attendee_id',
        })
        // The rule (at most 20, MAX_UPLOAD_ATTENDEES) is the service's, with its own error key; this
        // only bounds what is parsed.
        .max(1000, 'too_many_attendees'),
    ])
    .optional()
    .describe(
      'The attendee whose album the photo joins, or a list of them (a group photo; at most 20): the first is the photo’s own attendee, the others have it attached. The same bytes sent again for other attendees add it to their albums',
    ),
});

export const photoUploadAccess = defineEndpoint({
  path: '/photo/tmp-upload-access/retrieve',
  auth: 'owner_optional',
  tag: 'photos',
  summary:
    'Upload grant (S3 presigned POST) for one photo: key_type robot or event_owner with key_value, or an owner Authorization',
  body: grantBody,
  result: photoUploadGrantSchema,
  errors: [
    'invalid_key',
    'robot_not_attached',
    'robot_other_event',
    'event_not_found',
    'unsupported_picture_format',
    'file_name_invalid',
    'invalid_attendee_id',
    'too_many_attendees',
  ],
});

/** The completed upload: the photo, and what the upload did (the robot client reports it). */
export const photoUploadResultSchema = photoSchema.extend({
  upload_result: z
    .enum(['uploaded', 'attached', 'already_uploaded'])
    .describe(
      'uploaded: a new photo; attached: these bytes were already a photo of the event, now also in the albums of attendees the upload named; already_uploaded: the same photo, nothing new',
    ),
});
export type PhotoUploadResult = z.infer<typeof photoUploadResultSchema>;

export const photoUploadComplete = defineEndpoint({
  path: '/photo/upload-complete',
  auth: 'owner_optional',
  tag: 'photos',
  summary:
    'Register an uploaded file as a photo. Idempotent: the same bytes in the same event are the same photo',
  body: z.object({
    ...optionalKeyBody,
    key: z.string({ error: 'invalid_value' }).min(1, 'invalid_value').max(1024, 'invalid_value'),
    is_360: flagSchema
      .optional()
      .describe(
        'The uploader marks the photo as a 360° (equirectangular) panorama; otherwise it is recognised from its XMP',
      ),
    original_photo_id: idSchema
      .optional()
      .describe(
        'The upload is an edited copy of this photo of the same event (the caller must be able to curate it): stored with is_original 0 and linked to it',
      ),
    tags: z
      .array(
        z
          .string({ error: 'tags_invalid' })
          .max(64, 'tags_invalid')
          .regex(/^#?[A-Za-z0-9_-]+$/, 'tags_invalid'),
        { error: 'tags_invalid' },
      )
      .max(50, 'tags_invalid')
      .optional()
      .describe(
        'Tags the robot gives the photo (letters, digits, hyphen, underscore); the event’s hash tag and forced index tags are added. Stock-image tag policies look for them',
      ),
  }),
  result: photoUploadResultSchema,
  errors: [
    'invalid_key',
    'robot_not_attached',
    'robot_other_event',
    'not_found',
    'unsupported_picture_format',
    'unsupported_media_size',
    'tags_invalid',
  ],
});

// ---- guests' own photos -------------------------------------------------------------------------

/** A guest's key: the public album's (`enablePhotoUpl`) or an attendee's own (`enableAttendeePhotoUpl`). */
const guestUploadKeyBody = {
  key_type: z.enum(['public', 'attendee'], { error: 'invalid_key' }),
  key_value: keyBody.key_value,
};

export const guestUploadAccess = defineEndpoint({
  path: '/photo/guest-upload-access/retrieve',
  auth: 'key',
  tag: 'photos',
  summary:
    'A guest adds a photo: the upload grant (S3 presigned POST) for one picture (jpg, jpeg, png, gif; at most 25 MB). The public key when the event takes guests’ photos (`enablePhotoUpl`); an attendee key into their own album when it takes attendees’ photos (`enableAttendeePhotoUpl`). Rate limited per address and per event',
  body: z.object({
    ...guestUploadKeyBody,
    ...uploadTarget,
    size_bytes: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .nonnegative('invalid_value')
      .optional()
      .describe('The file’s size as the phone has it: a file over 25 MB is refused at once'),
  }),
  result: photoUploadGrantSchema,
  errors: [
    ...ATTENDEE_KEY_ERRORS,
    'event_not_found',
    'photo_upload_disabled',
    'attendee_photo_upload_disabled',
    'unsupported_picture_format',
    'guest_upload_too_large',
    'file_name_invalid',
    'too_many_requests',
  ],
  rateLimited: true,
});

export const guestUploadComplete = defineEndpoint({
  path: '/photo/guest-upload-complete',
  auth: 'key',
  tag: 'photos',
  summary:
    'A guest’s uploaded picture becomes a photo of the event: resized to fit the event’s `attPhotoImgMaxWidth` × `attPhotoImgMaxHeight` (never enlarged), tagged with `attPhotoImgPrTag`, held for review when the event moderates, shown in the event’s album or only in the uploader’s own (`guestUploadsPublic`). Idempotent: the same picture again is the same photo',
  body: z.object({
    ...guestUploadKeyBody,
    key: z.string({ error: 'invalid_value' }).min(1, 'invalid_value').max(1024, 'invalid_value'),
  }),
  result: z.object({
    uid: z.string(),
    upload_result: photoUploadResultSchema.shape.upload_result,
    held_for_review: z
      .boolean()
      .describe('The event moderates: the photo appears once an operator approves it'),
    in_event_album: z
      .boolean()
      .describe('Shown in the event’s album (else only in the uploader’s own album)'),
  }),
  errors: [
    ...ATTENDEE_KEY_ERRORS,
    'photo_upload_disabled',
    'attendee_photo_upload_disabled',
    'not_found',
    'unsupported_picture_format',
    'guest_upload_too_large',
    'photo_too_large',
    'photo_truncated',
    'too_many_requests',
  ],
  rateLimited: true,
});

// ---- list ---------------------------------------------------------------------------------------

const optionalFlag = flagSchema.optional();
export const photoListQuery = {
  event_id: idSchema.optional(),
  max_size: z
    .number({ error: 'invalid_value' })
    .int('invalid_value')
    .min(1, 'invalid_value')
    .max(1000, 'invalid_value')
    .default(100),
  page_number: z
    .number({ error: 'invalid_value' })
    .int('invalid_value')
    .min(1, 'invalid_value')
    .default(1),
  min_time_minutes: z
    .number()
    .int()
    .min(0, 'invalid_value')
    .optional()
    .describe('Uploaded at least this many minutes ago'),
  max_time_minutes: z
    .number()
    .int()
    .min(0, 'invalid_value')
    .optional()
    .describe('Uploaded at most this many minutes ago'),
  is_kiosk: optionalFlag,
  is_curatable: optionalFlag,
  is_curated: optionalFlag,
  is_original: optionalFlag,
  image_process_id: idSchema.optional(),
  printable: optionalFlag,
  printed: optionalFlag,
  file_name: z.string().max(255).optional().describe('Substring of the file name'),
  attendee_uid: z.string().max(100).optional(),
  show_total_count: optionalFlag,
  count_limit: z
    .number({ error: 'invalid_value' })
    .int('invalid_value')
    .min(1, 'invalid_value')
    .max(100_000, 'invalid_value')
    .optional()
    .describe(
      'With show_total_count: count at most this many photos (a quick count for a first page); when there are more, total_count is this limit and total_count_capped is 1',
    ),
  get_from_tmp: optionalFlag.describe('Include photos still waiting for their delay (owners only)'),
  is_visible: optionalFlag,
  start_date: z.string().max(40).optional().describe('ISO 8601 or YYYY-MM-DD HH:mm, UTC'),
  end_date: z.string().max(40).optional(),
  before_id: idSchema
    .optional()
    .describe(
      'Keyset paging: only photos listed after this one (older). Stable while photos arrive; use instead of page_number for deep scrolling',
    ),
};

/** A stock image as albums and kiosks show it (albums spec §3): full image and thumbnail URLs. */
export const stockImageTileSchema = z.object({
  uid: z.string(),
  url: z.string(),
  thumbnail_url: z.string(),
});
export type StockImageTile = z.infer<typeof stockImageTileSchema>;

export const photoListResult = z.object({
  photos: z.array(photoSchema),
  total_count: z.number().int().nullable(),
  total_count_capped: flagOutput
    .optional()
    .describe('1 when count_limit stopped the count: the album holds more than total_count'),
  page_number: z.number().int(),
  max_size: z.number().int(),
});

export const ownerPhotoList = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/list/retrieve`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Photos of an event with every filter, newest first',
  body: z.object(photoListQuery).extend({ event_id: idSchema }),
  result: photoListResult,
  errors: ['event_not_found'],
});

export const publicPhotoList = defineEndpoint({
  path: '/photo/list/retrieve',
  auth: 'key',
  tag: 'photos',
  summary:
    'Public twin: photos by key (public key: visible photos only; attendee: theirs). Public, private and attendee keys get the guest view of each photo',
  body: z.object(photoListQuery).extend({
    ...keyBody,
    ...leadGateBody,
    photo_id_array: z
      .array(idSchema, { error: 'invalid_value' })
      .max(500, 'too_many_photos')
      .optional()
      .describe('Only these photos (a guest’s favourites), of those the key lists'),
    vip_token: z
      .string({ error: 'vip_token_invalid' })
      .trim()
      .min(1, 'vip_token_invalid')
      .max(200, 'vip_token_invalid')
      .optional()
      .describe(
        'The event’s VIP token typed at a kiosk (albums §2.4): photos are shown once the VIP photo delay (`photoDelayVipMinutes`, else none) has passed since upload, instead of after their own delay. Only visible, ready photos of the key’s album; a wrong token is refused',
      ),
  }),
  result: photoListResult.extend({
    photos: z.array(keyPhotoSchema),
    stock_images: z
      .array(stockImageTileSchema)
      .describe(
        'First page only (no before_id): the event’s stock images shown now (date window and tag policy hold, stock images on, a thumbnail set); empty otherwise',
      ),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'event_not_found',
    'vip_token_invalid',
    'lead_required',
  ],
});

const countWindow = {
  start_date: z.string().max(40).optional(),
  end_date: z.string().max(40).optional(),
};
const photoCountResult = z.object({
  total: z.number().int(),
  visible: z.number().int(),
  hidden: z.number().int(),
  originals: z.number().int(),
  printed: z.number().int(),
  processing: z.number().int(),
});

export const photoCountInfo = defineEndpoint({
  path: `${OWNER_PREFIX}/event/photo-count-info/retrieve`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Counts of an event’s photos in a date window',
  body: z.object({ event_id: idSchema, ...countWindow }),
  result: photoCountResult,
  errors: ['event_not_found'],
});

/**
 * A paid event's protected previews (docs/domains/photos.md, "Protected previews"): `off` (a free
 * event), `running` (the job is queued or working), `done` (every photo shown to guests carries the
 * current mark) or `failed` (the job stopped with photos left: `done` of `total`).
 */
export const previewProtectionSchema = z.object({
  state: z.enum(['off', 'running', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
});
export type PreviewProtection = z.infer<typeof previewProtectionSchema>;

export const previewProtectionStatus = defineEndpoint({
  path: `${OWNER_PREFIX}/event/preview-protection/retrieve`,
  auth: 'owner',
  tag: 'photos',
  summary:
    'Progress of making a paid event’s protected previews (after turning paid or a new mark)',
  body: z.object({ event_id: idSchema }),
  result: previewProtectionSchema,
  errors: ['event_not_found'],
});

export const previewProtectionRestart = defineEndpoint({
  path: `${OWNER_PREFIX}/event/preview-protection/restart`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Make the protected previews still missing (photos already done are skipped)',
  body: z.object({ event_id: idSchema }),
  result: previewProtectionSchema,
  errors: ['event_not_found'],
});

export const keyPhotoCountInfo = defineEndpoint({
  path: '/event/photo-count-info/retrieve',
  auth: 'key',
  tag: 'photos',
  summary:
    "Public twin (event-owner and robot keys): counts of the key's event's photos in a date window",
  body: z.object({ ...keyBody, ...countWindow }),
  result: photoCountResult,
  errors: ['invalid_key', 'unauthorized_user', 'invalid_value'],
});

// ---- changes ------------------------------------------------------------------------------------

const deleteReason = z
  .string({ error: 'delete_reason_required' })
  .trim()
  .min(1, 'delete_reason_required')
  .max(500, 'invalid_value');

export const deletePhoto = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/delete`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Delete a photo and its files',
  body: z.object({ photo_id: idSchema, delete_reason: deleteReason.optional() }),
  result: z.object({ deleted: z.number().int() }),
  errors: ['not_found'],
});

export const deletePhotoList = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/list/delete`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Delete photos and their files; the reason is kept in the audit log',
  body: z.object({
    photo_id_array: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
    delete_reason: deleteReason,
  }),
  result: z.object({ deleted: z.number().int() }),
  errors: ['not_found', 'delete_reason_required'],
});

export const updatePhoto = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/update`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Change a photo’s category or visibility',
  body: z.object({
    id: idSchema,
    category: z.string().max(100).nullable().optional(),
    is_visible: flagSchema.optional(),
  }),
  result: photoSchema,
  errors: ['not_found'],
});

export const updatePhotoList = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/list/update`,
  auth: 'owner',
  tag: 'photos',
  summary: 'Change category or visibility of many photos',
  body: z.object({
    id_array: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
    category: z.string().max(100).nullable().optional(),
    is_visible: flagSchema.optional(),
  }),
  result: z.object({ updated: z.number().int() }),
  errors: ['not_found'],
});

export const curationUpdate = defineEndpoint({
  path: '/photo/curation-update',
  auth: 'owner_optional',
  tag: 'photos',
  summary: 'Mark an original as curated, attaching the curated file; optionally request a print',
  body: z.object({
    ...optionalKeyBody,
    original_photo_id: idSchema,
    full_path: z
      .string()
      .max(1024)
      .optional()
      .describe('Storage key of the curated version, if any'),
    print_requested: flagSchema.optional(),
  }),
  result: photoSchema,
  errors: ['invalid_key', 'not_found'],
});

export const curationReprocess = defineEndpoint({
  path: '/photo/curation-update/reprocess',
  auth: 'owner_optional',
  tag: 'photos',
  summary: 'Make a photo’s derivatives again (after the event’s watermarks changed)',
  body: z.object({ ...optionalKeyBody, photo_id: idSchema }),
  result: photoSchema,
  errors: ['invalid_key', 'not_found'],
});

export const activityTypes = ['info', 'warning', 'error'] as const;
export const createActivity = defineEndpoint({
  path: '/activity/create-by-robot-id',
  auth: 'key',
  tag: 'activity',
  summary: 'A robot reports an activity on a photo (default type info)',
  body: z.object({
    ...keyBody,
    robot_id: idSchema,
    photo_id: idSchema.optional(),
    activity_name: z.string().trim().min(1, 'invalid_value').max(100, 'invalid_value'),
    type: z.enum(activityTypes, { error: 'invalid_value' }).default('info'),
  }),
  result: z.object({ id: z.number().int() }),
  errors: ['invalid_key', 'unauthorized_user', 'not_found'],
});

export const bulkCreateActivity = defineEndpoint({
  path: '/activity/bulk-create-by-robot-id',
  auth: 'key',
  tag: 'activity',
  summary: 'A robot reports one activity on many photos',
  body: z.object({
    ...keyBody,
    robot_id: idSchema,
    photo_id_array: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
    activity_name: z.string().trim().min(1, 'invalid_value').max(100, 'invalid_value'),
    type: z.enum(activityTypes, { error: 'invalid_value' }).default('info'),
  }),
  result: z.object({ created: z.number().int() }),
  errors: ['invalid_key', 'unauthorized_user', 'not_found'],
});

export const publicUpdatePhotoList = defineEndpoint({
  path: '/photo/list/update',
  auth: 'key',
  tag: 'photos',
  summary:
    'Public twin for the curation page: hide, show or categorise photos with the event-owner key',
  body: z.object({
    ...keyBody,
    id_array: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
    category: z.string().max(100).nullable().optional(),
    is_visible: flagSchema.optional(),
  }),
  result: z.object({ photos: z.array(photoSchema) }),
  errors: ['invalid_key', 'unauthorized_user', 'forbidden', 'not_found'],
});

// ---- instant links (a photo's guest page before its upload finishes) ---------------------------

export const instantStateSchema = z.object({
  state: z
    .enum(['developing', 'ready', 'failed'])
    .describe(
      'developing: not ready yet (nothing else is told); ready: the photo, as a guest of the event sees it; failed: the upload was refused or did not arrive before the grant ended',
    ),
  code: z.string(),
  event: z
    .object({
      name: z.string(),
      full_name: z.string(),
      logo_full_path: z.string().nullable(),
      download_enabled: flagOutput.describe(
        'Whether the event lets guests save the picture (guestDownloadEnabled; a locked paid photo has only its protected preview)',
      ),
    })
    .nullable()
    .describe('Only once the photo is ready'),
  photo: guestPhotoSchema.nullable().describe('Only once the photo is ready'),
});
export type InstantState = z.infer<typeof instantStateSchema>;

/** Path below `/api/v1` of an instant link's live state: `GET ?instant=<event>-<code>` (SSE). */
export const INSTANT_STREAM_PATH = '/photo/instant/stream';
/** The server-sent event carrying an instant link's new state. */
export const INSTANT_STREAM_EVENT = 'instant';

export const retrieveInstantPhoto = defineEndpoint({
  path: '/photo/instant/retrieve',
  auth: 'none',
  tag: 'photos',
  summary:
    'An instant link’s state by its `instant` parameter (`<event>-<code>`): developing, ready (with the photo as the event’s guests see it) or failed. Rate limited per client address',
  body: z.object({
    instant: z
      .string({ error: 'not_found' })
      .trim()
      .min(1, 'not_found')
      .max(40, 'not_found')
      .describe('`<event name>-<code>`, as in the link'),
  }),
  result: instantStateSchema,
  errors: ['not_found'],
  rateLimited: true,
});
