import { isValidFileName, randomFileName, type Photo } from '@flashbulb/shared';
import { photoUploadAccess, photoUploadComplete } from '@flashbulb/shared/api/photos/photos';
import { callApi } from '../api-client.ts';
import { contentTypeOf, prepareUpload } from './prepare-upload.ts';
import { postToStorage } from './post-to-storage.ts';
import type { UploadStep } from './upload-queue.ts';

/** An event owner key (the roamer page); without one the call goes with the console's sign-in. */
export interface OwnerKey {
  readonly key_type: 'event_owner';
  readonly key_value: string;
}

/**
 * One photo into an event's album (albums spec §4, §7.1): resized, under its own name (the
 * server files it under a random folder, so two IMG_0001.JPG never meet; only a name the
 * rules refuse is replaced by a random one), the upload grant, a direct POST to storage with
 * progress, then upload-complete. Answers the registered photo.
 */
export const uploadPhoto = async (
  file: File,
  step: UploadStep,
  eventName: string,
  key?: OwnerKey,
): Promise<Photo> => {
  const body = await prepareUpload(file);
  const fileName = isValidFileName(file.name) ? file.name : randomFileName(file.name);
  const grant = await callApi(photoUploadAccess, {
    ...key,
    event_name: eventName,
    file_name: fileName,
    content_type: contentTypeOf(file.name),
  });
  step.setStatus('uploading');
  await postToStorage(grant, body, fileName, step.setProgress);
  step.setStatus('completing');
  return callApi(photoUploadComplete, { ...key, key: grant.key });
};
