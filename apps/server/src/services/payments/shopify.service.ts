import { shopifyShippingAddressSchema } from '@flashbulb/shared';
import { fillText } from '@flashbulb/shared/i18n/format';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PaymentRow } from '../../repositories/payments/payment.repository.ts';
import type {
  PaymentCredentials,
  PaymentStatus,
} from '../../repositories/payments/payments-provider.ts';
import {
  SHOPIFY_PROVIDER,
  type ShopifyAdapter,
} from '../../repositories/payments/shopify.adapter.ts';
import type { EventProviderCredentials } from '../../repositories/provider-credentials.ts';
import { applyProviderState, providerCall, providerFailure, saleReply } from './provider-state.ts';
import type { SaleDeps } from './checkout.service.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import { eventLanguage } from '../messaging/event-language.ts';

/** The event's product collections as one line-item property value ('' for none). */
const collectionsOf = (collections: readonly string[] | undefined): string =>
  (collections ?? [])
    .map((c) => c.trim())
    .filter(Boolean)
    .join(', ');

/**
 * The shop calls (albums spec §7.3): a kiosk sale becomes a Shopify draft order of
 * the event's shop (line items from the pricing button — booked under the event's `shopPlusId` as
 * their SKU and carrying its `productCollections` as a property —, the event's order tags, the
 * event's shipping address when the button sells prints, our payment id as a note attribute). The
 * payment moves only on Shopify's word: the order it made from the draft is `paid` (asked by us
 * after the counter completed it, or its verified `orders/paid` webhook, or reconciliation).
 */
export class ShopifyService {
  constructor(
    private readonly deps: SaleDeps & {
      credentials: EventProviderCredentials;
      adapter: ShopifyAdapter;
    },
  ) {}

  /**
   * The event's shop and token (`shopDomain` opt, `shopify_api_pass`; else its organisation's
   * Shopify connection), or `payment_provider_unavailable`.
   */
  async credentialsOf(event: EventRecord): Promise<PaymentCredentials> {
    const pair = await this.deps.credentials.shopify(event.row.id);
    if (!pair) throw new AppError('payment_provider_unavailable');
    return { shop: pair.shop, access_token: pair.access_token };
  }

  private failure(error: unknown): unknown {
    return providerFailure(null, error);
  }

  private apply(payment: PaymentRow, status: PaymentStatus): Promise<PaymentRow> {
    return applyProviderState(this.deps, payment, status);
  }

  /**
   * A sale "paid at the counter" (the draft completed with `payment_pending=false`) is the
   * counter's word that money changed hands: operators and the kiosk (private key + display
   * token) only, never a guest's key.
   */
  private async requireCounter(principal: Principal): Promise<void> {
    await this.deps.access.requireEventAccess(principal, 'payment.counter', { keyEvent: true });
  }

  /** `/shopify/admin/create-draft-order`: a payment and its draft order at the event's shop. */
  async createDraftOrder(principal: Principal, input: KeylessBody<'shopifyCreateDraftOrder'>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    const event = grant.event;
    const credentials = await this.credentialsOf(event);
    const { email, ...sale } = input;
    const button = (event.row.opts.pricingButtons ?? [])[input.pricing_button_index];
    const address = shopifyShippingAddressSchema.parse(event.row.shopify_shipping_address ?? {});
    const shipping =
      button?.prints && address.shopifyAddress1
        ? JSON.stringify({
            first_name: address.shopifyFirstName,
            last_name: address.shopifyLastName,
            address1: address.shopifyAddress1,
            address2: address.shopifyAddress2,
            city: address.shopifyCity,
            province: address.shopifyState,
            country: address.shopifyCountry,
            zip: address.shopifyZip,
            company: address.shopifyCompany,
            phone: address.shopifyPhoneNumber,
          })
        : '';
    const started = await providerCall(null, () =>
      this.deps.checkout.startProviderPayment(
        principal,
        sale,
        this.deps.adapter,
        {
          ...credentials,
          tags: event.row.opts.shopOrderTags ?? '',
          // The shop's product the sale is booked as, and the collections it is filed under.
          ...(event.row.opts.shopPlusId?.trim() ? { sku: event.row.opts.shopPlusId.trim() } : {}),
          ...(collectionsOf(event.row.opts.productCollections)
            ? { collections: collectionsOf(event.row.opts.productCollections) }
            : {}),
          ...(shipping ? { shipping } : {}),
          ...(email ? { email } : {}),
        },
        1,
      ),
    );
    return {
      ...saleReply(started, 'draft_order_id'),
      invoice_url: started.checkout.handle.kind === 'qr' ? started.checkout.handle.url : '',
    };
  }

