import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';
import { stockImageSchema } from './event-settings.ts';
import { keyBody } from './events.ts';
import { uploadGrantSchema } from './share-bucket.ts';

/** An event's stock images (featured images of its album and kiosk): the list, uploads and thumbnails. */

export const stockImageList = defineEndpoint({
  path: `${OWNER_PREFIX}/stock-image/list/retrieve`,
  auth: 'owner',
  tag: 'stock images',
  summary: 'The event’s stock images',
  body: z.object({ event_id: idSchema }),
  result: z.object({ stock_images_enable: z.boolean(), stock_images: z.array(stockImageSchema) }),
  errors: ['event_not_found'],
});

/** Stock images are kiosk media: the kiosk limits apply (albums spec §5, owner-console §9). */
export const STOCK_IMAGE_UPLOAD_LIMITS = {
  jpg: { contentType: 'image/jpeg', maxBytes: 1.5 * 1024 * 1024 },
  jpeg: { contentType: 'image/jpeg', maxBytes: 1.5 * 1024 * 1024 },
  png: { contentType: 'image/png', maxBytes: 1.5 * 1024 * 1024 },
  mp4: { contentType: 'video/mp4', maxBytes: 4 * 1024 * 1024 },
} as const;

/**
 * The editor's media calls behind the event-owner key (stock images, faces to ignore): the key
 * and the event it names; a name the key does not open is `invalid_key`.
 */
export const eventOwnerMediaBody = {
  ...keyBody,
  event_name: z.string().trim().min(1, 'invalid_key').max(20, 'invalid_key'),
};

/** One file's name in the event's media area (its path rules are the service's). */
export const mediaFileNameField = z
  .string({ error: 'file_name_invalid' })
  .trim()
  .min(1, 'file_name_invalid')
  .max(255, 'file_name_invalid');

/** What an upload grant of the event's media area may answer. */
export const MEDIA_UPLOAD_ACCESS_ERRORS = [
  'invalid_key',
  'unauthorized_user',
  'forbidden',
  'file_name_invalid',
  'unsupported_picture_format',
] as const;

export const stockImageUploadAccess = defineEndpoint({
  path: '/event/stock-image-upload-access/retrieve',
  auth: 'key',
  tag: 'stock images',
  summary:
    'Public twin (event_owner key only): a presigned POST for a stock image or its thumbnail (jpg, jpeg, png up to 1.5 MB; mp4 up to 4 MB)',
  body: z.object({
    ...eventOwnerMediaBody,
    directory: z
      .string({ error: 'file_name_invalid' })
      .trim()
      .max(200, 'file_name_invalid')
      .default('')
      .describe('Folder below the event’s stock-image area; empty for none'),
    file_name: mediaFileNameField,
    is_thumbnail: z.boolean({ error: 'invalid_value' }).default(false),
  }),
  result: uploadGrantSchema,
  errors: MEDIA_UPLOAD_ACCESS_ERRORS,
});

export const thumbnailForStockImage = defineEndpoint({
  path: '/event/thumbnail-for-stock-image/create',
  auth: 'key',
  tag: 'stock images',
  summary:
    'Public twin (event_owner key): make a thumbnail (400 px JPEG) of an uploaded stock image; answers its URL and size in KB',
  body: z.object({
    ...eventOwnerMediaBody,
    directory: z.string().trim().max(200, 'file_name_invalid').default(''),
    image_url: z
      .string({ error: 'not_found' })
      .trim()
      .min(1, 'not_found')
      .max(2048, 'not_found')
      .describe('The stock image: its storage key or public URL'),
  }),
  result: z.object({ imgUrl: z.string(), imgSize: z.number().describe('KB') }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'forbidden',
    'not_found',
    'unsupported_picture_format',
  ],
});
