import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  cancelAlbumPurchase,
  captureAlbumPurchasePayPalOrder,
  checkAlbumPurchase,
  createAlbumPurchasePayPalOrder,
  startAlbumPurchase,
  useAlbumPurchasePricing,
  type AlbumSaleKey,
} from '../../../shared/api/album-payments.ts';
import {
  currentCheckoutPlace,
  type CheckoutPlace,
  type StartedPayment,
} from '../utils/checkout-place.ts';
import { goToCheckout, openingCheckout } from '../utils/started-payment.ts';
import { CheckoutFlow, type PaymentCheck } from './checkout-flow.tsx';
import { PhotoChoiceScope, PricingNotes } from './checkout-choice.tsx';
import { PayPalCardStep, type PayPalSale } from './paypal-card-checkout.tsx';
import { PricedButtons } from './priced-buttons.tsx';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import type { PhotoChoice } from './paid-album-panel.tsx';

/** "Print my favourites": buy these photos with this prints button at once (`id`: each tap). */
export interface PrintRequest {
  readonly buttonIndex: number;
  readonly uids: readonly string[];
  readonly id: number;
}

type State =
  | { kind: 'choose'; errorKey: string | null }
  | { kind: 'starting' }
  | { kind: 'card'; index: number; amount: number | null }
  | { kind: 'paying'; payment: StartedPayment; place: CheckoutPlace; paidInForm?: boolean };

/** The personal album an earlier purchase on this device made (its attendee id), per album key. */
const buyerAlbumKey = (key: AlbumSaleKey) => `fb-buyer-album:${key.keyType}:${key.keyValue}`;
const readBuyerAlbum = (key: AlbumSaleKey): string | null => {
  try {
    return localStorage.getItem(buyerAlbumKey(key));
  } catch {
    return null;
  }
};
const keepBuyerAlbum = (key: AlbumSaleKey, uid: string) => {
  try {
    localStorage.setItem(buyerAlbumKey(key), uid);
  } catch {
    // Without storage the next purchase makes another album (the link is shown and mailed).
  }
};

/**
 * Buying from the public album or a private-album link of a paid event: every photo or the photos
 * the guest taps, priced by the server; an optional e-mail for the receipt and the album link. The
 * payment goes on like the attendee album's (CheckoutFlow: the phone pays on the checkout page,
 * a kiosk or large screen shows the QR code); once the server says paid and the photos are in the
 * buyer's own album, its link is shown (and mailed) with "Open my album".
 */
