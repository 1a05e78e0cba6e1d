import type { PaymentStatusName } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import { PAYPAL_PROVIDER, type PayPalAdapter } from '../../repositories/payments/paypal.adapter.ts';
import type { PaymentStatus } from '../../repositories/payments/payments-provider.ts';
import {
  TERMINAL_PROVIDER,
  TerminalError,
  terminalPaymentStatus,
  terminalStatusText,
  type TerminalAdapter,
  type TerminalStatusData,
} from '../../repositories/payments/terminal.adapter.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import {
  SQUARE_PROVIDER,
  type SquareAdapter,
  terminalCheckoutStatus,
} from '../../repositories/payments/square.adapter.ts';
import type { ProviderCheckouts } from './provider-checkout.service.ts';
import type { CheckoutService } from './checkout.service.ts';
import { type PaymentService } from './payment.service.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import { offeredMethods, paypalScriptUrl } from './payment-methods.ts';
import type { AlbumPurchaseService } from './album-purchase.service.ts';

/**
 * PayPal card checkout on the album page and the venue's payment terminal from the kiosk (issue
 * 11 items 3 and 4). Both start through CheckoutService (access, attendee, amount, idempotency)
 * and move the payment only on the provider's own word: PayPal's capture answer (asked by us) or
 * its verified webhook; the terminal's status reply. The reconciliation job asks both about
 * payments still pending (ProviderCheckouts).
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
      terminal: TerminalAdapter | null;
      /** Square card readers (the event's `square_access_token` through `providers`). */
      square?: SquareAdapter | null;
      providers?: ProviderCheckouts;
      logger: Logger;
    },
  ) {}

  private async apply(payment: PaymentRow, status: PaymentStatus): Promise<PaymentRow> {
    if (status.state !== 'pending' && payment.providerReference)
      await this.deps.payments.applyProviderStatus(
        payment.provider,
        payment.providerReference,
        status.state,
        status.state === 'failed' ? status.reason : null,
      );
    return (await this.deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
  }

  private failure(error: unknown): unknown {
    if (error instanceof TerminalError)
      // §8: logged and passed on (the terminal's message and code; it holds no secret of ours).
      this.deps.logger.warn({ terminal_error: error.details }, 'payment terminal error');
    if (error instanceof ProviderError)
      return new AppError(error.permanent ? 'payment_provider_refused' : 'payment_provider_error');
    return error;
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
      let status: PaymentStatus;
      try {
        status = await paypal.adapter.capture(payment.providerReference!);
      } catch (error) {
        throw this.failure(error);
      }
      payment = await this.apply(payment, status);
    }
    return { payment_id: payment.publicId, status: payment.status };
  }

  async paypalCreateOrder(principal: Principal, input: KeylessBody<'paypalCreateOrder'>) {
    const paypal = this.deps.paypal;
    // Access first: a caller without it hears that, not how payments are set up.
    await this.deps.access.requireEventAccess(principal, 'payment.checkout', { keyEvent: true });
    if (!paypal) throw new AppError('payment_provider_unavailable');
    let started;
    try {
      started = await this.deps.checkout.startProviderPayment(
        principal,
        input,
        paypal.adapter,
        {},
        1,
      );
    } catch (error) {
      throw this.failure(error);
    }
    const { payment, checkout } = started;
    return {
      payment_id: payment.publicId,
      order_id: checkout.providerPaymentId,
      amount: payment.amount,
      currency: payment.currency,
      status: payment.status,
    };
  }

  async paypalCaptureOrder(
    principal: Principal,
    input: KeylessBody<'paypalCaptureOrder'>,
  ): Promise<{ payment_id: string; status: PaymentStatusName }> {
    return this.capture(
      await this.deps.checkout.providerPaymentOf(principal, input.payment_id, PAYPAL_PROVIDER),
    );
  }

  async terminalPay(principal: Principal, input: KeylessBody<'terminalPay'>) {
    await this.deps.access.requireEventAccess(principal, 'payment.at_kiosk', { keyEvent: true });
    const terminal = this.deps.terminal;
    if (!terminal) throw new AppError('payment_provider_unavailable');
    let started;
    try {
      started = await this.deps.checkout.startProviderPayment(principal, input, terminal, {}, 1);
    } catch (error) {
      throw this.failure(error);
    }
    return {
      payment_id: started.payment.publicId,
      request_id: started.checkout.providerPaymentId,
      amount: started.payment.amount,
      currency: started.payment.currency,
      status: started.payment.status,
    };
  }

  async terminalCheckStatus(principal: Principal, input: KeylessBody<'terminalCheckStatus'>) {
    let payment = await this.deps.checkout.providerPaymentOf(
      principal,
      input.payment_id,
      TERMINAL_PROVIDER,
    );
    const terminal = this.deps.terminal;
    if (!terminal) throw new AppError('payment_provider_unavailable');
    let data: TerminalStatusData | null = null;
    try {
      data = await terminal.checkStatus(payment.providerReference!);
    } catch (error) {
      if (!(error instanceof TerminalError)) throw error;
      this.failure(error);
    }
    if (data && payment.status === 'pending')
      payment = await this.apply(payment, terminalPaymentStatus(data));
    return {
      payment_id: payment.publicId,
      status: payment.status,
      error_message: terminalStatusText(data),
    };
  }

  async terminalCancel(principal: Principal, input: KeylessBody<'terminalCancel'>) {
    let payment = await this.deps.checkout.providerPaymentOf(
      principal,
      input.payment_id,
      TERMINAL_PROVIDER,
    );
    const terminal = this.deps.terminal;
    if (!terminal) throw new AppError('payment_provider_unavailable');
    if (payment.status === 'pending') {
      try {
        await terminal.cancel(payment.providerReference!, {});
        payment = await this.apply(payment, { state: 'cancelled' });
      } catch (error) {
        if (!(error instanceof TerminalError) || !error.permanent) throw this.failure(error);
        this.failure(error);
        // The terminal refused to cancel (the sale finished meanwhile): its word decides.
        try {
          payment = await this.apply(
            payment,
            terminalPaymentStatus(await terminal.checkStatus(payment.providerReference!)),
          );
        } catch (again) {
          throw this.failure(again);
        }
      }
    }
    return { payment_id: payment.publicId, status: payment.status };
  }

  /** The event's Square access token, or `payment_provider_unavailable`. */
  private async squareOf(eventId: number) {
    const square = this.deps.square;
    const chosen = square
      ? await this.deps.providers?.eventCredentials(eventId, SQUARE_PROVIDER)
      : null;
    if (!square || !chosen) throw new AppError('payment_provider_unavailable');
    return { square, credentials: chosen.credentials, minimumCents: chosen.minimumCents };
  }

  /**
   * `/attendee/initiate-square-payment`: a Terminal checkout on the paired reader. Below Square's
   * $1.00 is refused first; the kiosk's retry with the same request id answers the same checkout.
   */
  async squareInitiate(principal: Principal, input: KeylessBody<'squareInitiatePayment'>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.at_kiosk', {
      keyEvent: true,
    });
    const { square, credentials, minimumCents } = await this.squareOf(grant.event.row.id);
    const { device_id: deviceId, ...sale } = input;
    let started;
    try {
      started = await this.deps.checkout.startProviderPayment(
        principal,
        sale,
        square,
        { ...credentials, device_id: deviceId },
        minimumCents,
      );
    } catch (error) {
      throw this.failure(error);
    }
    return {
      payment_id: started.payment.publicId,
      checkout_id: started.checkout.providerPaymentId,
      amount: started.payment.amount,
      currency: started.payment.currency,
      status: started.payment.status,
    };
  }

  /** A Square payment of the key's event with the event's token (both checked). */
  private async squarePayment(principal: Principal, paymentId: string) {
    const payment = await this.deps.checkout.providerPaymentOf(
      principal,
      paymentId,
      SQUARE_PROVIDER,
    );
    const order = await this.deps.paymentRows.orderById(payment.orderId);
    if (!order) throw new AppError('not_found', 'payment_id');
    return { payment, ...(await this.squareOf(order.eventId)) };
  }

  /** `/attendee/check-square-checkout-status`: Square's word on the checkout moves the payment. */
  async squareCheckStatus(principal: Principal, input: KeylessBody<'squareCheckoutStatus'>) {
    const found = await this.squarePayment(principal, input.payment_id);
    let payment = found.payment;
    let checkoutStatus: string | null = null;
    try {
      const checkout = await found.square.terminalCheckout(
        found.credentials,
        payment.providerReference!,
      );
      checkoutStatus = checkout.status;
      if (payment.status === 'pending' || payment.status === 'expired')
        payment = await this.apply(payment, terminalCheckoutStatus(checkout));
    } catch (error) {
      throw this.failure(error);
    }
    return {
      payment_id: payment.publicId,
      status: payment.status,
      checkout_status: checkoutStatus,
    };
  }

  /**
   * `/attendee/cancel-square-checkout`: cancels at Square first; when Square refuses (the buyer
   * paid meanwhile) Square's checkout decides.
   */
  async squareCancel(principal: Principal, input: KeylessBody<'squareCancelCheckout'>) {
    const found = await this.squarePayment(principal, input.payment_id);
    let payment = found.payment;
    if (payment.status !== 'pending')
      return { payment_id: payment.publicId, status: payment.status };
    const id = payment.providerReference!;
    try {
      const checkout = await found.square.cancelTerminalCheckout(found.credentials, id);
      payment = await this.apply(payment, terminalCheckoutStatus(checkout));
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.permanent) throw this.failure(error);
      try {
        payment = await this.apply(
          payment,
          terminalCheckoutStatus(await found.square.terminalCheckout(found.credentials, id)),
        );
      } catch (again) {
        throw this.failure(again);
      }
    }
    return { payment_id: payment.publicId, status: payment.status };
  }
}
