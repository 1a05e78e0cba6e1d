// Why this file is long: one state machine, an order and its payments from pending to paid,
// expired or refunded, with what each step sets off (unlocks, prints, missed fulfilments). Its
// transitions are read in one place so that no path confirms or refunds twice.
import { centsToMinor, DEFAULT_CURRENCY } from '@flashbulb/shared';
import { randomBytes } from 'node:crypto';
import {
  eventButtonPriceCents,
  paymentTransition,
  type PaymentStatusName,
  type PaymentTransition,
  type PricingButton,
} from '@flashbulb/shared';
import { attendeePriceType } from '../../access/payments-rules.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AttendeeRecord } from '../../repositories/attendees/attendee.repository.ts';
import { WHOLE_ALBUM } from '../../repositories/payments/attendee-unlock.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type {
  OrderRow,
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type { UnlockService } from './unlock.service.ts';
import { comboBlocks, purchaseHistory, type PurchaseHistory } from './selling-rules.ts';

/** A checkout left unpaid this long is `expired` (the QR code at the kiosk is long gone). */
export const PAYMENT_PENDING_MINUTES = 30;

/**
 * Albums spec §9: tax 0, quantity 1. The currency is the organisation's (ISO 4217, default USD),
 * fixed on the order when it is made.
 */
export const DEFAULT_ORDER_CURRENCY = DEFAULT_CURRENCY;

/** A confirmation younger than this may still be running its effects: the sweep leaves it be. */
export const FULFIL_GRACE_SECONDS = 60;

/** The `payment.confirmed` domain event: a provider said the money is ours. */
export interface PaymentConfirmed {
  paymentId: number;
  orderId: number;
  eventId: number;
  attendeeId: number;
  amount: number;
  currency: string;
}

/** What an order sells: a pricing button of the event, the photos, and what follows the payment. */
export interface OrderSale {
  pricingButtonIndex: number;
  /** The photos chosen, or `all` for the attendee's album of this event. */
  photoUids: string[] | 'all';
  /** How many photos that is (the album's count for `all`). */
  photoCount: number;
  /** For `all` with a button that prints: the album's photos, which are printed. */
  albumPhotoUids?: string[];
  /** A purchase from a public or private album: the photos the buyer's album receives once paid. */
  attach?: string[];
  /**
   * Prints printed as soon as the order is paid (bought on the guest's own album page); false:
   * bought at a kiosk, whose print step prints them when the guest presses "Print".
   */
  printOnPayment?: boolean;
}

/** Unguessable public payment ids (`pay_` + 26 base-32 characters, 130 bits). */
const newPublicId = (): string => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  let id = 'pay_';
  for (const byte of bytes) id += alphabet[byte % 32];
  return id;
};

/**
 * What an unlock covers once an order is paid: the whole album, the attendee's tagged part
 * (`tag:<tag>`), or the listed photos (`photo:<uid>`). Read by UnlockService; the album reads honour
 * `*` so far (docs/domains/payments.md lists what is left).
 */
export const unlockScopesOf = (order: Pick<OrderRow, 'items' | 'partialUnlockTag'>): string[] => {
  if (order.partialUnlockTag) return [`tag:${order.partialUnlockTag}`];
  if (order.items.digitals === 'all') return [WHOLE_ALBUM];
  return order.items.digitals.map((uid) => `photo:${uid}`);
};

/**
 * Orders and payments. Callers (the payment endpoints) check access first; this service
 * holds the rules: the price comes from the event's pricing button, never from the client; every
 * create is idempotent by the client's request id; a payment's status only moves forward
 * (`paymentTransition`), applied with compare-and-set so racing reports change it once; and only a
 * move to `paid` — a provider's confirmation — unlocks anything.
 */
export class PaymentService {
  private readonly confirmedHandlers: ((event: PaymentConfirmed) => Promise<void>)[] = [];
  private readonly refundedHandlers: ((event: {
    paymentId: number;
    eventId: number;
  }) => Promise<void>)[] = [];