export function AlbumPurchasePanel({
  albumKey,
  choice,
  kiosk = false,
  cardCheckout = !kiosk,
  emailEnds = [],
  printRequest = null,
  onPrintsButton,
}: {
  albumKey: AlbumSaleKey;
  choice: PhotoChoice;
  kiosk?: boolean;
  /** The album page (not a kiosk): PayPal's card form when the event's album offers it. */
  cardCheckout?: boolean;
  /** The event's e-mail endings (`opts.emailEnds`) the e-mail field offers. */
  emailEnds?: readonly string[];
  /** A one-step purchase of prints asked from the favourites bar: started as soon as it comes. */
  printRequest?: PrintRequest | null;
  /** The button selling prints a one-step print may buy (null: none), told when known. */
  onPrintsButton?: (index: number | null) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const emailId = useId();
  const choosing = choice.choosing;
  const chosenCount = choice.chosen.length;
  const whole = useAlbumPurchasePricing(albumKey, true);
  const chosen = useAlbumPurchasePricing(
    albumKey,
    choosing && chosenCount > 0,
    chosenCount || null,
  );
  const storageKey = `album:${albumKey.keyType}:${albumKey.keyValue}`;
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>(() => openingCheckout(storageKey, kiosk));
  const check = useCallback(
    (paymentId: string): Promise<PaymentCheck> => checkAlbumPurchase(albumKey, paymentId),
    [albumKey],
  );
  const cancel = useCallback(
    (paymentId: string) => cancelAlbumPurchase(albumKey, paymentId),
    [albumKey],
  );

  const emailRef = useRef(email);
  useEffect(() => {
    emailRef.current = email;
  });
  const paypalSale = useMemo(
    (): PayPalSale => ({
      id: storageKey,
      createOrder: (buttonIndex, requestId, photoUids) =>
        createAlbumPurchasePayPalOrder(albumKey, {
          buttonIndex,
          requestId,
          photoUids,
          email: emailRef.current,
          buyerAlbumUid: readBuyerAlbum(albumKey),
        }),
      capture: (paymentId) => captureAlbumPurchasePayPalOrder(albumKey, paymentId),
    }),
    [albumKey, storageKey],
  );

  const start = (
    index: number,
    photoUids: readonly string[] | null,
    place: CheckoutPlace = currentCheckoutPlace(kiosk),
  ) => {
    setState({ kind: 'starting' });
    startAlbumPurchase(albumKey, {
      buttonIndex: index,
      requestId: crypto.randomUUID(),
      photoUids,
      email,
      buyerAlbumUid: kiosk ? null : readBuyerAlbum(albumKey),
    }).then(
      (payment) => {
        setState({ kind: 'paying', payment, place });
        goToCheckout(storageKey, payment, place);
      },
      (error: unknown) => setState({ kind: 'choose', errorKey: errorKeyOf(error) }),
    );
  };
  const startRef = useRef(start);
  useEffect(() => {
    startRef.current = start;
  });
  // More photos than one purchase may print: no purchase starts (the server would refuse it); the
  // photos stay chosen and the note below asks the guest to leave some out first.
  const maxPrints = whole.data?.max_print_photos ?? null;
  const overPrintLimit = (count: number) =>
    maxPrints !== null && maxPrints > 0 && count > maxPrints;
  const overPrintLimitRef = useRef(overPrintLimit);
  useEffect(() => {
    overPrintLimitRef.current = overPrintLimit;
  });
  const limitNote = useRef<HTMLParagraphElement>(null);
  const started = useRef<number | null>(null);
  useEffect(() => {
    if (!printRequest || started.current === printRequest.id) return;
    started.current = printRequest.id;
    if (overPrintLimitRef.current(printRequest.uids.length)) {
      window.requestAnimationFrame(() => {
        limitNote.current?.scrollIntoView?.({ block: 'center' });
        limitNote.current?.focus();
      });
      return;
    }
    startRef.current(printRequest.buttonIndex, printRequest.uids);
  }, [printRequest]);

  const printsIndex =
    whole.data && whole.data.is_free === 0 && whole.data.methods.includes('qr')
      ? (whole.data.buttons.find((button) => button.prints && !button.requires_digital)?.index ??
        null)
      : null;
  useEffect(() => {
    onPrintsButton?.(printsIndex);
  }, [onPrintsButton, printsIndex]);

  const list = choosing && chosenCount > 0 ? chosen.data : whole.data;
  if (!whole.data || whole.data.is_free === 1 || whole.data.buttons.length === 0) return null;
  // PayPal's card form where the album offers it and the server has it set up.
  const cardScript = (cardCheckout && whole.data.card_script_url) || null;
  const qrOffered = whole.data.methods.includes('qr');
  if (!qrOffered && !cardScript) return null;
  const currency = whole.data.currency;

  const choose = (index: number, amount: number | null) =>
    cardScript
      ? setState({ kind: 'card', index, amount })
      : start(index, choosing ? choice.chosen : null);

  if (state.kind === 'card' && cardScript)
    return (
      <section className="albums-paid" aria-label={t('albums.purchase.title')}>
        <PayPalCardStep
          amount={state.amount}
          currency={currency}
          sale={paypalSale}
          scriptUrl={cardScript}
          buttonIndex={state.index}
          photoUids={choosing ? choice.chosen : null}
          onPaid={(paymentId) =>
            // Paid at PayPal and captured by the server: the buyer's album is awaited as after
            // any checkout.
            setState({
              kind: 'paying',
              payment: {
                payment_id: paymentId,
                checkout_url: '',
                amount: state.amount ?? 0,
                currency,
              },
              place: 'here',
              paidInForm: true,
            })
          }
          alternative={
            // The provider's checkout instead: a phone goes to its page, a large screen shows
            // the QR code for a phone.
            qrOffered &&
            (currentCheckoutPlace(kiosk) === 'here' && state.amount !== null ? (
              <button
                type="button"
                onClick={() => start(state.index, choosing ? choice.chosen : null)}
              >
                {t('albums.checkout.pay', { amount: formatMoney(state.amount, currency) })}
              </button>
            ) : (
              <button
                type="button"
                onClick={() => start(state.index, choosing ? choice.chosen : null, 'qr')}
              >
                {t('albums.paid.card.qrInstead')}
              </button>
            ))
          }
          onBack={() => setState({ kind: 'choose', errorKey: null })}
        />
      </section>
    );

  if (state.kind === 'paying')
    return (
      <section className="albums-paid" aria-label={t('albums.purchase.title')}>
        <CheckoutFlow
          payment={state.payment}
          place={state.place}
          paidInForm={state.paidInForm === true}
          kiosk={kiosk}
          storageKey={storageKey}
          check={check}
          cancel={cancel}
          waitForAlbum
          onPaid={(result) => {
            // A shared kiosk screen keeps no buyer's album for the next guest.
            if (!kiosk && result.album_uid) keepBuyerAlbum(albumKey, result.album_uid);
          }}
          onBack={() => {
            choice.setChoosing(false);
            setState({ kind: 'choose', errorKey: null });
          }}
          paidView={(albumUrl) =>
            albumUrl && (
              <div className="albums-purchase-album">
                <p>{t('albums.purchase.albumReady')}</p>
                <p className="albums-purchase-link">
                  <a href={albumUrl}>{albumUrl}</a>
                </p>
                <a className="fb-button fb-button--primary" href={albumUrl}>
                  {t('albums.purchase.openAlbum')}
                </a>
                <p className="albums-note">{t('albums.purchase.keepLink')}</p>
              </div>
            )
          }
        />
      </section>
    );

  return (
    <section className="albums-paid" aria-label={t('albums.purchase.title')}>
      <h2>{t('albums.purchase.title')}</h2>
      <p>{t('albums.purchase.intro')}</p>
      <PricingNotes buttons={whole.data.buttons} digitalMessage={whole.data.digital_message} />
      <PhotoChoiceScope
        choice={choice}
        wholeLabel={t('albums.purchase.wholeEvent', { count: whole.data.photo_count })}
      />
      {choosing && overPrintLimit(chosenCount) && whole.data.buttons.some((b) => b.prints) && (
        <p className="albums-note albums-paid-limit" role="status" tabIndex={-1} ref={limitNote}>
          {t('albums.paid.printLimit', { max: maxPrints })}
        </p>
      )}
      <label className="albums-purchase-email" htmlFor={emailId}>
        {t('albums.purchase.email')}
      </label>
      <input
        id={emailId}
        type="email"
        inputMode="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        list={`${emailId}-endings`}
      />
      <EmailSuggestions id={`${emailId}-endings`} value={email} endings={emailEnds} />
      {state.kind === 'choose' && state.errorKey && <p role="alert">{errorText(state.errorKey)}</p>}
      <PricedButtons
        buttons={(list ?? whole.data).buttons}
        currency={currency}
        noChosenPhotos={choosing && chosenCount === 0}
        disabled={state.kind === 'starting'}
        printsHeldBack={choosing && overPrintLimit(chosenCount)}
        primary
        onChoose={choose}
      />
    </section>
  );
}
