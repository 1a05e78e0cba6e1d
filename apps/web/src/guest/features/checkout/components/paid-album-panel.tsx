import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  cancelQrPayment,
  checkQrPayment,
  startQrPayment,
  usePayPalSettings,
  usePricingButtons,
} from '../../../shared/api/album-payments.ts';
import { currentCheckoutPlace, type CheckoutPlace } from '../utils/checkout-place.ts';
import { goToCheckout, openingCheckout, type OpeningCheckout } from '../utils/started-payment.ts';
import { useChoicePricing, type PhotoChoice } from '../hooks/use-choice-pricing.ts';
import { CheckoutFlow } from './checkout-flow.tsx';
import { PhotoChoiceScope, PricingNotes } from './checkout-choice.tsx';
import { attendeePayPalSale, PayPalCardStep } from './paypal-card-checkout.tsx';
import { PricedButtons } from './priced-buttons.tsx';

type State =
  | OpeningCheckout
  | { kind: 'starting' }
  /** PayPal's card form for a button (when the event's album offers it). */
  | { kind: 'card'; index: number; amount: number | null };

export type { PhotoChoice } from '../hooks/use-choice-pricing.ts';

/**
 * A paid album's checkout: the event's pricing buttons with their prices (unless
 * the event hides them), for the whole album or for the photos the guest chose (the server prices
 * the count with the button's formula); a button starts a payment: a phone goes to the checkout
 * page and comes back here, a kiosk or a large screen shows its QR code (CheckoutFlow). The page
 * polls its status, and once a provider confirmed it the album reloads its attendee and photos —
 * originals appear without a reload of the page. Nothing unlocks on this page's word: only the
 * server's `paid`.
 */
export function PaidAlbumPanel({
  attendeeUid,
  choice = null,
  cardCheckout = false,
  kiosk = false,
  upsell = false,
}: {
  attendeeUid: string;
  choice?: PhotoChoice | null;
  /** The album page (not a kiosk): PayPal's card checkout when the event's album offers it. */
  cardCheckout?: boolean;
  /** A kiosk: the QR code for the guest's phone, always. */
  kiosk?: boolean;
  /**
   * After a purchase (the album now open): the event's upsell — the operator's message and the
   * buttons that sell prints — when the server offers one (`upsell_message`); else nothing.
   */
  upsell?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const { choosing, chosenCount, buttons } = useChoicePricing(attendeeUid, choice);
  // The whole album's count for its scope button (cached: the same query as before choosing).
  const album = usePricingButtons(attendeeUid, choice !== null);
  const storageKey = `attendee:${attendeeUid}`;
  // Back from the provider's page: the payment this page started goes on.
  const [state, setState] = useState<State>(() => openingCheckout(storageKey, kiosk));
  const paypal = usePayPalSettings(attendeeUid, cardCheckout);
  const cardScript =
    cardCheckout && paypal.data?.enabled === 1 && paypal.data.script_url
      ? paypal.data.script_url
      : null;

  const check = useCallback(
    (paymentId: string) => checkQrPayment(attendeeUid, paymentId),
    [attendeeUid],
  );
  const cancel = useCallback(
    (paymentId: string) => cancelQrPayment(attendeeUid, paymentId),
    [attendeeUid],
  );
  const reloadAlbum = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] }),
    [attendeeUid, queryClient],
  );

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  // Prices in the organisation's currency, formatted by Intl (¥1,250, €12.50).
  const currency = list.currency;
  // Offered after a first purchase; null: not offered (or an older server without it).
  const upsellMessage = list.upsell_message ?? null;
  if (upsell && upsellMessage === null) return null;
  const offered = upsell ? list.buttons.filter((button) => button.prints) : list.buttons;
  const title = upsell ? t('albums.paid.upsellTitle') : t('albums.paid.title');
  // The ways to pay the operator offers here (the server refuses the others).
  const qrOffered = list.methods?.includes('qr') ?? true;
  if (!qrOffered && !cardScript) return null;

  const start = (index: number, place: CheckoutPlace = currentCheckoutPlace(kiosk)) => {
    setState({ kind: 'starting' });
    startQrPayment(attendeeUid, index, crypto.randomUUID(), choosing ? choice!.chosen : null).then(
      (payment) => {
        setState({ kind: 'paying', payment, place });
        goToCheckout(storageKey, payment, place);
      },
      (error: unknown) => setState({ kind: 'choose', errorKey: errorKeyOf(error) }),
    );
  };

  const choose = (index: number, amount: number | null) =>
    cardScript ? setState({ kind: 'card', index, amount }) : start(index);

  return (
    <section className={`albums-paid${upsell ? ' albums-paid--upsell' : ''}`} aria-label={title}>
      {state.kind === 'card' && cardScript ? (
        <PayPalCardStep
          amount={state.amount}
          currency={currency}
          sale={attendeePayPalSale(attendeeUid)}
          scriptUrl={cardScript}
          buttonIndex={state.index}
          photoUids={choosing ? choice!.chosen : null}
          onPaid={() =>
            void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] })
          }
          alternative={
            qrOffered && (
              <button type="button" onClick={() => start(state.index, 'qr')}>
                {t('albums.paid.card.qrInstead')}
              </button>
            )
          }
          onBack={() => setState({ kind: 'choose', errorKey: null })}
        />
      ) : state.kind === 'paying' ? (
        <CheckoutFlow
          payment={state.payment}
          place={state.place}
          kiosk={kiosk}
          storageKey={storageKey}
          check={check}
          cancel={cancel}
          onPaid={reloadAlbum}
          onBack={() => setState({ kind: 'choose', errorKey: null })}
        />
      ) : (
        <>
          <h2>{title}</h2>
          {upsell ? (
            <p className="albums-paid-upsell">{upsellMessage || t('albums.paid.upsellDefault')}</p>
          ) : (
            <>
              <p>{t('albums.paid.intro')}</p>
              {/* Bought some photos already (the album stays locked): the operator's offer. */}
              {upsellMessage && <p className="albums-paid-upsell">{upsellMessage}</p>}
            </>
          )}
          <PricingNotes buttons={offered} digitalMessage={list.digital_message} />
          {choice && (
            <PhotoChoiceScope
              choice={choice}
              wholeLabel={t('albums.paid.wholeAlbum', {
                count: album.data?.photo_count ?? list.photo_count,
              })}
            />
          )}
          {state.kind === 'choose' && state.errorKey && (
            <p role="alert">{errorText(state.errorKey)}</p>
          )}
          <PricedButtons
            buttons={offered}
            currency={currency}
            noChosenPhotos={choosing && chosenCount === 0}
            // Which ways to pay the album offers is known first.
            disabled={state.kind === 'starting' || paypal.isLoading}
            onChoose={choose}
          />
        </>
      )}
    </section>
  );
}