  constructor(
    private readonly deps: {
      payments: PaymentRepository;
      unlocks: UnlockService;
      clock: Clock;
      /** The organisation's currency (organisations.currency); USD without it. */
      currencies?: { currencyOf(organisationId: number): Promise<string> };
    },
  ) {
    // The album unlock and the order's prints subscribe to `payment.confirmed` (so does the receipt).
    this.onPaymentConfirmed((event) => this.unlockPaidOrder(event));
    this.onPaymentConfirmed((event) => this.printPaidOrder(event));
  }

  /** Subscribes to `payment.confirmed` (moves to the issue-9 bus once it lands in main). */
  onPaymentConfirmed(handler: (event: PaymentConfirmed) => Promise<void>): void {
    this.confirmedHandlers.push(handler);
  }

  /** Subscribes to refunds (after the order is marked refunded and its unlocks locked again). */
  onPaymentRefunded(handler: (event: { paymentId: number; eventId: number }) => Promise<void>) {
    this.refundedHandlers.push(handler);
  }

  /** The currency the event sells in: its organisation's. */
  async currencyOf(event: EventRecord): Promise<string> {
    return (
      (await this.deps.currencies?.currencyOf(event.row.organisationId)) ?? DEFAULT_ORDER_CURRENCY
    );
  }

  /**
   * What an order of pricing button `pricingButtonIndex` sells and costs, or the refusal: checked
   * before anything is stored (a purchase from an album checks it before making the buyer's album).
   */
  priceOrder(input: {
    event: EventRecord;
    pricingButtonIndex: number;
    photoUids: string[] | 'all';
    photoCount: number;
    albumPhotoUids?: string[];
    userType: 1 | 2;
    /** The amount comes in this currency's minor unit (a formula's ¥1,250 is 1250). */
    currency: string;
  }): { button: PricingButton; prints: string[]; cents: number } {
    const { event } = input;
    if (event.row.is_free === 1) throw new AppError('invalid_value', 'pricing_button_index');
    // Events stored before pricing buttons existed have none in their opts.
    const button = (event.row.opts.pricingButtons ?? [])[input.pricingButtonIndex];
    if (!button) throw new AppError('invalid_value', 'pricing_button_index');
    // A button selling prints: the chosen photos (or the whole album) are printed once paid, so
    // printing must be on and the photos within the event's print maximum before anyone pays.
    const prints = button.prints
      ? input.photoUids === 'all'
        ? (input.albumPhotoUids ?? [])
        : input.photoUids
      : [];
    if (button.prints && event.row.is_photo_printer_active !== 1)
      throw new AppError('printing_not_active', 'pricing_button_index');
    if (prints.length > event.row.max_print_photos_count)
      throw new AppError('per_request_count_error', 'photo_uids');
    const price = eventButtonPriceCents(button, event.row.opts, input.photoCount, input.userType);
    if (!price.ok) throw new AppError(price.key, 'pricing_button_index');
    return { button, prints, cents: centsToMinor(price.cents, input.currency) };
  }

  /** What the attendee bought at the event so far (paid orders, the desk's unlock). */
  async purchaseHistoryOf(
    event: EventRecord,
    attendee: Pick<AttendeeRecord, 'row' | 'unlockedEventIds'> | null,
  ): Promise<PurchaseHistory> {
    if (!attendee) return purchaseHistory([], false);
    return purchaseHistory(
      await this.deps.payments.paidOrders(attendee.row.id, event.row.id),
      attendee.unlockedEventIds?.includes(event.row.id) ?? false,
    );
  }

  /**
   * "Combo required" (`opts.comboRequired`): a button selling prints without the digitals is
   * refused (`combo_digital_required`) until the buyer bought digitals at the event. `attendee`
   * null: a buyer without an album yet, who bought nothing.
   */
  async requireCombo(
    event: EventRecord,
    attendee: Pick<AttendeeRecord, 'row' | 'unlockedEventIds'> | null,
    button: Pick<PricingButton, 'digitals' | 'prints'>,
  ): Promise<void> {
    if (event.row.opts.comboRequired !== 1 || !button.prints || button.digitals) return;
    if (comboBlocks(event.row.opts, button, await this.purchaseHistoryOf(event, attendee)))
      throw new AppError('combo_digital_required', 'pricing_button_index');
  }

