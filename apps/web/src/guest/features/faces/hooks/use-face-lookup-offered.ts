import { useAlbumEvent, type AlbumEvent } from '../../../shared/api/album-event.ts';
import type { FaceLookupKey } from '../../../shared/api/face-lookup.ts';

/** Whether the event offers looking up photos by face to guests (on, and selfies not disabled). */
export const faceLookupOffered = (event: AlbumEvent | null | undefined): boolean =>
  !!event && event.enable_facial_recognition === 1 && event.opts.disableSelfies !== 1;

/** Whether the key's event offers the face lookup (the kiosk shows its button only then). */
export const useFaceLookupOffered = (key: FaceLookupKey | null): boolean => {
  const event = useAlbumEvent(
    key ?? { keyType: 'public', keyValue: '' },
    null,
    key !== null && key.keyValue !== '',
  );
  return key !== null && faceLookupOffered(event.data);
};
