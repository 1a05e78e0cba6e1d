import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Photo } from '@flashbulb/shared';
import { uploadFailureOf } from '../../../../lib/uploads/upload-failure.ts';
import { uploadPhoto } from '../../../../lib/uploads/upload-photo.ts';
import { UploadQueue } from '../../../../lib/uploads/upload-queue.ts';

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
          const photo = await uploadPhoto(file, step, context.eventName);
          context.onPhoto(photo);
        },
        uploadFailureOf,
      ),
  );
  useEffect(() => queue.configure({ eventName, onPhoto }), [queue, eventName, onPhoto]);
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { ...snapshot, queue };
};
