import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  photoUploadAccess,
  photoUploadComplete,
  isValidFileName,
  randomFileName,
  type Photo,
} from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';
import { contentTypeOf, prepareUpload } from '../../../lib/uploads/prepare-upload.ts';
import { postToStorage } from '../../../lib/uploads/post-to-storage.ts';
import { uploadFailureOf } from '../../../lib/uploads/upload-failure.ts';
import { UploadQueue } from '../../../lib/uploads/upload-queue.ts';

interface UploadContext {
  readonly eventName: string;
  readonly onPhoto: (photo: Photo) => void;
}

/**
 * Upload from the console (albums spec §4, §7.1): resize, the file's own name, grant, direct POST
 * to storage with progress, then upload-complete with the owner's Authorization. `onPhoto` hears
 * each photo as it is registered, so the grid can show it at once.
 */
export const useUploads = (eventName: string, onPhoto: (photo: Photo) => void) => {
  const [queue] = useState(
    () =>
      new UploadQueue<UploadContext>(
        { eventName, onPhoto },
        async (file, step, context) => {
          const body = await prepareUpload(file);
          // The photo keeps its own name (issue 16): the server files it under a random folder, so
          // two IMG_0001.JPG never meet; only a name the rules refuse is replaced by a random one.
          const fileName = isValidFileName(file.name) ? file.name : randomFileName(file.name);
          const grant = await callApi(photoUploadAccess, {
            event_name: context.eventName,
            file_name: fileName,
            content_type: contentTypeOf(file.name),
          });
          step.setStatus('uploading');
          await postToStorage(grant, body, fileName, step.setProgress);
          step.setStatus('completing');
          const photo = await callApi(photoUploadComplete, { key: grant.key });
          context.onPhoto(photo);
        },
        uploadFailureOf,
      ),
  );
  useEffect(() => queue.configure({ eventName, onPhoto }), [queue, eventName, onPhoto]);
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { ...snapshot, queue };
};
