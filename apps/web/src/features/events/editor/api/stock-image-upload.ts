import {
  STOCK_IMAGE_UPLOAD_LIMITS,
  stockImageList,
  stockImageUploadAccess,
  thumbnailForStockImage,
  type FlashbulbEvent,
  type StockImage,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';
import { randomString } from '../utils/random-codes.ts';
import { postFileToStorage } from '../../../../lib/uploads/post-file-to-storage.ts';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

const isLimitedExtension = (ext: string): ext is keyof typeof STOCK_IMAGE_UPLOAD_LIMITS =>
  Object.prototype.hasOwnProperty.call(STOCK_IMAGE_UPLOAD_LIMITS, ext);

export interface UploadedStockFile {
  readonly url: string;
  /** Albums spec §3: sizes are shown in KB. */
  readonly sizeKb: number;
}

/**
 * Upload a stock image or its thumbnail (albums spec §7.1): check type and size, ask for a grant
 * with the event's owner key, then POST the file straight to storage under a random base-36 name.
 */
export const uploadStockFile = async (
  event: Pick<FlashbulbEvent, 'name' | 'owner_api_key'>,
  file: File,
  isThumbnail: boolean,
): Promise<UploadedStockFile> => {
  const ext = (file.name.split('.').pop() ?? '').toLowerCase();
  if (!isLimitedExtension(ext)) throw new ApiError('unsupported_picture_format');
  if (file.size > STOCK_IMAGE_UPLOAD_LIMITS[ext].maxBytes)
    throw new ApiError('unsupported_media_size');
  const grant = await callApi(stockImageUploadAccess, {
    key_type: 'event_owner',
    key_value: event.owner_api_key,
    event_name: event.name,
    file_name: `${randomString(BASE36, 12)}.${ext}`,
    is_thumbnail: isThumbnail,
  });
  await postFileToStorage(grant, file, file.name);
  return { url: grant.public_url, sizeKb: Math.max(1, Math.round(file.size / 1024)) };
};

/**
 * The server makes a stock image's thumbnail (a 400 px JPEG beside it) from the image already
 * uploaded; answers its URL and size in KB.
 */
export const makeStockThumbnail = async (
  event: Pick<FlashbulbEvent, 'name' | 'owner_api_key'>,
  imageUrl: string,
): Promise<UploadedStockFile> => {
  const made = await callApi(thumbnailForStockImage, {
    key_type: 'event_owner',
    key_value: event.owner_api_key,
    event_name: event.name,
    image_url: imageUrl,
  });
  return { url: made.imgUrl, sizeKb: made.imgSize };
};

/** Another event's stock images, to copy into this one. */
export const otherEventStockImages = async (eventId: number): Promise<StockImage[]> =>
  (await callApi(stockImageList, { event_id: eventId })).stock_images;
