import { useEffect, useRef, useState } from 'react';
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
 * as the list presents it) when it is open; otherwise, once the stream has not opened for 5 s,
 * the newest page every 5 s. Each time the stream opens, the photos from `since` (the newest one
 * shown) on are asked for once, so nothing that arrived before the stream opened is missed. The
 * page's first photos came with it or with its own first request: nothing here asks for them
 * again on opening. All of it feeds `onPhotos`, which ignores photos it already has.
 */
export const usePhotoStream = (
  key: AlbumKey,
  enabled: boolean,
  onPhotos: (photos: readonly Photo[]) => void,
  since: string | null = null,
): { live: boolean } => {
  const handler = useRef(onPhotos);
  const sinceRef = useRef(since);
  useEffect(() => {
    handler.current = onPhotos;
    sinceRef.current = since;
  }, [onPhotos, since]);

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

  // Polling is the fallback: it starts when the stream has not (re)opened within an interval.
  const [streamLate, setStreamLate] = useState(false);
  useEffect(() => {
    if (!enabled || open) return undefined;
    const timer = setTimeout(() => setStreamLate(true), POLL_INTERVAL_MS);
    return () => {
      clearTimeout(timer);
      setStreamLate(false);
    };
  }, [enabled, open]);

  const latest = useQuery({
    queryKey: [...albumQueryKey(key), 'latest'],
    queryFn: ({ signal }) => fetchGuestPhotoPage(key, 1, null, signal),
    enabled: enabled && !open && streamLate,
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
  useEffect(() => {
    if (latest.data) handler.current(latest.data.photos);
  }, [latest.data]);

  // The catch-up when the stream opens: what arrived between the first page and now.
  const { keyType, keyValue, vipToken } = key;
  useEffect(() => {
    if (!enabled || !open) return undefined;
    const controller = new AbortController();
    fetchGuestPhotoPage(
      { keyType, keyValue, ...(vipToken ? { vipToken } : {}) },
      1,
      null,
      controller.signal,
      undefined,
      sinceRef.current ?? undefined,
    ).then(
      (page) => handler.current(page.photos),
      // A failed catch-up is not shown: the stream goes on, and polling covers a closed one.
      () => undefined,
    );
    return () => controller.abort();
  }, [enabled, open, keyType, keyValue, vipToken]);

  return { live: open };
};
