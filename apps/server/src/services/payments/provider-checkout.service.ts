import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SecureField } from '@flashbulb/shared';
import type { Clock } from '../../lib/clock.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { EventProviderCredentials } from '../../repositories/provider-credentials.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type {
  PaymentCredentials,
  PaymentStatus,
  PaymentsProvider,
} from '../../repositories/payments/payments-provider.ts';
import { PAYPAL_PROVIDER, type PayPalAdapter } from '../../repositories/payments/paypal.adapter.ts';
import { TERMINAL_PROVIDER } from '../../repositories/payments/terminal.adapter.ts';
import {
  SHOPIFY_PROVIDER,
  type ShopifyAdapter,
} from '../../repositories/payments/shopify.adapter.ts';
import {
  SQUARE_MINIMUM_CENTS,
  SQUARE_PROVIDER,
  type SquareAdapter,
} from '../../repositories/payments/square.adapter.ts';
import {
  STRIPE_MINIMUM_CENTS,
  STRIPE_PROVIDER,
} from '../../repositories/payments/stripe.adapter.ts';
import type { PaymentService } from './payment.service.ts';

/** A real provider an event can sell through: its adapter, the credentials it needs, its minimum. */
interface ProviderEntry {
  adapter: PaymentsProvider;
  /** The event's secure field → the adapter's credential name. */
  fields: Readonly<Partial<Record<SecureField, string>>>;
  minimumCents: number;
  /**
   * Whether an event's QR checkout may pick it by its credentials (false for providers with
   * their own calls and global settings: PayPal's card checkout, the payment terminal).
   */
  selectable?: boolean;
  /** Whether the event's `shopDomain` opt joins the credentials as `shop` (Shopify). */
  shopDomain?: boolean;
  /** How reconciliation asks it (default: `adapter.status`); PayPal captures an approved order. */
  settle?: (providerPaymentId: string) => Promise<PaymentStatus>;
}

/** A provider chosen for one event, with its decrypted credentials (never kept, logged or shown). */
export interface EventProvider {
  adapter: PaymentsProvider;
  credentials: PaymentCredentials;
  minimumCents: number;
}

/** Minutes a payment stays pending before the reconciliation job asks its provider. */
export const RECONCILE_AFTER_MINUTES = 2;

/**
 * Real payment providers per event: which one an event sells through (the first whose
 * credentials the event carries, e.g. `stripe_secret_key` → Stripe Checkout), and the
 * reconciliation of payments still pending after a few minutes (a lost webhook must never strand
 * a paid guest): the provider's word is applied through the same state machine as a webhook.
 */
export class ProviderCheckouts {
  private readonly entries: Map<string, ProviderEntry>;

  constructor(
    private readonly deps: {
      stripe: PaymentsProvider | null;
      /** PayPal card checkout and the payment terminal: reconciled, never QR-selected. */
      paypal?: PayPalAdapter | null;
      terminal?: PaymentsProvider | null;
      /** Square card readers at the kiosk (the event's `square_access_token`). */
      square?: SquareAdapter | null;
      /** Shopify draft orders (the event's shop domain and `shopify_api_pass`). */
      shopify?: ShopifyAdapter | null;
      credentials: EventProviderCredentials;
      /** Events by id (Shopify's shop domain is an event opt). */
      events?: EventRepository;
      paymentRows: PaymentRepository;
      payments: PaymentService;
      clock: Clock;
      logger: Logger;
    },
  ) {
    this.entries = new Map();
    if (deps.stripe)
      this.entries.set(STRIPE_PROVIDER, {
        adapter: deps.stripe,
        fields: { stripe_secret_key: 'secret_key' },
        minimumCents: STRIPE_MINIMUM_CENTS,
      });
    const paypal = deps.paypal;
    if (paypal)
      this.entries.set(PAYPAL_PROVIDER, {
        adapter: paypal,
        fields: {},
        minimumCents: 1,
        selectable: false,
        settle: (id) => paypal.settle(id),
      });
    if (deps.square)
      this.entries.set(SQUARE_PROVIDER, {
        adapter: deps.square,
        fields: { square_access_token: 'access_token' },
        minimumCents: SQUARE_MINIMUM_CENTS,
        selectable: false,
      });
    if (deps.shopify)
      this.entries.set(SHOPIFY_PROVIDER, {
        adapter: deps.shopify,
        fields: { shopify_api_pass: 'access_token' },
        minimumCents: 1,
        selectable: false,
        shopDomain: true,
      });
    if (deps.terminal)
      this.entries.set(TERMINAL_PROVIDER, {
        adapter: deps.terminal,
        fields: {},
        minimumCents: 1,
        selectable: false,
      });
  }

  /** Whether payments of this provider are ours to reconcile and cancel. */
  handles(provider: string): boolean {
    return this.entries.has(provider);
  }

