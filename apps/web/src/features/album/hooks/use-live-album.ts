import { useEffect, useRef, useState } from 'react';
import { API_BASE, PHOTO_STREAM_EVENT, PHOTO_STREAM_PATH } from '@flashbulb/shared';

/**
 * The console album hears of photos as they become ready or visible — the live stream opened with
 * the event owner key (owners see every ready photo) — so robots' photos appear without a reload.
 * `onPhoto` is told once per message; the caller refreshes the head of its list. Answers whether
 * the stream is open.
 */
export const useLiveAlbum = (ownerKey: string | undefined, onPhoto: () => void): boolean => {
  const [open, setOpen] = useState(false);
  const handler = useRef(onPhoto);
  useEffect(() => {
    handler.current = onPhoto;
  }, [onPhoto]);

  useEffect(() => {
    if (!ownerKey || typeof EventSource === 'undefined') return undefined;
    const query = new URLSearchParams({ key_type: 'event_owner', key_value: ownerKey });
    const source = new EventSource(`${API_BASE}${PHOTO_STREAM_PATH}?${query.toString()}`);
    source.addEventListener('open', () => setOpen(true));
    // EventSource reconnects by itself; the badge says whether it is connected now.
    source.addEventListener('error', () => setOpen(source.readyState === EventSource.OPEN));
    source.addEventListener(PHOTO_STREAM_EVENT, () => handler.current());
    return () => {
      source.close();
      setOpen(false);
    };
  }, [ownerKey]);

  return open;
};
