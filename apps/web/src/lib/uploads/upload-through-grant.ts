import { isValidFileName, randomFileName } from '@flashbulb/shared';
import { contentTypeOf } from './prepare-upload.ts';
import { postToStorage, type StorageGrant } from './post-to-storage.ts';
import type { UploadStep } from './upload-queue.ts';

/** What an upload grant is asked for, beside the caller's key and event. */
export interface GrantRequest {
  readonly file_name: string;
  readonly content_type: string;
}

/**
 * A prepared photo through an upload grant (albums spec §7.1): under its own name (the server
 * files it under a random folder, so two IMG_0001.JPG never meet; only a name the rules refuse is
 * replaced by a random one), the grant, a direct POST to storage with progress, then the
 * completion of the grant's key. `grant` and `complete` are the calls of the one who uploads.
 */
export const uploadThroughGrant = async <Done>(
  file: File,
  body: Blob,
  step: UploadStep,
  grant: (request: GrantRequest) => Promise<StorageGrant & { readonly key: string }>,
  complete: (key: string) => Promise<Done>,
): Promise<Done> => {
  const fileName = isValidFileName(file.name) ? file.name : randomFileName(file.name);
  const granted = await grant({ file_name: fileName, content_type: contentTypeOf(file.name) });
  step.setStatus('uploading');
  await postToStorage(granted, body, fileName, step.setProgress);
  step.setStatus('completing');
  return complete(granted.key);
};
