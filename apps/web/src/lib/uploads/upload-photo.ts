import type { Photo } from '@flashbulb/shared';
import { photoUploadAccess, photoUploadComplete } from '@flashbulb/shared/api/photos/photos';
import { callApi } from '../api-client.ts';
import { prepareUpload } from './prepare-upload.ts';
import type { UploadStep } from './upload-queue.ts';
import { uploadThroughGrant } from './upload-through-grant.ts';

/** An event owner key (the roamer page); without one the call goes with the console's sign-in. */
export interface OwnerKey {
  readonly key_type: 'event_owner';
  readonly key_value: string;
}

/**
 * One photo into an event's album (albums spec §4, §7.1): resized, then the upload grant, the
 * direct POST to storage and upload-complete (`uploadThroughGrant`). Answers the registered photo.
 */
export const uploadPhoto = async (
  file: File,
  step: UploadStep,
  eventName: string,
  key?: OwnerKey,
): Promise<Photo> => {
  const body = await prepareUpload(file);
  return uploadThroughGrant(
    file,
    body,
    step,
    (request) => callApi(photoUploadAccess, { ...key, event_name: eventName, ...request }),
    (grantKey) => callApi(photoUploadComplete, { ...key, key: grantKey }),
  );
};
