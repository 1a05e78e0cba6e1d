import { z } from 'zod';
import { ATTENDEE_KEY_ERRORS, attendeeUidField } from './attendee-fields.ts';
import { defineEndpoint } from '../endpoint.ts';
import { flagSchema } from '../events/event-settings.ts';
import { kioskKeyBody } from '../events/events.ts';
import { idSchema } from '../identity/users.ts';
import { uploadFileNameField } from '../photos/photos.ts';

/**
 * Kiosk media calls (albums spec §5, §7.1, §7.2, §9): an attendee's profile photos,
 * custom photos from the kiosk camera (uploaded under `kioskMedia/`) and the kiosk's photo delete
 * (the owner's pass-code list is in `payments/pass-codes.ts`). Camera calls carry the kiosk's
 * key (private or event-owner) of an event of the attendee's organisation; profile photos are the
 * kiosk's only (the private key with the event's display token `display`), for attendees of its
 * event.
 */

const uploadedKey = z
  .string({ error: 'not_found' })
  .trim()
  .min(1, 'not_found')
  .max(1024, 'not_found')
  .describe('The storage key the upload grant answered');

/** A presigned POST (albums §7.1): `url` and `fields`, plus the key and the byte limit. */
export const kioskUploadGrantSchema = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  max_bytes: z.number().int(),
});

// ---- profile photos -----------------------------------------------------------------------------

export const profilePhotoSchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string().describe('Signed, short-lived: profile photos are protected objects'),
  created_date: z.string(),
});
export type ProfilePhoto = z.infer<typeof profilePhotoSchema>;

export const profilePhotoUploadAccess = defineEndpoint({
  path: '/attendee/profile-photo/upload-access/retrieve',
  auth: 'key',
  tag: 'attendees',
  summary:
    'Upload grant for one profile photo of an attendee (jpg, jpeg or png; "Not Allowed {ext} files. Only jpg, jpeg, png files are allowed."). Register it with /attendee/profile-photo/create',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    file_name: uploadFileNameField,
  }),
  result: kioskUploadGrantSchema,
  errors: [...ATTENDEE_KEY_ERRORS, 'image_field_not_allowed', 'file_name_invalid'],
  rateLimited: true,
});

export const createProfilePhoto = defineEndpoint({
  path: '/attendee/profile-photo/create',
  auth: 'key',
  tag: 'attendees',
  summary:
    'Register an uploaded profile photo: a real jpg or png at most 1500 px wide (albums §9), else refused and the upload removed',
  body: z.object({ ...kioskKeyBody, attendee_uid: attendeeUidField, key: uploadedKey }),
  result: profilePhotoSchema,
  errors: [
    ...ATTENDEE_KEY_ERRORS,
    'not_found',
    'image_field_not_allowed',
    'unsupported_picture_format',
    'profile_photo_too_wide',
  ],
});

export const listProfilePhotos = defineEndpoint({
  path: '/attendee/profile-photo/list/retrieve',
  auth: 'key',
  tag: 'attendees',
  summary: 'The attendee’s profile photos, newest first',
  body: z.object({ ...kioskKeyBody, attendee_uid: attendeeUidField }),
  result: z.object({ profile_photos: z.array(profilePhotoSchema) }),
  errors: [...ATTENDEE_KEY_ERRORS],
});

export const deleteProfilePhoto = defineEndpoint({
  path: '/attendee/profile-photo/delete',
  auth: 'key',
  tag: 'attendees',
  summary: 'Delete one of the attendee’s profile photos (row and file)',
  body: z.object({ ...kioskKeyBody, attendee_uid: attendeeUidField, id: idSchema }),
  result: z.object({ id: z.number().int() }),
  errors: [...ATTENDEE_KEY_ERRORS, 'not_found'],
});

// ---- custom photos from the kiosk camera --------------------------------------------------------

const customBody = {
  ...kioskKeyBody,
  file_name: uploadFileNameField,
  keep_origin_name: flagSchema
    .optional()
    .describe('1: the upload keeps its file name; else a random base-36 name (albums §9)'),
  client_request_id: z
    .string({ error: 'invalid_value' })
    .trim()
    .min(8, 'invalid_value')
    .max(100, 'invalid_value')
    .regex(/^[A-Za-z0-9_-]+$/, 'invalid_value')
    .optional()
    .describe(
      'Idempotency: the same id again answers a grant for the same storage key, so a kiosk that retries or reloads uploads to and completes the one photo',
    ),
};
const customErrors = [
  'invalid_value',
  'invalid_key',
  'unauthorized_user',
  'unsupported_picture_format',
  'file_name_invalid',
] as const;

export const createCustomPhoto = defineEndpoint({
  path: '/event/create-custom-photo',
  auth: 'key',
  tag: 'photos',
  summary:
    'Kiosk camera: an upload grant under kioskMedia/ for one custom photo of the kiosk’s event (jpg or jpeg at most 1.5 MB, mp4 at most 4 MB). Finish with /event/custom-photo/complete',
  body: z.object(customBody),
  result: kioskUploadGrantSchema,
  errors: [...customErrors],
  rateLimited: true,
});

export const createAttendeeCustomPhoto = defineEndpoint({
  path: '/event/create-attendee-custom-photo',
  auth: 'key',
  tag: 'photos',
  summary:
    'As /event/create-custom-photo, for an attendee: the finished photo is in their album (the id is fixed in the grant)',
  body: z.object({ ...customBody, attendee_uid: attendeeUidField }),
  result: kioskUploadGrantSchema,
  errors: [...customErrors, 'invalid_attendee_id', 'attendee_locked', 'attendee_expired'],
  rateLimited: true,
});

export const completeCustomPhoto = defineEndpoint({
  path: '/event/custom-photo/complete',
  auth: 'key',
  tag: 'photos',
  summary:
    'Turn an uploaded custom photo into a photo of the kiosk’s event (idempotent). Sizes are checked again on the stored bytes',
  body: z.object({ ...kioskKeyBody, key: uploadedKey }),
  result: z.object({ photo_uid: z.string(), attendee_uid: z.string().nullable() }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'not_found',
    'unsupported_picture_format',
    'unsupported_media_size',
    'photo_too_large',
    'photo_truncated',
  ],
});

// ---- kiosk photo delete -------------------------------------------------------------------------

export const kioskDeletePhoto = defineEndpoint({
  path: '/photo/kiosk-delete',
  auth: 'key',
  tag: 'photos',
  summary:
    'A guest deletes a photo of their album at the kiosk (albums §4, §6): only where the event allows it (`opts.allowKioskPhotoDelete`; the kiosk link’s flag only shows the button). The photo and its files go; the audit log records it as deleted at the kiosk',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    photo_uid: z.string({ error: 'not_found' }).trim().min(1, 'not_found').max(100, 'not_found'),
  }),
  result: z.object({ deleted: z.number().int() }),
  errors: [...ATTENDEE_KEY_ERRORS, 'kiosk_photo_delete_off', 'not_found'],
  rateLimited: true,
});
