import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import * as endpoints from '../../../lib/guest-endpoints.ts';
import { callApi } from '../../../lib/api-client.ts';
import type { AlbumKey } from '../api/guest-album-photos.ts';

/** Most favourites one album keeps (the server's limit for attendee albums too). */
const MAX = 500;
const PREFIX = 'flashbulb.favourites.';

/**
 * Where a device keeps an album's favourites: per event (by its name), or for a page that does not
 * know its event, per link (a hash of the key: keys are secrets and never written out as they are).
 */
export const favouritesStorageKey = (key: AlbumKey, eventName: string | null): string => {
  if (eventName) return `${PREFIX}event:${eventName}`;
  let hash = 0x811c9dc5;
  for (const ch of `${key.keyType}:${key.keyValue}`) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${PREFIX}link:${hash.toString(16)}`;
};

const readDevice = (storageKey: string): number[] => {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((id): id is number => Number.isInteger(id) && id > 0).slice(0, MAX)
      : [];
  } catch {
    return [];
  }
};

const writeDevice = (storageKey: string, ids: readonly number[]) => {
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(ids));
  } catch {
    // Private mode or a full storage: the favourites last as long as the page.
  }
};

export interface Favourites {
  readonly ids: readonly number[];
  readonly isFavourite: (photo: Photo) => boolean;
  readonly toggle: (photo: Photo) => void;
}

/** Favourites a page keeps in its memory only (a kiosk session), per album key. */
const memory = new Map<string, number[]>();
const readMemory = (storageKey: string): number[] => memory.get(storageKey) ?? [];
const writeMemory = (storageKey: string, ids: readonly number[]) => {
  memory.set(storageKey, [...ids]);
};

/**
 * The guest's favourites (a heart on a photo): kept on the device for each event, and for an
 * attendee's album with the album on the server too, so they follow the guest to another device
 * (the device's own are sent up when the album opens). Newest first.
 *
 * `device: false` (a kiosk, a screen guests share): nothing is written to the device; the hearts
 * live as long as the kiosk session's page (its end or idle time reloads the kiosk), and with the
 * guest's own album on the server when the kiosk shows one.
 */
export function useFavourites(
  key: AlbumKey,
  eventName: string | null,
  { device = true }: { device?: boolean } = {},
): Favourites {
  const storageKey = device
    ? favouritesStorageKey(key, eventName)
    : `memory:${key.keyType}:${key.keyValue}`;
  const read = device ? readDevice : readMemory;
  const write = device ? writeDevice : writeMemory;
  const [state, setState] = useState(() => ({ storageKey, ids: read(storageKey) }));
  // Another event or link (or the event's name arrived): that one's favourites.
  const ids = state.storageKey === storageKey ? state.ids : read(storageKey);
  if (state.storageKey !== storageKey) setState({ storageKey, ids });

  const album = key.keyType === 'attendee';
  const { keyType, keyValue } = key;
  useEffect(() => {
    if (!album) return undefined;
    let live = true;
    const sync = async () => {
      const local = read(storageKey);
      const server = await callApi(endpoints.attendeeFavourites, {
        key_type: keyType,
        key_value: keyValue,
      });
      const known = new Set(server.photo_ids);
      const missing = local.filter((id) => !known.has(id));
      const merged = missing.length
        ? await callApi(endpoints.setAttendeeFavourite, {
            key_type: keyType,
            key_value: keyValue,
            photo_id_array: missing,
            favourite: 1,
          }).catch(() => server)
        : server;
      if (!live) return;
      write(storageKey, merged.photo_ids);
      setState({ storageKey, ids: merged.photo_ids });
    };
    sync().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [album, storageKey, keyType, keyValue, read, write]);

  const toggle = useCallback(
    (photo: Photo) => {
      const current = read(storageKey);
      const on = !current.includes(photo.id);
      const next = on
        ? [photo.id, ...current].slice(0, MAX)
        : current.filter((id) => id !== photo.id);
      write(storageKey, next);
      setState({ storageKey, ids: next });
      if (!album) return;
      callApi(endpoints.setAttendeeFavourite, {
        key_type: keyType,
        key_value: keyValue,
        photo_id_array: [photo.id],
        favourite: on ? 1 : 0,
      }).catch(() => {
        // Not kept with the album: the device keeps it, and sends it up when the album opens.
      });
    },
    [storageKey, album, keyType, keyValue, read, write],
  );

  return useMemo(() => {
    const set = new Set(ids);
    return { ids, isFavourite: (photo: Photo) => set.has(photo.id), toggle };
  }, [ids, toggle]);
}