  private async credentialsOf(
    eventId: number,
    entry: ProviderEntry,
  ): Promise<PaymentCredentials | null> {
    if (entry.shopDomain) {
      // Shopify is a pair: the event's shop and token, else its organisation's connection.
      const pair = await this.deps.credentials.shopify(eventId);
      return pair ? { access_token: pair.access_token, shop: pair.shop } : null;
    }
    const fields = Object.keys(entry.fields) as SecureField[];
    const values = await this.deps.credentials.read(eventId, fields);
    const out: Record<string, string> = {};
    for (const field of fields) {
      const value = values[field]?.trim();
      if (!value) return null;
      out[entry.fields[field]!] = value;
    }
    return out;
  }

  /** An event's credentials for one provider (its secure fields), or null when one is missing. */
  async eventCredentials(eventId: number, provider: string): Promise<EventProvider | null> {
    const entry = this.entries.get(provider);
    if (!entry) return null;
    const credentials = await this.credentialsOf(eventId, entry);
    return credentials
      ? { adapter: entry.adapter, credentials, minimumCents: entry.minimumCents }
      : null;
  }

  /**
   * Whether a real provider is configured for the event: one whose credentials it carries
   * (Stripe, Square, Shopify: its own secure fields or its organisation's connection). Such an
   * event never sells through the built-in test provider, even where the QR checkout has no real
   * provider. (PayPal and the payment terminal are install-wide settings, not an event's.)
   */
  async sellsForReal(event: EventRecord): Promise<boolean> {
    for (const entry of this.entries.values()) {
      if (Object.keys(entry.fields).length === 0 && !entry.shopDomain) continue;
      if (await this.credentialsOf(event.row.id, entry)) return true;
    }
    return false;
  }

  /** The real provider the QR checkout sells the event through, or null. */
  async forEvent(event: EventRecord): Promise<EventProvider | null> {
    for (const entry of this.entries.values()) {
      if (entry.selectable === false) continue;
      const credentials = await this.credentialsOf(event.row.id, entry);
      if (credentials)
        return { adapter: entry.adapter, credentials, minimumCents: entry.minimumCents };
    }
    return null;
  }

  /** The provider and credentials of a stored payment (its order's event), or null. */
  async forPayment(payment: PaymentRow): Promise<EventProvider | null> {
    const entry = this.entries.get(payment.provider);
    if (!entry) return null;
    const order = await this.deps.paymentRows.orderById(payment.orderId);
    if (!order) return null;
    const credentials = await this.credentialsOf(order.eventId, entry);
    return credentials
      ? { adapter: entry.adapter, credentials, minimumCents: entry.minimumCents }
      : null;
  }

  /** Applies a provider's answer about a payment through the state machine. */
  private async apply(payment: PaymentRow, status: PaymentStatus): Promise<boolean> {
    if (status.state === 'pending' || !payment.providerReference) return false;
    const transition = await this.deps.payments.applyProviderStatus(
      payment.provider,
      payment.providerReference,
      status.state,
      status.state === 'failed' ? status.reason : null,
    );
    return transition?.kind === 'move';
  }

  /** Asks the provider about one payment and applies its answer; false when it could not be asked. */
  async refresh(payment: PaymentRow): Promise<boolean> {
    const chosen = await this.forPayment(payment);
    if (!chosen || !payment.providerReference) return false;
    const settle = this.entries.get(payment.provider)?.settle;
    const status = settle
      ? await settle(payment.providerReference)
      : await chosen.adapter.status(payment.providerReference, chosen.credentials);
    return this.apply(payment, status);
  }

  /**
   * The `payments.reconcile` job: every payment of a real provider pending for over
   * RECONCILE_AFTER_MINUTES is asked about; answers move it once (a webhook arriving too is then a
   * no-op). A provider that does not answer is asked again on the next run.
   */
  async reconcilePending(): Promise<{ checked: number; moved: number }> {
    const before = new Date(this.deps.clock.now().getTime() - RECONCILE_AFTER_MINUTES * 60_000);
    let checked = 0;
    let moved = 0;
    for (const provider of this.entries.keys()) {
      let afterId = 0;
      for (;;) {
        const batch = await this.deps.paymentRows.pendingOfProvider(provider, before, afterId, 50);
        for (const payment of batch) {
          afterId = payment.id;
          checked += 1;
          try {
            if (await this.refresh(payment)) moved += 1;
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            // The reason is the provider's answer, never a credential (adapters build it so).
            this.deps.logger.warn(
              { provider, payment: payment.publicId, reason: error.message, code: error.code },
              'payment reconciliation: provider did not answer',
            );
          }
        }
        if (batch.length < 50) break;
      }
    }
    return { checked, moved };
  }
}