  /**
   * An order for pricing button `pricingButtonIndex` of the event: what it sells and its amount in
   * cents, fixed now. The same `clientRequestId` again answers the first order unchanged.
   */
  async createOrder(
    input: OrderSale & { event: EventRecord; attendee: AttendeeRecord; clientRequestId: string },
  ): Promise<{ order: OrderRow; created: boolean }> {
    const { event, attendee } = input;
    const currency = await this.currencyOf(event);
    const { button, prints, cents } = this.priceOrder({
      ...input,
      currency,
      userType: attendeePriceType(attendee, event),
    });
    await this.requireCombo(event, attendee, button);
    return this.deps.payments.insertOrderOrGet({
      eventId: event.row.id,
      attendeeId: attendee.row.id,
      pricingButtonIndex: input.pricingButtonIndex,
      buttonText: button.buttonText,
      items: {
        digitals: button.digitals ? input.photoUids : [],
        prints,
        printsPool: button.prints ? button.printsPool.trim() || null : null,
        ...(input.attach ? { attach: input.attach } : {}),
        ...(button.prints ? { printOnPayment: input.printOnPayment ?? true } : {}),
      },
      partialUnlockTag: button.partialUnlockTags ? attendee.row.partialUnlockTag : null,
      amount: cents,
      currency,
      status: 'open',
      clientRequestId: input.clientRequestId,
      createdAt: this.deps.clock.now(),
    });
  }

