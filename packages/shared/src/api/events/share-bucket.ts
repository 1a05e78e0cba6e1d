import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';

/** The share bucket (owner-console §7): an organisation's share area for web-app images, logos, watermarks and videos. */

/** Files an operator may place in the share area (web-app images, logos, watermarks, videos). */
export const SHARE_UPLOAD_EXTENSIONS = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp4: 'video/mp4',
} as const;
export const SHARE_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

const relativeFilePathSchema = z
  .string({ error: 'file_name_invalid' })
  .trim()
  .min(1, 'file_name_invalid')
  .max(500, 'file_name_invalid')
  .describe('Path inside the organisation’s share area, e.g. webapp-etc/ABCD/logo.png');

export const uploadGrantSchema = z.object({
  url: z.string().describe('POST the form here'),
  fields: z.record(z.string(), z.string()).describe('Form fields to send before `file`'),
  key: z.string().describe('The storage key the file will have'),
  public_url: z.string().describe('Where the file is read once uploaded'),
});

export const shareBucketUploadAccess = defineEndpoint({
  path: '/share-bucket/create-upload-access',
  auth: 'owner',
  tag: 'share bucket',
  summary:
    'A presigned POST for one file in the organisation’s share area (jpg, jpeg, png, gif, mp4; at most 10 MB)',
  body: z.object({
    relativeFilePath: relativeFilePathSchema,
    organisation_id: idSchema.optional().describe('Super users: whose share area'),
  }),
  result: uploadGrantSchema,
  errors: [
    'forbidden',
    'organisation_not_found',
    'file_name_invalid',
    'unsupported_picture_format',
  ],
});

export const shareBucketInvalidateCache = defineEndpoint({
  path: '/share-bucket/invalidate-cache',
  auth: 'owner',
  tag: 'share bucket',
  summary: 'Ask for fresh copies of share files (default: all); answers at once',
  body: z.object({
    paths: z.array(relativeFilePathSchema).max(1000, 'invalid_value').optional(),
  }),
  result: z.object({}),
  errors: ['file_name_invalid'],
});
