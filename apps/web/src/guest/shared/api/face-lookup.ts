import * as endpoints from '../../../lib/guest-endpoints.ts';
import { faceConsentVersion, type GuestPhoto, type KeyFaceMatch } from '@flashbulb/shared';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { postFileToStorage } from '../../../lib/uploads/post-file-to-storage.ts';
import type { AlbumKey } from './guest-album-photos.ts';

/** The keys a guest looks up their photos with: kiosk (private), web app (public), attendee. */
export type FaceLookupKey = AlbumKey & { keyType: 'private' | 'public' | 'attendee' };

/** The longer side a selfie is sent at: the face engine works at ≤ 1280 px anyway. */
const SELFIE_MAX_SIDE = 1280;

/** The version of the text the guest is shown (empty text = the product's default wording). */
export const consentVersionOf = (text: string | undefined): string =>
  faceConsentVersion(text ?? '');

/**
 * A picture (a camera frame or a chosen file, whatever the browser decodes — HEIC on iPhones
 * too) as a JPEG of at most 1280 px: orientation applied by the browser, location data dropped.
 */
export const toSelfieJpeg = async (
  source: CanvasImageSource & { width?: number },
  size?: {
    width: number;
    height: number;
  },
): Promise<Blob> => {
  const width = size?.width ?? Number(source.width);
  const height = size?.height ?? Number((source as { height?: number }).height);
  if (!width || !height) throw new ApiError('unsupported_picture_format');
  const scale = Math.min(1, SELFIE_MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new ApiError('unsupported_picture_format');
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, 'image/jpeg', 0.9),
  );
  if (!blob) throw new ApiError('unsupported_picture_format');
  return blob;
};

/** A chosen file decoded and turned into a selfie JPEG. */
export const fileToSelfieJpeg = async (file: File): Promise<Blob> => {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new ApiError('unsupported_picture_format');
  }
  try {
    return await toSelfieJpeg(bitmap, { width: bitmap.width, height: bitmap.height });
  } finally {
    bitmap.close();
  }
};

/** A photo the search found; `in_album` 0: another photo of the event (attendee keys only). */
export type FoundPhoto = GuestPhoto & { in_album?: number };

/** What a search found, and the selfie it was made with (to add the photos to an album). */
export interface FaceLookupResult {
  photos: FoundPhoto[];
  selfieKey: string;
}

/**
 * Uploads the selfie through its grant (the consent goes with the grant request: nothing is
 * stored without it) and searches the event with it; answers the photos, best match first.
 */
export const lookUpByFace = async (
  key: FaceLookupKey,
  consentVersion: string,
  selfie: Blob,
  /** Called once the selfie is stored, when the search itself starts. */
  onUploaded?: () => void,
): Promise<FaceLookupResult> => {
  const base = { key_type: key.keyType, key_value: key.keyValue } as const;
  const grant = await callApi(endpoints.selfieUploadAccess, {
    ...base,
    content_type: 'image/jpeg',
    face_consent_version: consentVersion,
  });
  await postFileToStorage(grant, selfie, 'selfie.jpg');
  onUploaded?.();
  const result = await callApi(endpoints.keySearchByFace, {
    ...base,
    photo_url_list: [grant.key],
    face_consent_version: consentVersion,
  });
  return {
    photos: result.photos.map((photo: KeyFaceMatch) => photo as FoundPhoto),
    selfieKey: grant.key,
  };
};

/**
 * An attendee adds found photos to their album: the server searches the selfie again and adds
 * only the photos it finds. Answers how many were new to the album.
 */
export const addFoundToAlbum = async (
  key: FaceLookupKey,
  consentVersion: string,
  selfieKey: string,
  photoUids: string[],
): Promise<number> => {
  const result = await callApi(endpoints.attachFoundPhotos, {
    key_type: key.keyType,
    key_value: key.keyValue,
    photo_url_list: [selfieKey],
    face_consent_version: consentVersion,
    photo_uid_array: photoUids,
  });
  return result.attached_count;
};