  /** A pending payment of the order through `provider`; idempotent by `clientRequestId`. */
  async createPayment(
    order: OrderRow,
    provider: string,
    clientRequestId: string,
  ): Promise<{ payment: PaymentRow; created: boolean }> {
    if (order.status !== 'open') {
      // A retried start of a sale that went through meanwhile answers that payment as it stands.
      const earlier = await this.deps.payments.paymentOfRequest(order.id, clientRequestId);
      if (earlier) return { payment: earlier, created: false };
      throw new AppError('invalid_value', 'payment_id');
    }
    const now = this.deps.clock.now();
    return this.deps.payments.insertPaymentOrGet({
      publicId: newPublicId(),
      orderId: order.id,
      provider,
      providerReference: null,
      status: 'pending',
      amount: order.amount,
      currency: order.currency,
      clientRequestId,
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * A provider's word on a payment (a verified webhook, a status poll). Forward moves apply once;
   * a repeat is `same`, a backward or sideways report `refused`; neither changes anything. A move
   * to `paid` raises `payment.confirmed`.
   */
  async recordStatus(
    payment: PaymentRow,
    to: PaymentStatusName,
    details: { failureReason?: string | null } = {},
  ): Promise<{ payment: PaymentRow; transition: PaymentTransition }> {
    const transition = paymentTransition(payment.status, to);
    if (transition.kind !== 'move') return { payment, transition };
    const moved = await this.deps.payments.movePayment(payment.id, payment.status, to, {
      now: this.deps.clock.now(),
      ...(details.failureReason !== undefined ? { failureReason: details.failureReason } : {}),
    });
    if (!moved) {
      // Another report moved it first: judge ours against where it is now.
      const current = await this.deps.payments.paymentByPublicId(payment.publicId);
      if (!current) throw new AppError('not_found', 'payment_id');
      return this.recordStatus(current, to, details);
    }
    if (to === 'paid') await this.confirmed(moved);
    if (to === 'refunded') await this.refunded(moved);
    return { payment: moved, transition };
  }

  /** The `payments.expire` job: pending payments older than PAYMENT_PENDING_MINUTES expire. */
  async expireStale(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - PAYMENT_PENDING_MINUTES * 60_000);
    let expired = 0;
    for (;;) {
      const batch = await this.deps.payments.stalePending(before, 100);
      for (const payment of batch) {
        const { transition } = await this.recordStatus(payment, 'expired');
        if (transition.kind === 'move') expired += 1;
      }
      if (batch.length < 100) return expired;
    }
  }

  /**
   * A verified provider report (webhook effect `payment.status`): applied through the state
   * machine, so a replay, a duplicate or a report out of order changes the payment at most once.
   * A report about a payment we do not know is ignored.
   */
  async applyProviderStatus(
    provider: string,
    providerPaymentId: string,
    status: PaymentStatusName,
    reason: string | null,
  ): Promise<PaymentTransition | null> {
    const payment = await this.deps.payments.paymentByProviderReference(
      provider,
      providerPaymentId,
    );
    if (!payment) return null;
    const { transition } = await this.recordStatus(payment, status, {
      ...(status === 'failed' ? { failureReason: reason } : {}),
    });
    return transition;
  }

  private async confirmed(payment: PaymentRow): Promise<void> {
    const order = await this.deps.payments.orderById(payment.orderId);
    if (!order) throw new Error(`payment ${payment.id} has no order`);
    await this.deps.payments.setOrderStatus(order.id, 'paid', this.deps.clock.now());
    const event: PaymentConfirmed = {
      paymentId: payment.id,
      orderId: order.id,
      eventId: order.eventId,
      attendeeId: order.attendeeId,
      amount: payment.amount,
      currency: payment.currency,
    };
    for (const handler of this.confirmedHandlers) await handler(event);
    // Every effect is idempotent (the first unlock stands, one print request per order, one
    // receipt per payment): marked only once all ran, so a crash before here is redone.
    await this.deps.payments.markFulfilled(payment.id, this.deps.clock.now());
  }

  /**
   * The `payments.fulfil` job: a payment confirmed by its provider whose unlock, prints or receipt
   * never completed (the process died between the confirmation and them; a replayed webhook is
   * `same` and would not redo them) gets them now. Answers how many payments were redone.
   */
  async fulfilMissed(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - FULFIL_GRACE_SECONDS * 1000);
    let redone = 0;
    for (;;) {
      const batch = await this.deps.payments.unfulfilledPaid(before, 50);
      for (const payment of batch) {
        await this.confirmed(payment);
        redone += 1;
      }
      if (batch.length < 50) return redone;
    }
  }

  /**
   * A refund locks again what the payment unlocked; what another paid order of the attendee at the
   * event covers stays open (it is unlocked again in that order's name).
   */
  private async refunded(payment: PaymentRow): Promise<void> {
    const order = await this.deps.payments.orderById(payment.orderId);
    if (!order) return;
    await this.deps.payments.setOrderStatus(order.id, 'refunded', this.deps.clock.now());
    await this.deps.unlocks.relockPayment(payment.id);
    for (const other of await this.deps.payments.otherPaidOrders(
      order.attendeeId,
      order.eventId,
      order.id,
    )) {
      await this.unlockPaidOrder({
        paymentId: other.payment.id,
        orderId: other.order.id,
        eventId: other.order.eventId,
        attendeeId: other.order.attendeeId,
        amount: other.payment.amount,
        currency: other.payment.currency,
      });
    }
    for (const handler of this.refundedHandlers)
      await handler({ paymentId: payment.id, eventId: order.eventId });
  }

  /**
   * The paid order's prints go to the printing service: one stored print request per order (its
   * id is the order's), however many payments of it are confirmed. A refund later prints nothing
   * back: paper already printed stays printed.
   */
  private async printPaidOrder(event: PaymentConfirmed): Promise<void> {
    const order = await this.deps.payments.orderById(event.orderId);
    if (!order || order.items.prints.length === 0) return;
    // Bought at a kiosk: the guest prints them there (orders.prints_used counts them).
    if (order.items.printOnPayment === false) return;
    await this.deps.unlocks.printPaidOrder(order);
  }

  private async unlockPaidOrder(event: PaymentConfirmed): Promise<void> {
    const order = await this.deps.payments.orderById(event.orderId);
    if (!order) return;
    for (const scope of unlockScopesOf(order)) {
      await this.deps.unlocks.unlock({
        attendeeId: order.attendeeId,
        eventId: order.eventId,
        scope,
        source: 'payment',
        employeeName: null,
        paymentId: event.paymentId,
      });
    }
  }
}
