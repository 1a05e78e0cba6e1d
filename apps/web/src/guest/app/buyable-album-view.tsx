import { lazy, Suspense, useMemo, type ComponentProps } from 'react';
import { AlbumView } from '../features/album/components/album-view.tsx';
import { useAlbumEvent } from '../shared/api/album-event.ts';
import { usePhotoChoice } from './use-photo-choice.ts';

// Loaded only on a paid event's album (the album's first load stays small).
const AlbumPurchasePanel = lazy(() =>
  import('../features/checkout/components/album-purchase-panel.tsx').then((m) => ({
    default: m.AlbumPurchasePanel,
  })),
);

/**
 * The public album or a private-album link: on a paid event (not unlocked) its guests can buy
 * every photo or the ones they tap (AlbumPurchasePanel) and get an album of their own. Other
 * keys, curation and free events show the album as it is.
 */
export function BuyableAlbumView(props: ComponentProps<typeof AlbumView>) {
  const { albumKey, eventName = null, curation = false, mode } = props;
  const { keyType, keyValue } = albumKey;
  const saleKey = useMemo(
    () =>
      !curation && mode === 'grid' && (keyType === 'public' || keyType === 'private')
        ? { keyType, keyValue }
        : null,
    [curation, mode, keyType, keyValue],
  );
  const event = useAlbumEvent(albumKey, eventName).data;
  const paid = saleKey !== null && !!event && event.is_free !== 1 && event.unlocked !== 1;
  const { choice, selection, choose } = usePhotoChoice();
  if (!paid) return <AlbumView {...props} />;
  return (
    <AlbumView
      {...props}
      selection={selection}
      buyChosen={(photos) => choose(photos.map((photo) => photo.uid))}
    >
      {props.children}
      <Suspense fallback={null}>
        <AlbumPurchasePanel
          albumKey={saleKey}
          choice={choice}
          kiosk={props.kiosk}
          emailEnds={event.opts.emailEnds}
        />
      </Suspense>
    </AlbumView>
  );
}
