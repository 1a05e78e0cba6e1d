import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatAttendeeId,
  normaliseAttendeeId,
  splitAttendeeKey,
  type GuestPhoto as Photo,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../lib/api-client.ts';
import { useErrorText } from '../../lib/error-text.ts';
import type { AlbumKey } from '../shared/api/guest-album-photos.ts';
import { attachPhotosToAttendee } from '../shared/api/attendee-album.ts';
import { AlbumView } from '../features/album/components/album-view.tsx';
import { useKiosk } from '../shared/kiosk/kiosk-context.tsx';
import type { TileAction } from '../shared/components/guest-photo-grid.tsx';

/**
 * All-photos kiosk (evSB1, albums spec §2.1, §2.3): every photo of the event by its private key.
 * Opened after a card scan (`attendeeUid`), each tile can be added to that attendee's album.
 */
export function KioskAllPhotosPage({
  privateKey,
  attendeeUid,
}: {
  privateKey: string;
  attendeeUid: string | null;
}) {
  const vipToken = useKiosk()?.vipToken ?? null;
  const albumKey = useMemo(
    (): AlbumKey => ({
      keyType: 'private',
      keyValue: privateKey,
      ...(vipToken ? { vipToken } : {}),
    }),
    [privateKey, vipToken],
  );
  // A shared screen downloads nothing: photos reach visitors through their albums.
  if (!attendeeUid)
    return <AlbumView albumKey={albumKey} mode="grid" live kiosk canDownload={false} />;
  return <AddToAlbum albumKey={albumKey} attendeeUid={attendeeUid} />;
}

function AddToAlbum({ albumKey, attendeeUid }: { albumKey: AlbumKey; attendeeUid: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const outbox = useKiosk()?.outbox ?? null;
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  // A second tap while the first add is on its way must not send the photo twice.
  const pending = useRef(new Set<string>());

  const add = useCallback(
    (photo: Photo) => {
      if (pending.current.has(photo.uid)) return;
      pending.current.add(photo.uid);
      setFailure(null);
      const attach = () => attachPhotosToAttendee(albumKey.keyValue, attendeeUid, [photo.uid]);
      // In a kiosk session the add waits in the outbox while the kiosk is offline.
      (outbox ? outbox.enqueue('add-to-album', attach) : attach())
        .then(
          () => setAdded((current) => new Set(current).add(photo.uid)),
          (error: unknown) =>
            setFailure(`${t('albums.kioskAdd.failed')} ${errorText(errorKeyOf(error))}`),
        )
        .finally(() => pending.current.delete(photo.uid));
    },
    [albumKey.keyValue, attendeeUid, t, errorText, outbox],
  );

  const actions = useMemo(
    (): TileAction[] => [
      {
        label: (photo) =>
          added.has(photo.uid) ? t('albums.kioskAdd.added') : t('albums.kioskAdd.add'),
        pressed: (photo) => added.has(photo.uid),
        run: add,
      },
    ],
    [added, add, t],
  );

  // A booth-chosen id's album key carries its private id after `~`: that opens the album and is
  // the card holder's secret, so the screen shows the printed id alone.
  const printedId = formatAttendeeId(normaliseAttendeeId(splitAttendeeKey(attendeeUid).id));
  return (
    <AlbumView albumKey={albumKey} mode="grid" live kiosk canDownload={false} tileActions={actions}>
      <p className="albums-bar" role="status">
        {t('albums.kioskAdd.bar', { count: added.size, id: printedId })}
      </p>
      {failure && (
        <p className="albums-note" role="alert">
          {failure}
        </p>
      )}
    </AlbumView>
  );
}
