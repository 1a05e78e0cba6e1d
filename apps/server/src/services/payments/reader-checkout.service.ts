import type { FastifyBaseLogger as Logger } from 'fastify';
import type { KeylessBody } from '../../access/keyless-body.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PaymentRow } from '../../repositories/payments/payment.repository.ts';
import type { PaymentStatus } from '../../repositories/payments/payments-provider.ts';
import {
  SQUARE_PROVIDER,
  type SquareAdapter,
  terminalCheckoutStatus,
} from '../../repositories/payments/square.adapter.ts';
import {
  TERMINAL_PROVIDER,
  TerminalError,
  terminalPaymentStatus,
  terminalStatusText,
  type TerminalAdapter,
  type TerminalStatusData,
} from '../../repositories/payments/terminal.adapter.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { SaleDeps } from './checkout.service.ts';
import type { ProviderCheckouts } from './provider-checkout.service.ts';
import { applyProviderState, providerCall, providerFailure, saleReply } from './provider-state.ts';

/**
 * Card readers at the kiosk: the venue's payment terminal and Square's paired reader. A sale
 * starts through CheckoutService (access, attendee, amount, idempotency) and moves only on the
 * reader's own word (its status reply); a refused cancel lets the reader's state decide. The
 * reconciliation job asks both about payments still pending (ProviderCheckouts).
 */
export class ReaderCheckoutService {
  constructor(
    private readonly deps: SaleDeps & {
      terminal: TerminalAdapter | null;
      /** Square card readers (the event's `square_access_token` through `providers`). */
      square?: SquareAdapter | null;
      providers?: ProviderCheckouts;
      logger: Logger;
    },
  ) {}

  private apply(payment: PaymentRow, status: PaymentStatus): Promise<PaymentRow> {
    return applyProviderState(this.deps, payment, status);
  }

  private failure(error: unknown): unknown {
    return providerFailure(this.deps.logger, error);
  }

  async terminalPay(principal: Principal, input: KeylessBody<'terminalPay'>) {
    await this.deps.access.requireEventAccess(principal, 'payment.at_kiosk', { keyEvent: true });
    const terminal = this.deps.terminal;
    if (!terminal) throw new AppError('payment_provider_unavailable');
    const started = await providerCall(this.deps.logger, () =>
      this.deps.checkout.startProviderPayment(principal, input, terminal, {}, 1),
    );
    return saleReply(started, 'request_id');
  }

  async terminalCheckStatus(principal: Principal, input: KeylessBody<'terminalCheckStatus'>) {
    let { payment } = await this.terminalPayment(principal, input.payment_id);
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
    let { payment } = await this.terminalPayment(principal, input.payment_id);
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

  /** A terminal payment of the key's event. */
  private terminalPayment(principal: Principal, paymentId: string) {
    return this.deps.checkout.providerPaymentOf(principal, paymentId, TERMINAL_PROVIDER);
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
    const started = await providerCall(this.deps.logger, () =>
      this.deps.checkout.startProviderPayment(
        principal,
        sale,
        square,
        { ...credentials, device_id: deviceId },
        minimumCents,
      ),
    );
    return saleReply(started, 'checkout_id');
  }

  /** A Square payment of the key's event with the event's token (both checked). */
  private async squarePayment(principal: Principal, paymentId: string) {
    const { payment, event } = await this.deps.checkout.providerPaymentOf(
      principal,
      paymentId,
      SQUARE_PROVIDER,
    );
    return { payment, ...(await this.squareOf(event.row.id)) };
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
