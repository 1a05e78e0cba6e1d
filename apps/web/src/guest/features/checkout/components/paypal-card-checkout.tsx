import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, type PaymentStatusName } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { capturePayPalOrder, createPayPalOrder } from '../../../shared/api/album-payments.ts';
import { loadScript } from '../utils/load-script.ts';

/** The part of PayPal's JavaScript SDK (`paypal.Buttons`) this page uses, as documented. */
interface PayPalButtons {
  isEligible(): boolean;
  render(container: HTMLElement): Promise<void>;
  close(): Promise<void>;
}
interface PayPalNamespace {
  FUNDING: { CARD: string };
  Buttons(options: {
    fundingSource: string;
    createOrder: () => Promise<string>;
    onApprove: (data: { orderID: string }) => Promise<void>;
    onCancel?: () => void;
    onError?: (error: unknown) => void;
  }): PayPalButtons;
}

type Phase = 'loading' | 'ready' | 'unavailable' | 'capturing' | 'paid';

/** The server calls behind the card form: our order for PayPal's form, and our capture. */
export interface PayPalSale {
  /** Who is paying (the form is rendered again for another). */
  readonly id: string;
  createOrder(
    buttonIndex: number,
    requestId: string,
    photoUids: readonly string[] | null,
  ): Promise<{ payment_id: string; order_id: string }>;
  capture(paymentId: string): Promise<{ status: PaymentStatusName }>;
}

/** An attendee's own album page pays through the attendee's PayPal calls. */
export const attendeePayPalSale = (attendeeUid: string): PayPalSale => ({
  id: `attendee:${attendeeUid}`,
  createOrder: (buttonIndex, requestId, photoUids) =>
    createPayPalOrder(attendeeUid, buttonIndex, requestId, photoUids),
  capture: (paymentId) => capturePayPalOrder(attendeeUid, paymentId),
});

/**
 * PayPal's card checkout on the album page (albums spec §7.3): PayPal's script,
 * loaded only here, shows its card form (card funding only). Our server makes the order (the
 * button's amount and text, no shipping) and, once PayPal's form approved it, captures it: only
 * the server's `paid` counts, then `onPaid` opens the album (the attendee's, or the buyer's own
 * album of a purchase from a public or private album).
 * A declined card leaves the album locked and the form ready for another card.
 */
export function PayPalCardCheckout({
  sale,
  scriptUrl,
  buttonIndex,
  photoUids,
  onPaid,
}: {
  /** Who pays: an attendee's album, or a purchase from a public or private album. */
  sale: PayPalSale;
  scriptUrl: string;
  buttonIndex: number;
  photoUids: readonly string[] | null;
  onPaid: (paymentId: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const host = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [problem, setProblem] = useState<string | null>(null);
  // The latest callbacks and choice, read when PayPal calls back (the form is rendered once).
  const latest = useRef({ onPaid, photoUids, sale });
  useEffect(() => {
    latest.current = { onPaid, photoUids, sale };
  });

  useEffect(() => {
    let gone = false;
    let buttons: PayPalButtons | null = null;
    let paymentId: string | null = null;
    loadScript(scriptUrl).then(
      () => {
        const paypal = (window as { paypal?: PayPalNamespace }).paypal;
        if (gone || !host.current) return;
        if (!paypal) {
          setPhase('unavailable');
          return;
        }
        buttons = paypal.Buttons({
          fundingSource: paypal.FUNDING.CARD,
          createOrder: async () => {
            setProblem(null);
            const order = await latest.current.sale.createOrder(
              buttonIndex,
              crypto.randomUUID(),
              latest.current.photoUids,
            );
            paymentId = order.payment_id;
            return order.order_id;
          },
          onApprove: async () => {
            if (!paymentId) return;
            setPhase('capturing');
            try {
              const result = await latest.current.sale.capture(paymentId);
              if (gone) return;
              if (result.status === 'paid') {
                setPhase('paid');
                latest.current.onPaid(paymentId);
                return;
              }
              setPhase('ready');
              setProblem(result.status === 'failed' ? 'declined' : 'notCaptured');
            } catch (error) {
              if (gone) return;
              setPhase('ready');
              setProblem(errorKeyOf(error));
            }
          },
          onError: (error) => {
            if (gone) return;
            setPhase('ready');
            setProblem(errorKeyOf(error));
          },
        });
        if (!buttons.isEligible()) {
          setPhase('unavailable');
          return;
        }
        setPhase('ready');
        buttons.render(host.current).catch(() => !gone && setPhase('unavailable'));
      },
      () => !gone && setPhase('unavailable'),
    );
    return () => {
      gone = true;
      void buttons?.close();
    };
  }, [sale.id, buttonIndex, scriptUrl]);

  const problemText =
    problem === 'declined' || problem === 'notCaptured'
      ? t(`albums.paid.card.${problem}`)
      : problem
        ? errorText(problem)
        : null;

  return (
    <div className="albums-paid-card">
      {phase === 'loading' && <p role="status">{t('albums.paid.card.loading')}</p>}
      {phase === 'unavailable' && <p role="alert">{t('albums.paid.card.unavailable')}</p>}
      {phase === 'capturing' && <p role="status">{t('albums.paid.card.capturing')}</p>}
      {phase === 'paid' && <p role="status">{t('albums.paid.card.paid')}</p>}
      {problemText && phase === 'ready' && <p role="alert">{problemText}</p>}
      <div ref={host} hidden={phase === 'paid' || phase === 'unavailable'} data-testid="paypal" />
    </div>
  );
}

/**
 * The card step of an album's checkout: what the chosen button costs, PayPal's card form for it,
 * the page's other way to pay (`alternative`) and the way back to the buttons.
 */
export function PayPalCardStep({
  amount,
  currency,
  alternative,
  onBack,
  ...form
}: Parameters<typeof PayPalCardCheckout>[0] & {
  /** The button's price; null when the event hides prices. */
  amount: number | null;
  currency: string;
  alternative?: ReactNode;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="albums-paid-method">
      <h2>
        {amount === null
          ? t('albums.paid.card.titleNoAmount')
          : t('albums.paid.card.title', { amount: formatMoney(amount, currency) })}
      </h2>
      {/* Another button is another order: the form starts again. */}
      <PayPalCardCheckout key={form.buttonIndex} {...form} />
      <div className="albums-paid-alt">
        {alternative}
        <button type="button" onClick={onBack}>
          {t('albums.paid.card.back')}
        </button>
      </div>
    </div>
  );
}
