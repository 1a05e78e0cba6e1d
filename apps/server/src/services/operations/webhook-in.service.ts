import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { OutboxRepository } from '../../repositories/messaging/outbox.repository.ts';
import type { WebhookEventRepository } from '../../repositories/operations/webhook-event.repository.ts';
import type {
  RawWebhook,
  WebhookReceiver,
} from '../../repositories/operations/webhook-receiver.ts';

/** Applies a payment provider's report (PaymentService.applyProviderStatus). */
export type PaymentStatusHandler = (
  provider: string,
  providerPaymentId: string,
  status: 'paid' | 'failed' | 'cancelled' | 'expired' | 'refunded',
  reason: string | null,
) => Promise<unknown>;

export interface WebhookDeps {
  /** The configured adapters that take webhooks, by provider name. */
  receivers: ReadonlyMap<string, WebhookReceiver>;
  events: WebhookEventRepository;
  outbox: OutboxRepository;
  logger: Logger;
}

/**
 * `POST /api/webhooks/:provider`: the provider's adapter verifies the signature; the provider's
 * event id is recorded and the effect applied in one short transaction, so a replayed or
 * duplicated webhook changes state once. No access check beyond the signature: the provider is
 * the caller, and the signature is its proof.
 */
export class WebhookService {
  private paymentStatus: PaymentStatusHandler | null = null;

  private readonly receivers: Map<string, WebhookReceiver>;

  constructor(private readonly deps: WebhookDeps) {
    this.receivers = new Map(deps.receivers);
  }

  /** Adds a receiver wired after messaging (the built-in test payment provider). */
  registerReceiver(receiver: WebhookReceiver): void {
    this.receivers.set(receiver.provider, receiver);
  }

  /** The payments service takes `payment.status` effects (wired after both exist). */
  handlePaymentStatus(handler: PaymentStatusHandler): void {
    this.paymentStatus = handler;
  }

  async receive(provider: string, request: RawWebhook): Promise<{ duplicate: boolean }> {
    const receiver = this.receivers.get(provider);
    // Unknown, or known but not configured here: nobody may post to it.
    if (!receiver) throw new AppError('not_found');
    const verified = await receiver.verifyWebhook(request);
    if (!verified) {
      this.deps.logger.warn({ provider }, 'webhook refused: signature missing or wrong');
      throw new AppError('forbidden');
    }
    const { effect, providerEventId } = verified;
    // Payment reports are applied before the event id is recorded, outside its transaction: the
    // payment state machine is their guard (a repeat is a no-op, docs/adr/0008-payments.md), and
    // a crash between the two then means a redelivery applies it, never that it is lost.
    if (effect.kind === 'payment.status') {
      if (!this.paymentStatus) throw new AppError('not_found');
      await this.paymentStatus(provider, effect.providerPaymentId, effect.status, effect.reason);
    }
    const fresh = await this.deps.events.recordOnce(
      provider,
      providerEventId,
      effect.kind,
      async (tx) => {
        switch (effect.kind) {
          case 'message.status':
            if (effect.status)
              await this.deps.outbox.applyDeliveryReport(tx, {
                provider,
                outboxId: effect.outboxId,
                providerMessageId: effect.providerMessageId,
                status: effect.status,
                reason: effect.reason,
              });
            return;
          case 'payment.status':
          case 'ignored':
            return;
          default: {
            // A new kind of effect (payments, prints …) must be applied here: it does not compile until it is.
            const unhandled: never = effect;
            throw new Error(`unhandled webhook effect ${JSON.stringify(unhandled)}`);
          }
        }
      },
    );
    this.deps.logger.info({ provider, kind: effect.kind, duplicate: !fresh }, 'webhook received');
    return { duplicate: !fresh };
  }
}