  /** A Shopify payment of the key's event, with the event's shop and token. */
  private async shopPayment(principal: Principal, paymentId: string) {
    const { payment, event } = await this.deps.checkout.providerPaymentOf(
      principal,
      paymentId,
      SHOPIFY_PROVIDER,
    );
    return { payment, event, credentials: await this.credentialsOf(event) };
  }

  /**
   * `/shopify/admin/complete-draft-order` (the buyer paid at the shop's counter: the order is
   * created paid) and `…-self-checkout` (created pending: the buyer pays on Shopify's checkout and
   * `orders/paid` confirms). Either way the payment moves only on the order Shopify reports.
   */
  async completeDraftOrder(
    principal: Principal,
    input: KeylessBody<'shopifyCompleteDraftOrder'>,
    selfCheckout: boolean,
  ) {
    if (!selfCheckout) await this.requireCounter(principal);
    const { payment: found, credentials } = await this.shopPayment(principal, input.payment_id);
    let payment = found;
    let orderId: number | null = null;
    try {
      const draft = await this.deps.adapter.draftOrder(credentials, payment.providerReference!);
      const done =
        draft.status === 'completed'
          ? draft
          : await this.deps.adapter.complete(credentials, payment.providerReference!, selfCheckout);
      orderId = done.order_id ?? null;
      if (payment.status === 'pending' || payment.status === 'expired')
        payment = await this.apply(
          payment,
          await this.deps.adapter.status(payment.providerReference!, credentials),
        );
    } catch (error) {
      throw this.failure(error);
    }
    return {
      payment_id: payment.publicId,
      order_id: orderId ? String(orderId) : '',
      status: payment.status,
    };
  }

  /** `/shopify/buy-product-from-kiosk[-self-checkout]`: the draft order, then completed. */
  async buyFromKiosk(
    principal: Principal,
    input: KeylessBody<'shopifyBuyFromKiosk'>,
    selfCheckout: boolean,
  ) {
    // Refused before a draft order exists at the shop.
    if (!selfCheckout) await this.requireCounter(principal);
    const created = await this.createDraftOrder(principal, input);
    // Self-checkout keeps the draft open: the buyer pays on its invoice page (the QR code).
    if (selfCheckout) return { ...created, order_id: '' };
    const completed = await this.completeDraftOrder(
      principal,
      { payment_id: created.payment_id },
      false,
    );
    return { ...created, order_id: completed.order_id, status: completed.status };
  }

  /** `/shopify/send-receipt`: Shopify mails the draft order's invoice (receipt) to the buyer. */
  async sendReceipt(principal: Principal, input: KeylessBody<'shopifySendReceipt'>) {
    const { payment, event, credentials } = await this.shopPayment(principal, input.payment_id);
    // In the event's guest language, like our own receipts (Shopify sends it as plain text).
    const texts = sharedTexts(eventLanguage(event.row)).mail.shopReceipt;
    try {
      await this.deps.adapter.sendInvoice(credentials, payment.providerReference!, {
        to: input.email,
        subject: fillText(texts.subject, { title: event.row.full_name || event.row.name }),
        custom_message: texts.message,
      });
    } catch (error) {
      throw this.failure(error);
    }
    return { payment_id: payment.publicId, sent: 1 as const };
  }
}
