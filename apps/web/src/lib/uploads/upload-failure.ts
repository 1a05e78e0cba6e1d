import { INTERNAL_ERROR, isApiError } from '../api-client.ts';
import { StorageUploadError } from './post-to-storage.ts';
import type { UploadFailure } from './upload-queue.ts';

/** What a failed upload shows: the storage's S3 error code, or the API's error key. */
export const uploadFailureOf = (error: unknown): UploadFailure => {
  if (error instanceof StorageUploadError)
    return { kind: 'storage', code: error.code, message: error.message };
  return { kind: 'api', key: isApiError(error) ? error.messageKey : INTERNAL_ERROR };
};
