import {
  extensionOf,
  MEDIA_CONTENT_TYPES,
  PREVIEW_MAX_SIZE,
  PREVIEW_QUALITY,
} from '@flashbulb/shared';

/**
 * Client-side resize before upload (albums spec §4 "pick, validate, compress", §9: fit 2000×2000,
 * quality 0.9, JPEG conversion never forced).
 *
 * - JPEG larger than 2000×2000: drawn to fit and re-encoded as JPEG at quality 0.9.
 * - PNG larger than 2000×2000: drawn to fit and kept PNG (transparency survives; the spec never
 *   forces JPEG). PNG within the limit, like JPEG within it, goes up untouched: re-encoding a photo
 *   that already fits only loses quality.
 * - GIF (may be animated) and MP4: uploaded as they are.
 * - Never enlarged. If the browser cannot decode or encode (old browser, odd file), the original
 *   goes up and the problem is only logged (albums spec §8: compression errors go to the console);
 *   the server still checks every file.
 */

export const RESIZABLE_TYPES = new Set(['image/jpeg', 'image/png']);

/** The size that fits `width`×`height` inside `max`×`max` keeping the ratio; never larger. */
export const fitWithin = (
  width: number,
  height: number,
  max: number = PREVIEW_MAX_SIZE,
): { width: number; height: number } => {
  const scale = Math.min(1, max / width, max / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
};

export const contentTypeOf = (fileName: string): string =>
  MEDIA_CONTENT_TYPES[extensionOf(fileName)] ?? 'application/octet-stream';

const encode = (canvas: HTMLCanvasElement, type: string): Promise<Blob | null> =>
  new Promise((resolve) => canvas.toBlob(resolve, type, PREVIEW_QUALITY / 100));

/** The bytes to upload for `file`: resized when it is a JPEG or PNG over the limit. */
export const prepareUpload = async (file: File): Promise<Blob> => {
  const type = contentTypeOf(file.name);
  if (!RESIZABLE_TYPES.has(type) || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    try {
      const size = fitWithin(bitmap.width, bitmap.height);
      if (size.width === bitmap.width && size.height === bitmap.height) return file;
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      const context = canvas.getContext('2d');
      if (!context) return file;
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, size.width, size.height);
      return (await encode(canvas, type)) ?? file;
    } finally {
      bitmap.close();
    }
  } catch (error) {
    console.warn('photo resize failed; uploading the original', error);
    return file;
  }
};
