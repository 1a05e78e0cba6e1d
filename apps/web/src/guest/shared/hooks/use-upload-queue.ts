import { useEffect, useState, useSyncExternalStore } from 'react';
import { uploadFailureOf } from '../../../lib/uploads/upload-failure.ts';
import { UploadQueue, type UploadRunner } from '../../../lib/uploads/upload-queue.ts';

/** Files a phone sends at once: two keep a weak connection moving without starving the page. */
const PHONE_PARALLEL_UPLOADS = 2;

/**
 * A phone page's upload queue (guest album, roamer page): made once, outside React so a running
 * upload survives re-renders, told the page's latest context on each render, and read as a
 * snapshot of its items and refused names.
 */
export function useUploadQueue<C>(context: C, runner: UploadRunner<C>) {
  const [queue] = useState(
    () => new UploadQueue<C>(context, runner, uploadFailureOf, PHONE_PARALLEL_UPLOADS),
  );
  useEffect(() => queue.configure(context));
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { queue, ...snapshot };
}
