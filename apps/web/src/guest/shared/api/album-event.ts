import * as endpoints from '../../../lib/guest-endpoints.ts';
import { useQuery } from '@tanstack/react-query';
import { type ResultOf } from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';
import type { AlbumKey } from './guest-album-photos.ts';

export type AlbumEvent = ResultOf<typeof endpoints.publicEventFullData>[number];

/** The printing fields a private or event-owner key reads (PRIVATE_EVENT_FIELDS). */
export interface EventPrintingFields {
  is_photo_printer_active: number;
  print_from_all_albums: number;
  is_printer_pool_enabled: number;
  printer_pool_name_list: string[] | null;
  max_print_photos_count: number | null;
}

/** The event's printing fields, where its key reads them (a public key does not). */
export const printingFieldsOf = (
  event: AlbumEvent | null | undefined,
): EventPrintingFields | null => (event && 'is_photo_printer_active' in event ? event : null);

/** The event query's cache key (also filled from the page's boot data, api/guest-boot.ts). */
export const albumEventQueryKey = (key: AlbumKey, eventName: string | null) =>
  ['albums', key.keyType, key.keyValue, 'event', eventName] as const;

/**
 * The event's settings (empty-album text, slide-show timing and background, watermark), read with
 * the link's key alone; `eName`, when the link has it, is checked against the key's event.
 */
export const useAlbumEvent = (key: AlbumKey, eventName: string | null, enabled = true) =>
  useQuery({
    enabled,
    queryKey: albumEventQueryKey(key, eventName),
    queryFn: async ({ signal }) => {
      const events = await callApi(
        endpoints.publicEventFullData,
        {
          key_type: key.keyType,
          key_value: key.keyValue,
          ...(eventName ? { event_name: eventName } : {}),
        },
        { signal },
      );
      return events[0] ?? null;
    },
    staleTime: Infinity,
    retry: false,
  });
