import { lazy, Suspense, useMemo, useState, type ComponentProps } from 'react';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { AlbumView } from '../features/album/components/album-view.tsx';
import { faceLookupOffered } from '../features/faces/hooks/use-face-lookup-offered.ts';
import { useAlbumEvent } from '../shared/api/album-event.ts';
import type { PrintRequest } from '../features/checkout/components/album-purchase-panel.tsx';
import { usePhotoChoice } from './use-photo-choice.ts';

// Loaded only when the event offers "Find me" (the album's first load stays small).
const FaceLookup = lazy(() =>
  import('../features/faces/components/face-lookup.tsx').then((m) => ({
    default: m.FaceLookup,
  })),
);

// Loaded only on a paid event's album (the album's first load stays small).
const AlbumPurchasePanel = lazy(() =>
  import('../features/checkout/components/album-purchase-panel.tsx').then((m) => ({
    default: m.AlbumPurchasePanel,
  })),
);

/**
 * The public album or a private-album link: on a paid event (not unlocked) its guests can buy
 * every photo or the ones they tap (AlbumPurchasePanel) and get an album of their own. On a phone
 * or computer (not a kiosk), "Find me" searches the album by selfie when the event has face
 * recognition on; on a paid event its results can be chosen to buy. Other keys, curation and free
 * events show the album as it is.
 */
export function BuyableAlbumView(props: ComponentProps<typeof AlbumView>) {
  const { albumKey, eventName = null, curation = false, mode, kiosk = false } = props;
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
  // The purchase panel (loaded on first use) names a button selling prints when the album's
  // pricing has one (the server offers one only where the event prints): "Print my favourites"
  // then buys them as prints in one step, printed once the provider confirms the payment.
  const [printsButton, setPrintsButton] = useState<number | null>(null);
  const [printRequest, setPrintRequest] = useState<PrintRequest | null>(null);
  const findMe = saleKey !== null && !kiosk && faceLookupOffered(event) && (
    <Suspense fallback={null}>
      <FaceLookup albumKey={saleKey} onChoose={paid ? choice.choose : undefined} />
    </Suspense>
  );
  if (!paid)
    return findMe ? (
      <AlbumView {...props}>
        {props.children}
        {findMe}
      </AlbumView>
    ) : (
      <AlbumView {...props} />
    );
  return (
    <AlbumView
      {...props}
      selection={selection}
      buyChosen={(photos) => choose(photos.map((photo) => photo.uid))}
      {...(printsButton !== null
        ? {
            printChosen: (photos: readonly Photo[]) => {
              const uids = photos.map((photo) => photo.uid);
              choose(uids);
              setPrintRequest({ buttonIndex: printsButton, uids, id: Date.now() });
            },
          }
        : {})}
    >
      {props.children}
      <Suspense fallback={null}>
        <AlbumPurchasePanel
          albumKey={saleKey}
          choice={choice}
          kiosk={props.kiosk}
          emailEnds={event.opts.emailEnds}
          printRequest={printRequest}
          onPrintsButton={setPrintsButton}
        />
      </Suspense>
      {findMe}
    </AlbumView>
  );
}
