import { photoStreamUrl, usePhotoEventSource } from '../../../../lib/photo-stream.ts';

/**
 * The console album hears of photos as they become ready or visible — the live stream opened with
 * the event owner key (owners see every ready photo) — so robots' photos appear without a reload.
 * `onPhoto` is told once per message; the caller refreshes the head of its list. Answers whether
 * the stream is open.
 */
export const useLiveAlbum = (ownerKey: string | undefined, onPhoto: () => void): boolean =>
  usePhotoEventSource(ownerKey ? photoStreamUrl('event_owner', ownerKey) : null, () => onPhoto());
