import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { showPrintImageList } from '@flashbulb/shared/rules/kiosk';
import { kioskKeyFields } from '../../../shared/api/kiosk-key.ts';
import { printingFieldsOf, type AlbumEvent } from '../../../shared/api/album-event.ts';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';
import type { TileAction } from '../../../shared/components/guest-photo-grid.tsx';

// The panel (pool choice, thumbnails, the print call and its contract) loads only where the list
// shows: private and owner albums of printing events (the album's first load).
const AlbumPrintPanel = lazy(() =>
  import('./album-print-panel.tsx').then((m) => ({ default: m.AlbumPrintPanel })),
);

/**
 * The print image list on an album page outside a kiosk (albums §4; the kiosk has its own in
 * kiosk-album-tools.tsx). Only the organiser's kiosk may print by key: the private album (`pvId`)
 * whose link carries the event's display token (`display`); a guest's private-album link and the
 * event-owner key's curation page do not have it. §4's rule decides whether it is shown:
 * hidden when not an owner album and `printFromAllAlbums` is 1 (the query parameter, else the
 * event's setting), or when not an owner album and the event has more than one printer pool.
 * The owner's page with several pools picks one. "Print" on a tile adds the photo; the list is
 * sent with `/photo/print-with-queue` once per request id.
 */
export function useAlbumPrintList(input: {
  albumKey: AlbumKey;
  event: AlbumEvent | null | undefined;
  kiosk: boolean;
  curation: boolean;
}): {
  tileActions: TileAction[];
  panel: ReactNode;
  /** Where the list shows: puts these photos in it at once (at most the event's limit). */
  printPhotos: ((photos: readonly Photo[]) => void) | undefined;
} {
  const { albumKey, event, kiosk, curation } = input;
  const { t } = useTranslation();
  const [list, setList] = useState<readonly Photo[]>([]);

  const printing = printingFieldsOf(event);
  const pools =
    printing?.is_printer_pool_enabled === 1
      ? [...new Set(printing.printer_pool_name_list ?? [])]
      : [];
  const printFromAllAlbums = Number(
    new URLSearchParams(window.location.search).get('printFromAllAlbums') ??
      printing?.print_from_all_albums ??
      0,
  );
  // Printing by key is the organiser's kiosk: the private key with the display token its link
  // carries (a guest's private-album link alone may not print).
  const keyMayPrint =
    albumKey.keyType === 'private' && 'display' in kioskKeyFields(albumKey.keyValue);
  const shown =
    !kiosk &&
    keyMayPrint &&
    printing?.is_photo_printer_active === 1 &&
    showPrintImageList({
      kioskMode: false,
      ownerAlbum: curation,
      printFromAllAlbums,
      printerPoolCount: pools.length,
    });
  const max = printing?.max_print_photos_count || 20;

  const tileActions = useMemo(
    (): TileAction[] =>
      shown
        ? [
            {
              label: (photo) =>
                list.some((p) => p.uid === photo.uid)
                  ? t('albums.kiosk.print.inList')
                  : t('albums.kiosk.print.add'),
              pressed: (photo) => list.some((p) => p.uid === photo.uid),
              run: (photo) => {
                setList((current) =>
                  current.length >= max || current.some((p) => p.uid === photo.uid)
                    ? current
                    : [...current, photo],
                );
              },
            },
          ]
        : [],
    [shown, list, max, t],
  );

  const printPhotos = useMemo(
    () => (shown ? (photos: readonly Photo[]) => setList(photos.slice(0, max)) : undefined),
    [shown, max],
  );

  const panel = shown ? (
    <Suspense fallback={null}>
      <AlbumPrintPanel albumKey={albumKey} list={list} setList={setList} max={max} pools={pools} />
    </Suspense>
  ) : null;
  return { tileActions, panel, printPhotos };
}
