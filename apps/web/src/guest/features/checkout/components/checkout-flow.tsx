import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, type PaymentStatusName } from '@flashbulb/shared';
import { AlbumLinkQr } from '../../../shared/components/album-link-qr.tsx';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import {
  checkoutUrlWithReturn,
  forgetPayment,
  type CheckoutPlace,
  type StartedPayment,
} from '../utils/checkout-place.ts';

/** How often the page asks whether the payment went through. */

/** What a status poll answers (an album purchase names the buyer's album once it is ready). */
export interface PaymentCheck {
  status: PaymentStatusName;
  album_uid?: string | null;
  album_url?: string | null;
}

type Phase =
  | { kind: 'waiting' }
  | { kind: 'cancelling' }
  | { kind: 'ended'; status: Exclude<PaymentStatusName, 'pending'>; albumUrl: string | null };

/**
 * A started payment until it ends: on a kiosk or a large screen the QR code for the guest's phone,
 * on a phone the provider's page (the guest went there and came back; a button goes there again);
 * both can be cancelled, which closes the payment's link. The page polls the server; only its
 * word ends the payment. Every end — paid, declined, expired, cancelled — says so and offers the
 * way back to the album (`onBack`).
 */
export function CheckoutFlow({
  payment,
  place,
  kiosk = false,
  storageKey,
  check,
  cancel,
  onPaid,
  onBack,
  waitForAlbum = false,
  paidView,
  paidInForm = false,
}: {
  payment: StartedPayment;
  place: CheckoutPlace;
  /** A kiosk shows only the QR code (no "pay on this device"). */
  kiosk?: boolean;
  /** Where the page remembered the payment for the trip to the provider's page. */
  storageKey: string;
  check: (paymentId: string) => Promise<PaymentCheck>;
  cancel: (paymentId: string) => Promise<{ status: PaymentStatusName }>;
  onPaid?: (result: PaymentCheck) => void;
  onBack: () => void;
  /** An album purchase: paid ends only once the server names the buyer's album. */
  waitForAlbum?: boolean;
  /** What the paid state shows besides its message (the personal album's link). */
  paidView?: (albumUrl: string | null) => ReactNode;
  /** Paid in a card form on this page: only the server's hand-over is awaited (nothing to cancel). */
  paidInForm?: boolean;
}) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ kind: 'waiting' });
  const amount = formatMoney(payment.amount, payment.currency ?? 'USD');
  const payUrl = checkoutUrlWithReturn(payment.checkout_url, window.location);
  // Leaving for the provider's page from a QR screen is paying, not abandoning.
  const leavingToPay = useRef(false);
  const onPaidRef = useRef(onPaid);
  const cancelRef = useRef(cancel);
  const phaseRef = useRef(phase.kind);
  useEffect(() => {
    onPaidRef.current = onPaid;
    cancelRef.current = cancel;
    phaseRef.current = phase.kind;
  });

  const paymentId = payment.payment_id;
  const waiting = phase.kind === 'waiting';
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    const timer = setInterval(() => {
      check(paymentId).then(
        (result) => {
          if (stopped || result.status === 'pending') return;
          if (result.status === 'paid' && waitForAlbum && !result.album_url) return;
          stopped = true;
          clearInterval(timer);
          forgetPayment(storageKey);
          setPhase({ kind: 'ended', status: result.status, albumUrl: result.album_url ?? null });
          if (result.status === 'paid') onPaidRef.current?.(result);
        },
        () => undefined, // a missed poll is retried on the next tick
      );
    }, pollTiming.paymentMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [waiting, paymentId, check, storageKey, waitForAlbum]);

  // A QR code left on screen when the guest walks away (the kiosk's session ends, the album is
  // closed) is abandoned: its link is closed so nobody pays it later.
  useEffect(() => {
    if (place !== 'qr') return;
    return () => {
      if (!leavingToPay.current && phaseRef.current === 'waiting')
        void cancelRef.current(paymentId).catch(() => undefined);
    };
  }, [place, paymentId]);
  const cancelNow = () => {
    setPhase({ kind: 'cancelling' });
    cancel(paymentId).then(
      (result) => {
        forgetPayment(storageKey);
        // Paid meanwhile: that wins (the poll then shows it).
        if (result.status === 'paid') setPhase({ kind: 'waiting' });
        else
          setPhase({
            kind: 'ended',
            status: result.status === 'pending' ? 'cancelled' : result.status,
            albumUrl: null,
          });
      },
      () => setPhase({ kind: 'waiting' }),
    );
  };
  const back = () => {
    forgetPayment(storageKey);
    onBack();
  };

  if (phase.kind === 'ended') {
    const paid = phase.status === 'paid';
    return (
      <div className={`albums-checkout-end albums-checkout-end--${phase.status}`}>
        <p role="status" className="albums-checkout-end-title">
          {paid && waitForAlbum
            ? t('albums.checkout.ended.paidAlbum')
            : t(`albums.checkout.ended.${phase.status}`)}
        </p>
        {paid && paidView?.(phase.albumUrl)}
        <button type="button" className={paid ? '' : 'fb-button--primary'} onClick={back}>
          {paid ? t('albums.checkout.backPaid') : t('albums.checkout.back')}
        </button>
      </div>
    );
  }
  const cancelling = phase.kind === 'cancelling';
  if (paidInForm)
    return (
      <div role="status" className="albums-paid-qr">
        <p>{t('albums.paid.card.paid')}</p>
      </div>
    );
  return (
    <div role="status" className={`albums-paid-qr albums-checkout--${place}`}>
      {place === 'qr' ? (
        <>
          <p>{t('albums.paid.scan', { amount })}</p>
          <AlbumLinkQr url={payment.checkout_url} alt={t('albums.paid.qrAlt')} />
          {!kiosk && (
            <p>
              <a
                href={payUrl}
                onClick={() => {
                  leavingToPay.current = true;
                }}
              >
                {t('albums.paid.payHere')}
              </a>
            </p>
          )}
        </>
      ) : (
        <>
          <p>{t('albums.checkout.payOnPage', { amount })}</p>
          <a className="fb-button fb-button--primary albums-checkout-pay" href={payUrl}>
            {t('albums.checkout.pay', { amount })}
          </a>
        </>
      )}
      <button type="button" disabled={cancelling} onClick={cancelNow}>
        {cancelling ? t('albums.checkout.cancelling') : t('albums.checkout.cancel')}
      </button>
    </div>
  );
}
