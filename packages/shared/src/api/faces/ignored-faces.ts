import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { uploadGrantSchema } from '../events/share-bucket.ts';
import {
  eventOwnerMediaBody,
  MEDIA_UPLOAD_ACCESS_ERRORS,
  mediaFileNameField,
} from '../events/stock-images.ts';
import { idSchema } from '../identity/users.ts';

/** Ignored faces: face images (staff, performers) that face search of an event leaves out. */

export const ignoredFaceSchema = z.object({
  id: z.number().int(),
  event_id: z.number().int(),
  full_path: z.string(),
  created_date: z.string(),
});

export const createIgnoredFace = defineEndpoint({
  path: `${OWNER_PREFIX}/index-ignore-faces/create`,
  auth: 'owner',
  tag: 'faces',
  summary: 'Register a face image that face search must ignore (staff, performers)',
  body: z.object({
    event_id: idSchema,
    full_path: z.string().trim().min(1, 'invalid_value').max(2048, 'invalid_value'),
  }),
  result: ignoredFaceSchema,
  errors: ['event_not_found'],
});

export const listIgnoredFaces = defineEndpoint({
  path: `${OWNER_PREFIX}/index-ignore-faces/list/retrieve`,
  auth: 'owner',
  tag: 'faces',
  summary: 'Faces face search ignores for the event',
  body: z.object({ event_id: idSchema }),
  result: z.object({ faces: z.array(ignoredFaceSchema) }),
  errors: ['event_not_found'],
});

export const deleteIgnoredFaces = defineEndpoint({
  path: `${OWNER_PREFIX}/index-ignore-faces/delete`,
  auth: 'owner',
  tag: 'faces',
  summary: 'Stop ignoring the given faces',
  body: z.object({
    event_id: idSchema,
    ids: z.array(idSchema).min(1, 'invalid_value').max(1000, 'invalid_value'),
  }),
  result: z.object({ deleted: z.number().int() }),
  errors: ['event_not_found'],
});

export const ignoredFaceUploadAccess = defineEndpoint({
  path: '/event/index-ignore-faces-upload-access/retrieve',
  auth: 'key',
  tag: 'faces',
  summary:
    'Public twin (event_owner key): a presigned POST for a face image that face search must ignore (jpg, jpeg, png)',
  body: z.object({ ...eventOwnerMediaBody, file_name: mediaFileNameField }),
  result: uploadGrantSchema,
  errors: MEDIA_UPLOAD_ACCESS_ERRORS,
});
