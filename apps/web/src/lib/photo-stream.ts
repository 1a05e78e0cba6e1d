import { useEffect, useRef, useState } from 'react';
import { PHOTO_STREAM_EVENT, photoStreamUrlAt } from '@flashbulb/shared';

/** Which key the live photo stream is opened with (albums spec §2.1, §6). */
export type PhotoStreamKeyType = 'public' | 'private' | 'event_owner' | 'attendee';

/**
 * The live photo stream's URL on this origin (server-sent events: a GET the contract client
 * cannot express, named once in packages/shared).
 */
export const photoStreamUrl = (
  keyType: PhotoStreamKeyType,
  keyValue: string,
  gate: { lead_token?: string; display?: string } = {},
): string => photoStreamUrlAt('', { key_type: keyType, key_value: keyValue, ...gate });

/**
 * Opens the live photo stream at `url` (none when `url` is null or the browser has no
 * EventSource) and tells `onPhoto` each `event: photo` message. EventSource reconnects by itself;
 * the answer says whether the stream is connected now.
 */
export const usePhotoEventSource = (
  url: string | null,
  onPhoto: (event: MessageEvent<string>) => void,
): boolean => {
  const [open, setOpen] = useState(false);
  const handler = useRef(onPhoto);
  useEffect(() => {
    handler.current = onPhoto;
  }, [onPhoto]);

  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(url);
    source.addEventListener('open', () => setOpen(true));
    source.addEventListener('error', () => setOpen(source.readyState === EventSource.OPEN));
    source.addEventListener(PHOTO_STREAM_EVENT, (event: MessageEvent<string>) =>
      handler.current(event),
    );
    return () => {
      source.close();
      setOpen(false);
    };
  }, [url]);

  return open;
};
