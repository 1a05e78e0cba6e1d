import { createHmac, randomBytes } from 'node:crypto';
import { testCheckoutUrlAt } from '@flashbulb/shared';
import {
  ProviderError,
  sameSignature,
  signedInTime,
  webhookJson,
  type Checkout,
  type CheckoutRequest,
  type PaymentStatus,
  type PaymentsProvider,
  type RawWebhook,
  type VerifiedWebhook,
  type WebhookReceiver,
} from './payment-adapter.ts';

/**
 * The built-in test provider (DESIGN §1: the embedded default, so a fresh install can
 * sell end to end). It behaves like a real provider with its own checkout page: a card number
 * decides the outcome, and the result reaches us as a signed webhook through the same path real
 * providers use (`POST /api/webhooks/test`, docs/domains/providers.md).
 *
 * Test cards: `4242 4242 4242 4242` pays, `4000 0000 0000 0002` is declined; any other number is
 * refused as not a test card (nothing is reported).
 *
 * Signature: header `x-flashbulb-test-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`, keyed with a secret derived from the installation's secret; older than five
 * minutes (or from the future) is refused, so a captured webhook cannot be replayed later.
 */

export const TEST_PROVIDER = 'test';
export const TEST_SIGNATURE_HEADER = 'x-flashbulb-test-signature';
export const TEST_CARD_PAYS = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

export type TestCardOutcome = 'paid' | 'declined' | 'not_a_test_card';

/** Spaces and dashes in a typed card number do not matter. */
export const testCardOutcome = (cardNumber: string): TestCardOutcome => {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (digits === TEST_CARD_PAYS) return 'paid';
  if (digits === TEST_CARD_DECLINED) return 'declined';
  return 'not_a_test_card';
};

/** What the test provider says in a webhook body. */
interface TestWebhookBody {
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.cancelled';
  payment_reference: string;
  reason: string | null;
}

export class TestPaymentsAdapter implements PaymentsProvider, WebhookReceiver {
  readonly name = TEST_PROVIDER;
  readonly provider = TEST_PROVIDER;

  constructor(
    private readonly options: {
      /** HMAC key of the webhook signatures; never logged. */
      webhookSecret: Buffer;
      /** Where its checkout page lives: `<publicUrl>/pay/test/<payment id>`. */
      publicUrl: string;
      now: () => Date;
    },
  ) {}

  createCheckout(request: CheckoutRequest): Promise<Checkout> {
    // Our payment id is the idempotency key: the same id always answers the same checkout.
    return Promise.resolve({
      providerPaymentId: `tp_${request.paymentId}`,
      handle: {
        kind: 'qr',
        url: testCheckoutUrlAt(this.options.publicUrl, request.paymentId),
      },
      expiresAt: null,
    });
  }

  /** The test provider reports only by webhook; asked directly, it knows nothing new. */
  status(): Promise<PaymentStatus> {
    return Promise.resolve({ state: 'pending' });
  }

  /** Nothing to cancel on its side: a disabled link is refused by our state machine. */
  cancel(): Promise<void> {
    return Promise.resolve();
  }

  /** Refunds are instant with test cards: the money goes back to the test card, nothing to call. */
  refund(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * The provider's side of its checkout form: charges the test card and answers the webhook it
   * sends (signed), or refuses a number that is not a test card.
   */
  charge(providerPaymentId: string, cardNumber: string): RawWebhook {
    const outcome = testCardOutcome(cardNumber);
    if (outcome === 'not_a_test_card')
      throw ProviderError.permanent(TEST_PROVIDER, 'not a test card', 'card_invalid');
    return this.webhook({
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: outcome === 'paid' ? 'payment.succeeded' : 'payment.failed',
      payment_reference: providerPaymentId,
      reason: outcome === 'paid' ? null : 'card_declined',
    });
  }

  /** A signed webhook with the given body (also for tests that replay or reorder them). */
  webhook(body: TestWebhookBody, at: Date = this.options.now()): RawWebhook {
    const raw = Buffer.from(JSON.stringify(body));
    const t = Math.floor(at.getTime() / 1000);
    return {
      url: `${this.options.publicUrl}/api/webhooks/${TEST_PROVIDER}`,
      headers: {
        'content-type': 'application/json',
        [TEST_SIGNATURE_HEADER]: `t=${t},v1=${this.sign(t, raw)}`,
      },
      body: raw,
    };
  }

  verifyWebhook(request: RawWebhook): VerifiedWebhook | null {
    const header = request.headers[TEST_SIGNATURE_HEADER];
    if (typeof header !== 'string') return null;
    const parts = Object.fromEntries(
      header.split(',').map((part) => {
        const [k, ...v] = part.trim().split('=');
        return [k ?? '', v.join('=')];
      }),
    );
    const t = Number(parts.t);
    const given = Buffer.from(String(parts.v1 ?? ''), 'hex');
    if (!Number.isInteger(t)) return null;
    const expected = Buffer.from(this.sign(t, request.body), 'hex');
    if (!sameSignature(given, expected)) return null;
    if (!signedInTime(t * 1000, this.options.now())) return null;
    const body = webhookJson<Partial<TestWebhookBody>>(request);
    if (body === undefined) return null;
    if (typeof body.id !== 'string' || typeof body.payment_reference !== 'string') return null;
    const status =
      body.type === 'payment.succeeded'
        ? 'paid'
        : body.type === 'payment.failed'
          ? 'failed'
          : body.type === 'payment.cancelled'
            ? 'cancelled'
            : null;
    if (!status) return { providerEventId: body.id, effect: { kind: 'ignored' } };
    return {
      providerEventId: body.id,
      effect: {
        kind: 'payment.status',
        providerPaymentId: body.payment_reference,
        status,
        reason: typeof body.reason === 'string' ? body.reason : null,
      },
    };
  }

  private sign(t: number, body: Buffer): string {
    return createHmac('sha256', this.options.webhookSecret)
      .update(`${t}.`)
      .update(body)
      .digest('hex');
  }
}
