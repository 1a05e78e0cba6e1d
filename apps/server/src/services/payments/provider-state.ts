import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type { Checkout, PaymentStatus } from '../../repositories/payments/payments-provider.ts';
import { TerminalError } from '../../repositories/payments/terminal.adapter.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { PaymentService } from './payment.service.ts';

/** Moves a payment to the provider's answered state (a pending answer changes nothing). */
export async function applyProviderState(
  deps: { payments: PaymentService; paymentRows: PaymentRepository },
  payment: PaymentRow,
  status: PaymentStatus,
): Promise<PaymentRow> {
  if (status.state !== 'pending' && payment.providerReference)
    await deps.payments.applyProviderStatus(
      payment.provider,
      payment.providerReference,
      status.state,
      status.state === 'failed' ? status.reason : null,
    );
  return (await deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
}

/**
 * A provider's error as the caller's: refused or unreachable; a terminal's details are logged
 * (where there is a logger; a provider's reason is never logged: it may echo input).
 */
export function providerFailure(logger: Logger | null, error: unknown): unknown {
  if (error instanceof TerminalError && logger)
    // Logged and passed on: the terminal's message and code hold no secret of ours.
    logger.warn({ terminal_error: error.details }, 'payment terminal error');
  if (error instanceof ProviderError)
    return new AppError(error.permanent ? 'payment_provider_refused' : 'payment_provider_error');
  return error;
}

/** A call to a provider whose failure reaches the caller as `providerFailure` says. */
export async function providerCall<T>(logger: Logger | null, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerFailure(logger, error);
  }
}

/** A payment moved by its provider only: of that provider and started there, else `not_found`. */
export function requireProviderPayment(payment: PaymentRow, provider: string): PaymentRow {
  if (payment.provider !== provider || !payment.providerReference)
    throw new AppError('not_found', 'payment_id');
  return payment;
}

/** A started sale's reply, the provider's id under the name its call gives it. */
export type SaleReply<K extends string> = {
  payment_id: string;
  amount: number;
  currency: string;
  status: PaymentRow['status'];
} & Record<K, string>;

/**
 * A sale started at a provider as the call answers it: our payment id, the provider's id under
 * the name the call gives it (`request_id`, `checkout_id`, `order_id`, `draft_order_id`), the
 * amount, currency and state.
 */
export function saleReply<K extends string>(
  started: { payment: PaymentRow; checkout: Checkout },
  providerIdName: K,
): SaleReply<K> {
  const { payment, checkout } = started;
  return {
    payment_id: payment.publicId,
    [providerIdName]: checkout.providerPaymentId,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
  } as SaleReply<K>;
}
