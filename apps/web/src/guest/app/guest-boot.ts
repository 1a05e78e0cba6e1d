import type { QueryClient } from '@tanstack/react-query';
import { GUEST_BOOT_ELEMENT_ID } from '@flashbulb/shared/rules/guest-boot';
import * as endpoints from '../../lib/guest-endpoints.ts';
import { albumEventQueryKey } from '../shared/api/album-event.ts';
import { albumQueryKey } from '../shared/api/guest-album-photos.ts';

/**
 * The event and first photo page the server sent with an album link's page (
 * apps/server/src/routes/guest-boot.ts): put in the query cache under the keys the album's queries
 * use, so the page shows its first photos without asking for them again. Read once (the block is
 * removed) and checked against the replies' schemas like any API answer; anything unexpected is
 * ignored and the page asks as usual.
 */
export const seedGuestBoot = (client: QueryClient, doc: Document = document): boolean => {
  const element = doc.getElementById(GUEST_BOOT_ELEMENT_ID);
  if (!element) return false;
  element.remove();
  let boot: unknown;
  try {
    boot = JSON.parse(element.textContent ?? '');
  } catch {
    return false;
  }
  if (typeof boot !== 'object' || boot === null) return false;
  const { key_type, key_value, event_name, event, first_page } = boot as Record<string, unknown>;
  if (
    (key_type !== 'public' && key_type !== 'private') ||
    typeof key_value !== 'string' ||
    (event_name !== null && typeof event_name !== 'string')
  )
    return false;
  const page = endpoints.publicPhotoList.result.safeParse(first_page);
  const events = endpoints.publicEventFullData.result.safeParse(event === null ? [] : [event]);
  if (!page.success || !events.success) return false;
  const key = { keyType: key_type, keyValue: key_value } as const;
  client.setQueryData([...albumQueryKey(key), 'page', 1], page.data);
  client.setQueryData(albumEventQueryKey(key, event_name), events.data[0] ?? null);
  return true;
};
