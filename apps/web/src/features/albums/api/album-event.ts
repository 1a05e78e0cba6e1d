import { useQuery } from '@tanstack/react-query';
import { endpoints, type ResultOf } from '@flashbulb/shared';
import { callApi, refreshAccessToken } from '../../../lib/api-client.ts';
import { getAccessToken } from '../../../lib/session-store.ts';
import type { AlbumKey } from './album-photos.ts';

export type AlbumEvent = ResultOf<typeof endpoints.publicEventFullData>[number];

/**
 * The event's settings (empty-album text, slide-show timing and background, watermark). The
 * public twin needs the event code as well as the key: album links carry it only when they have
 * `eName`; without it the page uses the defaults.
 */
export const useAlbumEvent = (key: AlbumKey, eventName: string | null) =>
  useQuery({
    queryKey: ['albums', key.keyType, key.keyValue, 'event', eventName],
    queryFn: async ({ signal }) => {
      const events = await callApi(
        endpoints.publicEventFullData,
        { key_type: key.keyType, key_value: key.keyValue, event_name: eventName ?? '' },
        { signal },
      );
      return events[0] ?? null;
    },
    enabled: eventName !== null,
    staleTime: Infinity,
    retry: false,
  });

/**
 * Whether this browser holds a console session (the httpOnly refresh cookie): hiding and showing
 * photos is an owner call, the event owner key alone cannot do it.
 */
export const useOwnerSession = (wanted: boolean) =>
  useQuery({
    queryKey: ['albums', 'owner-session'],
    queryFn: async () => getAccessToken() ?? (await refreshAccessToken()),
    enabled: wanted,
    staleTime: Infinity,
    retry: false,
  });
