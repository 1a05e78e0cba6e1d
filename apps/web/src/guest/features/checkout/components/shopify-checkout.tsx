import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  checkKioskPayment,
  completeShopifyDraft,
  sendShopifyReceipt,
  startShopifySale,
} from '../../../shared/api/album-payments.ts';
import { AlbumLinkQr } from '../../../shared/components/album-link-qr.tsx';
import { KioskEmailField } from '../../../shared/components/kiosk-email-field.tsx';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import { useChoicePricing, type PhotoChoice } from '../hooks/use-choice-pricing.ts';

interface Sale {
  paymentId: string;
  amount: number;
  invoiceUrl: string;
}

type State =
  | { kind: 'choose'; errorKey: string | null; ended: boolean }
  | { kind: 'busy' }
  /** The staff made a draft order: paid at the counter, or the guest pays on Shopify. */
  | { kind: 'draft'; sale: Sale; errorKey: string | null }
  /** Waiting for Shopify's word; the invoice's QR code lets the guest pay on their phone. */
  | { kind: 'invoice'; sale: Sale }
  | { kind: 'paid'; paymentId: string };

/**
 * Selling through the event's Shopify shop at the kiosk (albums spec §7.3, the six shop calls).
 * Shown only when the event's kiosk may sell through Shopify and the event has a shop (the
 * pricing list's `methods`). A guest buys by self-checkout: the draft order's invoice as a QR
 * code, paid on their phone, the album opening once Shopify confirms. With the staff controls
 * open, the counter sells in one step (paid at the counter) or makes a draft order and completes
 * it — paid at the counter, or left for the guest to pay on Shopify. While a sale is open (and
 * once paid) Shopify can e-mail its receipt to the buyer — the album opening takes the checkout
 * away. Nothing opens on this page's word: the server asks Shopify.
 */
