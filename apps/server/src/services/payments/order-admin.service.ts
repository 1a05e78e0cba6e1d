import { eventWallClock } from '@flashbulb/shared/rules/event-time';
import type { Endpoints, ParsedBodyOf } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import { orderForOwner } from '../../presenters/payment.presenter.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type { PaymentsProvider } from '../../repositories/payments/payments-provider.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import { type PaymentService } from './payment.service.ts';
import type { ProviderCheckouts } from './provider-checkout.service.ts';

/**
 * The operator's side of sales: an event's orders and payments with their
 * status, paid totals per day and per button, and refunds. Operators who manage the event only.
 */
export class OrderAdminService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      payments: PaymentService;
      paymentRows: PaymentRepository;
      /** The built-in test provider (null when configuration turned it off). */
      testProvider?: PaymentsProvider | null;
      /** Real providers (credentials per event). */
      providers?: ProviderCheckouts;
    },
  ) {}

  async list(principal: Principal, input: ParsedBodyOf<Endpoints['orderList']>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const rows = await this.deps.paymentRows.ordersOfEvent(event.row.id);
    const byDay = new Map<string, { amount: number; count: number }>();
    const byButton = new Map<string, { amount: number; count: number }>();
    let paidAmount = 0;
    let paidCount = 0;
    for (const { order } of rows) {
      if (order.status !== 'paid' || !order.paidAt) continue;
      paidAmount += order.amount;
      paidCount += 1;
      const add = (map: Map<string, { amount: number; count: number }>, key: string) => {
        const entry = map.get(key) ?? { amount: 0, count: 0 };
        map.set(key, { amount: entry.amount + order.amount, count: entry.count + 1 });
      };
      // The event's own day (its time zone): a sale at 00:30 local counts on that day.
      add(byDay, eventWallClock(event.row, order.paidAt).toISOString().slice(0, 10));
      add(byButton, order.buttonText);
    }
    return {
      orders: rows.map((row) => orderForOwner(row, row.order.currency)),
      currency: await this.deps.payments.currencyOf(event),
      totals: {
        paid_amount: paidAmount,
        paid_count: paidCount,
        by_day: [...byDay.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([day, t]) => ({ day, ...t })),
        by_button: [...byButton.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([button_text, t]) => ({ button_text, ...t })),
      },
    };
  }

  /**
   * Gives the money back at the payment's provider first; only when it says done is the payment
   * marked refunded (which re-locks). A provider that refuses or does not answer changes nothing
   * here. The provider call is idempotent by our payment id, so a retry after a lost answer
   * refunds once.
   */
  private async refundAtProvider(payment: PaymentRow): Promise<void> {
    let adapter: PaymentsProvider | null = null;
    let credentials: Record<string, string> = {};
    if (this.deps.testProvider && payment.provider === this.deps.testProvider.name)
      adapter = this.deps.testProvider;
    else if (this.deps.providers?.handles(payment.provider)) {
      const chosen = await this.deps.providers.forPayment(payment);
      // The event's credentials were removed since the sale: nothing can ask the provider.
      if (!chosen) throw new AppError('payment_provider_unavailable', 'payment_id');
      adapter = chosen.adapter;
      credentials = { ...chosen.credentials };
    }
    if (!adapter?.refund || !payment.providerReference)
      throw new AppError('payment_refund_unsupported', 'payment_id');
    try {
      await adapter.refund(payment.providerReference, credentials, payment.publicId);
    } catch (error) {
      if (error instanceof ProviderError)
        throw new AppError(error.permanent ? 'payment_provider_refused' : 'payment_provider_error');
      throw error;
    }
  }

  /** Refunds a paid payment of the event at its provider and records it (re-locking). */
  async refund(principal: Principal, input: ParsedBodyOf<Endpoints['refundPayment']>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const payment = await this.deps.paymentRows.paymentByPublicId(input.payment_id.trim());
    const order = payment ? await this.deps.paymentRows.orderById(payment.orderId) : undefined;
    if (!payment || !order || order.eventId !== event.row.id)
      throw new AppError('not_found', 'payment_id');
    if (payment.status !== 'paid' && payment.status !== 'refunded')
      throw new AppError('payment_not_paid', 'payment_id');
    if (payment.status === 'paid') await this.refundAtProvider(payment);
    const { payment: after } = await this.deps.payments.recordStatus(payment, 'refunded');
    return { payment_id: after.publicId, status: after.status };
  }
}
