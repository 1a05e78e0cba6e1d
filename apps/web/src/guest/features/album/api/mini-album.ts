import * as endpoints from '../../../../lib/guest-endpoints.ts';
import { type BodyOf, type ResultOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';

export type MiniAlbumSent = ResultOf<typeof endpoints.sendMiniAlbumLink>;
export type MiniAlbumRecipient = Omit<
  BodyOf<typeof endpoints.sendMiniAlbumLink>,
  'key_type' | 'key_value' | 'event_id' | 'photo_uid_array'
>;

/**
 * Sends chosen photos as a mini-album link (albums §7.2) with the page's own key: by e-mail
 * and, where the event has SMS, by text message. An attendee's album names its sender.
 */
export const sendMiniAlbum = (
  key: AlbumKey,
  photoUids: readonly string[],
  recipient: MiniAlbumRecipient,
): Promise<MiniAlbumSent> =>
  callApi(endpoints.sendMiniAlbumLink, {
    key_type: key.keyType,
    key_value: key.keyValue,
    photo_uid_array: [...photoUids],
    ...recipient,
    ...(key.keyType === 'attendee' ? { sender_attendee_uid: key.keyValue } : {}),
  });
