import type { PaymentStatusName } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import { applyProviderState, providerCall, saleReply } from './provider-state.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import { PAYPAL_PROVIDER, type PayPalAdapter } from '../../repositories/payments/paypal.adapter.ts';
import type { PaymentStatus } from '../../repositories/payments/payments-provider.ts';
import type { CheckoutService } from './checkout.service.ts';
import { type PaymentService } from './payment.service.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import { offeredMethods, paypalScriptUrl } from './payment-methods.ts';
import type { AlbumPurchaseService } from './album-purchase.service.ts';

/**
 * PayPal's card form on the attendee album and on public or private albums. A payment starts
 * through CheckoutService (access, attendee, amount, idempotency) or AlbumPurchaseService and
 * moves only on PayPal's own word: its capture answer (asked by us) or its verified webhook. The
 * card readers at the kiosk (terminal, Square) are ReaderCheckoutService.
 */
export class CardCheckoutService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      checkout: CheckoutService;
      /** Purchases from a public or private album (their card form starts through it). */
      albumPurchases: AlbumPurchaseService;
      payments: PaymentService;
      paymentRows: PaymentRepository;
      paypal: { adapter: PayPalAdapter; environment: 'sandbox' | 'live'; sdkUrl: string } | null;
      logger: Logger;
    },
  ) {}

  private apply(payment: PaymentRow, status: PaymentStatus): Promise<PaymentRow> {
    return applyProviderState(this.deps, payment, status);
  }

  async paypalSettings(principal: Principal) {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    // Off unless set up here and offered for this event's album (the operator's choice).
    const paypal = offeredMethods(principal, grant.event).includes('paypal')
      ? this.deps.paypal
      : null;
    return {
      enabled: paypal ? (1 as const) : (0 as const),
      client_id: paypal?.adapter.clientId ?? '',
      environment: paypal?.environment ?? ('sandbox' as const),
      script_url: paypal
        ? paypalScriptUrl(
            paypal.sdkUrl,
            paypal.adapter.clientId,
            await this.deps.payments.currencyOf(grant.event),
          )
        : '',
    };
  }

  /**
   * A purchase from a public or private album paid in PayPal's card form: the album purchase's
   * rules (photos, buyer's album, price), PayPal's order as its checkout.
   */
  async albumPurchasePayPalOrder(
    principal: Principal,
    input: KeylessBody<'albumPurchasePayPalOrder'>,
  ) {
    const started = await this.deps.albumPurchases.create(principal, input, {
      method: 'paypal',
      adapter: this.deps.paypal?.adapter ?? null,
    });
    const payment = await this.deps.paymentRows.paymentByPublicId(started.payment_id);
    if (!payment?.providerReference) throw new AppError('payment_provider_error');
    return {
      payment_id: started.payment_id,
      order_id: payment.providerReference,
      amount: started.amount,
      currency: started.currency,
      status: started.status,
    };
  }

  /** Captures an album purchase's approved PayPal order; only PayPal's answer pays it. */
  async albumPurchasePayPalCapture(
    principal: Principal,
    input: KeylessBody<'albumPurchasePayPalCapture'>,
  ): Promise<{ payment_id: string; status: PaymentStatusName }> {
    const payment = await this.deps.albumPurchases.paymentThrough(
      principal,
      input.payment_id,
      PAYPAL_PROVIDER,
    );
    return this.capture(payment);
  }

  private async capture(found: PaymentRow) {
    let payment = found;
    const paypal = this.deps.paypal;
    if (!paypal) throw new AppError('payment_provider_unavailable');
    if (payment.status === 'pending') {
      const status = await providerCall(this.deps.logger, () =>
        paypal.adapter.capture(payment.providerReference!),
      );
      payment = await this.apply(payment, status);
    }
    return { payment_id: payment.publicId, status: payment.status };
  }

  async paypalCreateOrder(principal: Principal, input: KeylessBody<'paypalCreateOrder'>) {
    const paypal = this.deps.paypal;
    // Access first: a caller without it hears that, not how payments are set up.
    await this.deps.access.requireEventAccess(principal, 'payment.checkout', { keyEvent: true });
    if (!paypal) throw new AppError('payment_provider_unavailable');
    const started = await providerCall(this.deps.logger, () =>
      this.deps.checkout.startProviderPayment(principal, input, paypal.adapter, {}, 1),
    );
    return saleReply(started, 'order_id');
  }

  async paypalCaptureOrder(
    principal: Principal,
    input: KeylessBody<'paypalCaptureOrder'>,
  ): Promise<{ payment_id: string; status: PaymentStatusName }> {
    const { payment } = await this.deps.checkout.providerPaymentOf(
      principal,
      input.payment_id,
      PAYPAL_PROVIDER,
    );
    return this.capture(payment);
  }
}
