import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { keyBody } from '../events/events.ts';
import { uploadGrantSchema } from '../events/share-bucket.ts';
import { guestPhotoSchema, photoSchema } from '../photos/photos.ts';
import { idSchema } from '../identity/users.ts';

/** The search's default `face_match_threshold` (similarity 0–100, Rekognition-like). */
export const DEFAULT_FACE_MATCH_THRESHOLD = 80;
/** At most this many reference photos per search. */
export const MAX_FACE_SEARCH_PHOTOS = 10;

/**
 * The version of an event's face-recognition text a guest accepts: a short hash
 * of the text as shown (`opts.faceRecognitionText`, empty = the product's default text). The
 * server stores it with the time of the consent and refuses selfies without the current one.
 * FNV-1a (32-bit): it names a revision of the text, it protects nothing.
 */
export const faceConsentVersion = (text: string): string => {
  let hash = 0x811c9dc5;
  for (const char of text.normalize('NFC')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `v1-${hash.toString(16).padStart(8, '0')}`;
};

const consentVersionField = z
  .string({ error: 'face_consent_required' })
  .trim()
  .max(64, 'face_consent_outdated')
  .optional()
  .describe(
    "The version (`faceConsentVersion` of the event's face-recognition text) the guest accepted; without it nothing is processed",
  );

/** The photos a search takes its reference faces from (one each: its largest); the call says which. */
const referencePhotosField = (description: string) =>
  z
    .array(z.string().trim().min(1, 'invalid_url').max(2048, 'invalid_url'), {
      error: 'invalid_url',
    })
    .min(1, 'invalid_url')
    .max(MAX_FACE_SEARCH_PHOTOS, 'invalid_url')
    .describe(description);

/** How alike a face must be to match (similarity 0–100). */
const faceMatchThresholdField = z
  .number({ error: 'invalid_value' })
  .min(0, 'invalid_value')
  .max(100, 'invalid_value')
  .default(DEFAULT_FACE_MATCH_THRESHOLD);

/** A key's search by selfie; attaching what it found searches again with the same fields. */
const keySelfieSearchBody = (photosDescription: string) => ({
  ...keyBody,
  photo_url_list: referencePhotosField(photosDescription),
  face_consent_version: consentVersionField,
  face_match_threshold: faceMatchThresholdField,
});

/** A face's box in its photo, each value a fraction (0–1) of the photo's width or height. */
export const faceBoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

/** A photo that matched, with the best similarity of any of its faces to any reference face. */
export const faceMatchSchema = photoSchema.extend({
  similarity: z.number().describe('0–100; calibrated from the descriptor distance'),
  face_box: faceBoxSchema.describe('The matching face in this photo'),
});
export type FaceMatch = z.infer<typeof faceMatchSchema>;

export const searchByFace = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/search-by-face`,
  auth: 'owner',
  tag: 'faces',
  summary: 'Photos of the event showing the person in the reference photos, best match first',
  body: z.object({
    event_id: idSchema,
    photo_url_list: referencePhotosField(
      "URLs (or storage paths) of photos in this server's storage for this event",
    ),
    start_date: z.string().max(40).optional().describe('ISO 8601 or YYYY-MM-DD HH:mm, UTC'),
    end_date: z.string().max(40).optional(),
    face_match_threshold: faceMatchThresholdField,
  }),
  result: z.object({
    photos: z.array(faceMatchSchema),
    /** How many reference faces were searched with (one per reference photo: its largest). */
    searched_faces: z.number().int(),
  }),
  errors: ['event_not_found', 'invalid_url', 'not_found', 'face_recognition_off', 'face_not_found'],
});

export const faceDataInfo = defineEndpoint({
  path: `${OWNER_PREFIX}/event/face-data/retrieve`,
  auth: 'owner',
  tag: 'faces',
  summary: 'Face recognition of the event: indexing progress and what is stored',
  body: z.object({ event_id: idSchema }),
  result: z.object({
    enable_facial_recognition: z.number().int(),
    photos: z.number().int().describe('Ready photos face indexing covers (videos excluded)'),
    indexed_photos: z.number().int().describe('Of those, photos indexed (with or without faces)'),
    faces: z.number().int(),
    ignored_faces: z.number().int(),
    selfies: z.number().int().describe('Selfies kept (each with its consent), not yet expired'),
    deleted_faces: z
      .number()
      .int()
      .describe('Faces deleted by "delete all face data" since the event began'),
    deleted_selfies: z
      .number()
      .int()
      .describe('Selfies deleted: expired, with the photo retention, or by the owner'),
  }),
  errors: ['event_not_found'],
});

export const deleteFaceData = defineEndpoint({
  path: `${OWNER_PREFIX}/event/face-data/delete`,
  auth: 'owner',
  tag: 'faces',
  summary:
    "Delete every face found in the event's photos and every selfie (with its descriptor), and turn face recognition off",
  body: z.object({ event_id: idSchema }),
  result: z.object({ deleted_faces: z.number().int(), deleted_selfies: z.number().int() }),
  errors: ['event_not_found'],
});

/** What a key sees of a matching photo: the guest view of the photo, similarity and face box. */
export const keyFaceMatchSchema = z.union([
  faceMatchSchema,
  guestPhotoSchema.extend({
    similarity: z.number(),
    face_box: faceBoxSchema,
    in_album: z
      .number()
      .int()
      .optional()
      .describe(
        "Attendee keys: 1 when the photo is in the attendee's album, 0 when it is another photo of the event (previews only; photo/search-by-face/attach adds it)",
      ),
  }),
]);
export type KeyFaceMatch = z.infer<typeof keyFaceMatchSchema>;

export const keySearchByFace = defineEndpoint({
  path: '/photo/search-by-face',
  auth: 'key',
  tag: 'faces',
  summary:
    "Public twin (kiosk = private key, web app = public key, attendee key): photos of the key's event that its audience may see, showing the person in the selfie, best match first",
  body: z.object(
    keySelfieSearchBody(
      'Selfie keys from event/selfie-upload-access/retrieve, or media URLs of photos this key was given',
    ),
  ),
  result: z.object({
    photos: z.array(keyFaceMatchSchema),
    searched_faces: z.number().int(),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'invalid_url',
    'not_found',
    'face_recognition_off',
    'face_not_found',
    'several_faces',
    'face_consent_required',
    'face_consent_outdated',
  ],
});

/** At most this many found photos are added to an album in one call. */
export const MAX_ATTACH_FOUND_PHOTOS = 500;

export const attachFoundPhotos = defineEndpoint({
  path: '/photo/search-by-face/attach',
  auth: 'key',
  tag: 'faces',
  summary:
    "Attendee key: adds photos its selfie search found to the attendee's album. The selfie is searched again; a photo it does not find answers not_found and nothing is added",
  body: z.object({
    ...keySelfieSearchBody('The selfie keys the search was made with'),
    photo_uid_array: z
      .array(z.string({ error: 'not_found' }).trim().min(1, 'not_found').max(100, 'not_found'), {
        error: 'photos_required',
      })
      .min(1, 'photos_required')
      .max(MAX_ATTACH_FOUND_PHOTOS, 'invalid_value'),
  }),
  result: z.object({ attendee_uid: z.string(), attached_count: z.number().int() }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'invalid_url',
    'not_found',
    'photos_required',
    'face_recognition_off',
    'face_not_found',
    'several_faces',
    'face_consent_required',
    'face_consent_outdated',
  ],
});

export const faceConsent = defineEndpoint({
  path: '/event/face-consent/retrieve',
  auth: 'key',
  tag: 'faces',
  summary:
    "Public twin (private, public and attendee keys): the face-recognition text of the key's event and the `face_consent_version` a guest who accepts it sends with a selfie grant and a search (no need to compute `faceConsentVersion`)",
  body: z.object({ ...keyBody }),
  result: z.object({
    face_consent_version: z.string(),
    face_recognition_text: z
      .string()
      .describe(
        "The event's text as the guest must be shown it; empty = the product's default text",
      ),
    face_recognition_enabled: z
      .number()
      .int()
      .describe('1 when the event searches by selfie (face recognition on, selfies allowed)'),
  }),
  errors: ['invalid_key', 'unauthorized_user'],
});

/** Selfies: JPEG or PNG, at most this many bytes. */
export const SELFIE_MAX_BYTES = 10 * 1024 * 1024;

export const selfieUploadAccess = defineEndpoint({
  path: '/event/selfie-upload-access/retrieve',
  auth: 'key',
  tag: 'faces',
  summary:
    "Public twin (private, public and attendee keys): a presigned POST for one selfie (JPEG or PNG, up to 10 MB), a protected object of the key's event; search with its `key`",
  body: z.object({
    ...keyBody,
    content_type: z.enum(['image/jpeg', 'image/png'], { error: 'unsupported_picture_format' }),
    face_consent_version: consentVersionField,
  }),
  result: uploadGrantSchema,
  errors: [
    'invalid_key',
    'unauthorized_user',
    'face_recognition_off',
    'face_consent_required',
    'face_consent_outdated',
  ],
});