export function ShopifyCheckout({
  attendeeUid,
  kioskKey,
  staff,
  choice = null,
}: {
  attendeeUid: string;
  kioskKey: string;
  /** The kiosk's staff controls are open: the counter's sales are offered. */
  staff: boolean;
  choice?: PhotoChoice | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const { choosing, chosenCount, buttons } = useChoicePricing(attendeeUid, choice, kioskKey);
  const [state, setState] = useState<State>({ kind: 'choose', errorKey: null, ended: false });
  const [email, setEmail] = useState('');

  const waitingFor = state.kind === 'invoice' ? state.sale.paymentId : null;
  useEffect(() => {
    if (!waitingFor) return;
    let stopped = false;
    const timer = setInterval(() => {
      checkKioskPayment(kioskKey, waitingFor).then(
        (result) => {
          if (stopped || result.status === 'pending') return;
          stopped = true;
          clearInterval(timer);
          if (result.status === 'paid') {
            setState({ kind: 'paid', paymentId: waitingFor });
            void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
          } else setState({ kind: 'choose', errorKey: null, ended: true });
        },
        () => undefined, // a missed check is asked again on the next tick
      );
    }, pollTiming.paymentMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [attendeeUid, kioskKey, waitingFor, queryClient]);

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  if (!(list.methods?.includes('shopify') ?? false)) return null;

  const opened = (paymentId: string) => {
    setState({ kind: 'paid', paymentId });
    void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
  };
  const failed = (error: unknown) =>
    setState({ kind: 'choose', errorKey: errorKeyOf(error), ended: false });

  const start = (mode: 'self' | 'counter' | 'draft', index: number) => {
    setState({ kind: 'busy' });
    startShopifySale(
      mode,
      kioskKey,
      attendeeUid,
      index,
      crypto.randomUUID(),
      choosing ? choice!.chosen : null,
      email.trim() || null,
    ).then((started) => {
      const sale = {
        paymentId: started.payment_id,
        amount: started.amount,
        invoiceUrl: started.invoice_url,
      };
      if (started.status === 'paid') opened(sale.paymentId);
      else if (mode === 'draft') setState({ kind: 'draft', sale, errorKey: null });
      else setState({ kind: 'invoice', sale });
    }, failed);
  };

  const complete = (sale: Sale, paidAtCounter: boolean) => {
    setState({ kind: 'busy' });
    completeShopifyDraft(kioskKey, sale.paymentId, paidAtCounter).then(
      (done) => {
        if (done.status === 'paid') opened(sale.paymentId);
        else setState({ kind: 'invoice', sale });
      },
      (error: unknown) => setState({ kind: 'draft', sale, errorKey: errorKeyOf(error) }),
    );
  };

  const disabled = state.kind === 'busy' || (choosing && chosenCount === 0);
  const label = (button: (typeof list.buttons)[number]) =>
    button.amount === null || (choosing && chosenCount === 0)
      ? button.button_text
      : t('albums.shopify.button', {
          text: button.button_text,
          amount: formatMoney(button.amount, list.currency),
        });

  return (
    <section className="albums-paid albums-square" aria-label={t('albums.shopify.title')}>
      <h2>{t('albums.shopify.title')}</h2>
      {state.kind === 'paid' ? (
        <>
          <p role="status">{t('albums.shopify.paid')}</p>
          <ShopifyReceipt kioskKey={kioskKey} paymentId={state.paymentId} initialEmail={email} />
        </>
      ) : state.kind === 'invoice' ? (
        <div role="status" className="albums-square-waiting">
          <p className="albums-square-amount">{formatMoney(state.sale.amount, list.currency)}</p>
          {state.sale.invoiceUrl && (
            <AlbumLinkQr url={state.sale.invoiceUrl} alt={t('albums.shopify.qrAlt')} />
          )}
          <p>{t('albums.shopify.scan')}</p>
          <ShopifyReceipt
            kioskKey={kioskKey}
            paymentId={state.sale.paymentId}
            initialEmail={email}
          />
        </div>
      ) : state.kind === 'draft' ? (
        <div className="albums-square-waiting">
          <p role="status">
            {t('albums.shopify.draftReady', {
              amount: formatMoney(state.sale.amount, list.currency),
            })}
          </p>
          {state.errorKey && <p role="alert">{errorText(state.errorKey)}</p>}
          <div className="albums-paid-buttons">
            <button type="button" onClick={() => complete(state.sale, true)}>
              {t('albums.shopify.completePaid')}
            </button>
            <button type="button" onClick={() => complete(state.sale, false)}>
              {t('albums.shopify.completeInvoice')}
            </button>
          </div>
          <ShopifyReceipt
            kioskKey={kioskKey}
            paymentId={state.sale.paymentId}
            initialEmail={email}
          />
        </div>
      ) : (
        <>
          {state.kind === 'choose' && state.ended && (
            <p role="alert">{t('albums.shopify.ended')}</p>
          )}
          {state.kind === 'choose' && state.errorKey && (
            <p role="alert">{errorText(state.errorKey)}</p>
          )}
          <div className="albums-paid-buttons">
            {list.buttons.map((button) => (
              <button
                key={button.index}
                type="button"
                disabled={disabled}
                onClick={() => start('self', button.index)}
              >
                {label(button)}
              </button>
            ))}
          </div>
          {staff && (
            <div
              className="albums-desk-unlock"
              role="group"
              aria-label={t('albums.shopify.counter')}
            >
              <h3>{t('albums.shopify.counter')}</h3>
              <KioskEmailField
                label={t('albums.shopify.counterEmail')}
                value={email}
                onChange={setEmail}
              />
              {list.buttons.map((button) => (
                <div key={button.index} className="albums-paid-buttons">
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => start('counter', button.index)}
                  >
                    {t('albums.shopify.paidAtCounter', { text: label(button) })}
                  </button>
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => start('draft', button.index)}
                  >
                    {t('albums.shopify.draft', { text: label(button) })}
                  </button>
                </div>
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Shopify e-mails the sale's receipt to the address typed here. */
function ShopifyReceipt({
  kioskKey,
  paymentId,
  initialEmail,
}: {
  kioskKey: string;
  paymentId: string;
  initialEmail: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [email, setEmail] = useState(initialEmail);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ sentTo: string } | { errorKey: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const to = email.trim();
    setSending(true);
    sendShopifyReceipt(kioskKey, paymentId, to).then(
      () => {
        setSending(false);
        setResult({ sentTo: to });
      },
      (error: unknown) => {
        setSending(false);
        setResult({ errorKey: errorKeyOf(error) });
      },
    );
  };

  return (
    <form className="albums-desk-unlock" onSubmit={submit} noValidate>
      <KioskEmailField label={t('albums.shopify.receiptLabel')} value={email} onChange={setEmail} />
      <button type="submit" disabled={sending}>
        {t('albums.shopify.sendReceipt')}
      </button>
      <p className="albums-form-message" aria-live="polite">
        {result && 'sentTo' in result && t('albums.shopify.receiptSent', { email: result.sentTo })}
        {result && 'errorKey' in result && <span role="alert">{errorText(result.errorKey)}</span>}
      </p>
    </form>
  );
}
