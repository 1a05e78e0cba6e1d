import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type { PaymentStatus } from '../../repositories/payments/payments-provider.ts';
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

/** A provider's error as the caller's: refused or unreachable; a terminal's details are logged. */
export function providerFailure(logger: Logger, error: unknown): unknown {
  if (error instanceof TerminalError)
    // Logged and passed on: the terminal's message and code hold no secret of ours.
    logger.warn({ terminal_error: error.details }, 'payment terminal error');
  if (error instanceof ProviderError)
    return new AppError(error.permanent ? 'payment_provider_refused' : 'payment_provider_error');
  return error;
}
