import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { guestPhotoSchema, type GuestPhoto as Photo } from '@flashbulb/shared';
import { photoStreamUrl, usePhotoEventSource } from '../../../lib/photo-stream.ts';
import {
  albumQueryKey,
  fetchGuestPhotoPage,
  leadGateFields,
  type AlbumKey,
} from '../api/guest-album-photos.ts';

/** How often the page asks for new photos while the live stream is not open. */
export const POLL_INTERVAL_MS = 5000;

/**
 * New photos as they arrive: the server's event stream (`event: photo`, one photo per message,
 * as the list presents it) when it is open; otherwise the newest page every 5 s. Both feed
 * `onPhotos`, which ignores photos it already has.
 */
export const usePhotoStream = (
  key: AlbumKey,
  enabled: boolean,
  onPhotos: (photos: readonly Photo[]) => void,
): { live: boolean } => {
  const handler = useRef(onPhotos);
  useEffect(() => {
    handler.current = onPhotos;
  }, [onPhotos]);

  const open = usePhotoEventSource(
    enabled ? photoStreamUrl(key.keyType, key.keyValue, leadGateFields(key)) : null,
    (event) => {
      try {
        const parsed = guestPhotoSchema.safeParse(JSON.parse(event.data));
        if (parsed.success) handler.current([parsed.data]);
      } catch {
        // A malformed message is skipped; the next poll or message catches up.
      }
    },
  );

  const latest = useQuery({
    queryKey: [...albumQueryKey(key), 'latest'],
    queryFn: ({ signal }) => fetchGuestPhotoPage(key, 1, null, signal),
    enabled: enabled && !open,
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
  useEffect(() => {
    if (latest.data) handler.current(latest.data.photos);
  }, [latest.data]);

  return { live: open };
};
