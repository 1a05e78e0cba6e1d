import {
  ATTENDEE_ID_LENGTH,
  ATTENDEE_PRIVATE_ID_LENGTH,
  eventButtonPriceCents,
  formatAttendeeId,
} from '@flashbulb/shared';
import type { EventGrant } from '../../access/access-control.ts';
import { attendeePriceType } from '../../access/payments-rules.ts';
import type { Principal } from '../../access/principal.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { OrderRow, PaymentRow } from '../../repositories/payments/payment.repository.ts';
import type { PhotoFilter, PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import { attachPhotos, randomCode } from '../attendees/attendee-support.ts';
import type { SaleDeps } from './checkout.service.ts';
import { requireProviderPayment } from './provider-state.ts';
import { comboBlocks, purchaseHistory } from './selling-rules.ts';
import { offeredMethods, paypalScriptUrl, requireOffered } from './payment-methods.ts';
import type { PaymentMethod } from '@flashbulb/shared';
import type { PaymentsProvider } from '../../repositories/payments/payments-provider.ts';
import type { QrProvider } from './checkout.service.ts';
import { type PaymentConfirmed } from './payment.service.ts';
import { centsToMinor } from '@flashbulb/shared';

/** The most photos one purchase of "the whole event" covers (the price's photo count allows as many). */
export const ALBUM_PURCHASE_MAX_PHOTOS = 10_000;

/**
 * Days an unpaid buyer's album is kept before the clean-up removes it. Longer than any provider
 * keeps a checkout payable or retries its confirmation (Stripe: sessions 24 h, webhooks 3 days),
 * so a late confirmation — which we honour — never finds its album gone.
 */
export const UNPAID_BUYER_ALBUM_DAYS = 7;
/** Albums removed per statement of the clean-up. */
const CLEANUP_BATCH = 500;

/**
 * Buying from a public or private album of a paid event. The guest has no album of their own, so
 * the purchase makes one: a personal attendee album of the event's organisation (or the one an
 * earlier purchase on the device made, `buyer_album_uid`), which is the order's attendee. The
 * bought photos are put into it and open (the order's unlock) only when the provider confirms
 * (`payment.confirmed`); until then the album is empty and the status call names no album. The
 * receipt e-mail (ReceiptService) carries the album's link; the paid screen shows it.
 */
export class AlbumPurchaseService {
  constructor(
    private readonly deps: SaleDeps & {
      attendees: AttendeeRepository;
      events: Pick<EventRepository, 'findById'>;
      photos: PhotoRepository;
      albums: AlbumRepository;
      clock: Clock;
      publicUrl: string;
      bus?: SignalEmitter;
      /** PayPal's card form where PayPal is set up (its script's client id and address). */
      paypalCard?: { clientId: string; sdkUrl: string } | null;
    },
  ) {}

  /**
   * Job `payments.buyer-albums-cleanup`: removes the personal albums purchases made that nobody paid
   * for within UNPAID_BUYER_ALBUM_DAYS (declined, cancelled, expired or abandoned checkouts), with
   * their orders and payments. Never an album with a paid or refunded payment, one still pending,
   * or one holding anything (photos, favourites, selfies, unlocks, prints); never a generated or
   * uploaded attendee. Idempotent: a second run finds nothing. Answers how many were removed.
   */
  async removeUnpaidAlbums(now: Date = this.deps.clock.now()): Promise<number> {
    const before = new Date(now.getTime() - UNPAID_BUYER_ALBUM_DAYS * 86_400_000);
    let removed = 0;
    for (;;) {
      const ids = await this.deps.paymentRows.deleteUnpaidBuyerAlbums(before, CLEANUP_BATCH);
      removed += ids.length;
      if (ids.length < CLEANUP_BATCH) return removed;
    }
  }

  private grantOf(principal: Principal): Promise<EventGrant> {
    return this.deps.access.requireEventAccess(principal, 'payment.album_purchase', {
      keyEvent: true,
    });
  }

  /** The photos the key's album shows now (the public key: within the event's stream window). */
  private visibleFilter(grant: EventGrant): PhotoFilter {
    const now = this.deps.clock.now();
    const minutes = grant.event.row.photo_stream_available_minutes;
    return {
      eventId: grant.event.row.id,
      publishedOnly: true,
      now,
      ...(grant.audience === 'public' && minutes !== null
        ? { createdAfter: new Date(now.getTime() - minutes * 60_000) }
        : {}),
    };
  }

  async pricing(principal: Principal, input: KeylessBody<'albumPurchasePricing'>) {
    const grant = await this.grantOf(principal);
    const event = grant.event;
    const photoCount =
      input.photo_count ??
      Math.min(await this.deps.photos.count(this.visibleFilter(grant)), ALBUM_PURCHASE_MAX_PHOTOS);
    const opts = event.row.opts;
    const hide = opts.hideProductPrice === 1;
    const currency = await this.deps.payments.currencyOf(event);
    const methods = offeredMethods(principal, event);
    const card = methods.includes('paypal') ? this.deps.paypalCard : null;
    return {
      is_free: event.row.is_free === 1 ? (1 as const) : (0 as const),
      currency,
      photo_count: photoCount,
      methods,
      card_script_url: card ? paypalScriptUrl(card.sdkUrl, card.clientId, currency) : '',
      digital_message: opts.digitalProductMessage ?? '',
      max_print_photos: event.row.max_print_photos_count,
      buttons:
        event.row.is_free === 1
          ? []
          : (opts.pricingButtons ?? []).flatMap((button, index) => {
              // A button selling prints where the event does not print would be refused
              // (`printing_not_active`): not offered. Each keeps its index in the event's list.
              if (button.prints && event.row.is_photo_printer_active !== 1) return [];
              // A buyer without an album yet pays the regular price (no VIP id).
              const price = eventButtonPriceCents(button, opts, photoCount, 1);
              return [
                {
                  index,
                  button_text: button.buttonText,
                  digitals: button.digitals,
                  prints: button.prints,
                  amount: hide || !price.ok ? null : centsToMinor(price.cents, currency),
                  // A buyer here has bought nothing yet (the album a purchase makes is new).
                  requires_digital: comboBlocks(opts, button, purchaseHistory([], false)),
                },
              ];
            }),
    };
  }

  /** The chosen photos, each one the key's album shows now, else `not_found`; or all of them. */
  private async photosBought(grant: EventGrant, chosen: readonly string[] | undefined) {
    if (!chosen) {
      const rows = await this.deps.photos.list(
        this.visibleFilter(grant),
        ALBUM_PURCHASE_MAX_PHOTOS,
        0,
      );
      if (rows.length === 0) throw new AppError('photos_required', 'photo_uids');
      return { whole: true, uids: rows.map((row) => row.uid) };
    }
    const uids = [...new Set(chosen)];
    const rows = await this.deps.albums.photosByUids(grant.event.row.id, uids);
    const now = this.deps.clock.now();
    if (
      rows.length !== uids.length ||
      rows.some((row) => !albumDecision(row, grant.event.row, grant.audience, now).show)
    )
      throw new AppError('not_found', 'photo_uids');
    return { whole: false, uids };
  }

  /**
   * The personal album an earlier purchase on this device made, when it is still open and of the
   * key's event; else none (a stale one on the device never blocks a purchase).
   */
  private async earlierAlbum(
    event: EventRecord,
    uid: string | undefined,
  ): Promise<AttendeeRecord | null> {
    if (!uid) return null;
    const { record, refusal } = await this.deps.access.attendeeById(uid, {
      eventId: event.row.id,
    });
    if (refusal || !record || !record.eventIds.includes(event.row.id)) return null;
    return record;
  }

  /**
   * `card`: the purchase is paid in a provider's card form (PayPal) instead of the QR checkout:
   * offered by the event's album methods, and null when that provider is not set up here.
   */
  async create(
    principal: Principal,
    input: KeylessBody<'albumPurchaseCreate'>,
    card?: { method: PaymentMethod; adapter: PaymentsProvider | null },
  ) {
    const grant = await this.grantOf(principal);
    const event = grant.event;
    let provider: QrProvider;
    if (card) {
      requireOffered(principal, event, card.method);
      if (!card.adapter) throw new AppError('payment_provider_unavailable');
      provider = { adapter: card.adapter, real: null };
    } else provider = await this.deps.checkout.qrProvider(principal, event);
    const { whole, uids } = await this.photosBought(grant, input.photo_uids);
    const requestId = input.client_request_id;
    // A retried start answers the first purchase: its album, not a second one.
    const earlierOrder = requestId
      ? await this.deps.paymentRows.orderOfRequest(event.row.id, requestId)
      : undefined;
    let buyer = earlierOrder
      ? await this.buyerOf(earlierOrder)
      : await this.earlierAlbum(event, input.buyer_album_uid);
    // Everything the order checks, checked before the buyer's album is made.
    const { button, cents } = this.deps.payments.priceOrder({
      event,
      pricingButtonIndex: input.pricing_button_index,
      photoUids: whole ? 'all' : uids,
      photoCount: uids.length,
      albumPhotoUids: uids,
      userType: buyer ? attendeePriceType(buyer, event) : 1,
      currency: await this.deps.payments.currencyOf(event),
    });
    if (provider.real && cents < provider.real.minimumCents)
      throw new AppError('payment_amount_below_minimum', 'pricing_button_index');
    await this.deps.payments.requireCombo(event, buyer, button);
    const email = input.email?.trim() || null;
    if (!buyer) buyer = await this.newAlbum(event, email);
    else if (email && buyer.row.email !== email)
      await this.deps.attendees.update(buyer.row.id, { email });
    return this.deps.checkout.openQrCheckout(provider, event, buyer, {
      pricingButtonIndex: input.pricing_button_index,
      photoUids: whole ? 'all' : uids,
      photoCount: uids.length,
      albumPhotoUids: uids,
      attach: uids,
      clientRequestId: requestId,
    });
  }

  private async buyerOf(order: OrderRow): Promise<AttendeeRecord | null> {
    const row = await this.deps.attendees.findById(order.attendeeId);
    return row ? ((await this.deps.attendees.findByUid(row.uid)) ?? null) : null;
  }

  /** A new personal album of the event's organisation, linked to the event, empty. */
  private async newAlbum(event: EventRecord, email: string | null): Promise<AttendeeRecord> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const privateId = randomCode(ATTENDEE_PRIVATE_ID_LENGTH);
      const row = await this.deps.attendees.insertOrGet({
        uid: randomCode(ATTENDEE_ID_LENGTH),
        privateId,
        organisationId: event.row.organisationId,
        email,
        createdAt: this.deps.clock.now(),
      });
      // An id already taken answers the other attendee: draw again.
      if (row.privateId !== privateId) continue;
      await this.deps.attendees.linkEvent(row.id, event.row.id);
      return { row, eventIds: [event.row.id] };
    }
    throw new Error('attendee ids keep colliding');
  }

  /** A payment of an album purchase of the key's event, or `not_found`. */
  private async purchaseOf(
    principal: Principal,
    publicId: string,
  ): Promise<{ payment: PaymentRow; order: OrderRow }> {
    const grant = await this.grantOf(principal);
    const payment = await this.deps.paymentRows.paymentByPublicId(publicId.trim());
    const order = payment ? await this.deps.paymentRows.orderById(payment.orderId) : undefined;
    if (!payment || !order || order.eventId !== grant.event.row.id || !order.items.attach)
      throw new AppError('not_found', 'payment_id');
    return { payment, order };
  }

  async status(principal: Principal, input: KeylessBody<'albumPurchaseStatus'>) {
    const { payment, order } = await this.purchaseOf(principal, input.payment_id);
    // The album is named once the bought photos are in it (the confirmation's effects ran).
    const handedOver = payment.status === 'paid' && payment.fulfilledAt !== null;
    const buyer = handedOver ? await this.deps.attendees.findById(order.attendeeId) : undefined;
    const base = (buyer?.urlPrefix ?? this.deps.publicUrl).replace(/\/+$/, '');
    return {
      payment_id: payment.publicId,
      status: payment.status,
      amount: payment.amount,
      currency: payment.currency,
      album_uid: buyer ? formatAttendeeId(buyer.uid) : null,
      album_url: buyer ? `${base}/?attId=${encodeURIComponent(formatAttendeeId(buyer.uid))}` : null,
    };
  }

  /** A purchase's payment through a given provider (its card form), or `not_found`. */
  async paymentThrough(principal: Principal, publicId: string, provider: string) {
    const { payment } = await this.purchaseOf(principal, publicId);
    return requireProviderPayment(payment, provider);
  }

  async cancel(principal: Principal, input: KeylessBody<'albumPurchaseCancel'>) {
    const { payment } = await this.purchaseOf(principal, input.payment_id);
    return this.deps.checkout.cancelPayment(payment);
  }

  /**
   * `payment.confirmed`: the bought photos go into the buyer's personal album (idempotent: a photo
   * already there stays once). The order's unlock opens them.
   */
  async onPaymentConfirmed(confirmed: PaymentConfirmed): Promise<void> {
    const order = await this.deps.paymentRows.orderById(confirmed.orderId);
    if (!order?.items.attach?.length) return;
    const row = await this.deps.attendees.findById(order.attendeeId);
    const event = await this.deps.events.findById(order.eventId);
    if (!row || !event) return;
    const photos = await this.deps.albums.photosByUids(event.row.id, order.items.attach);
    await attachPhotos(
      { attendees: this.deps.attendees, bus: this.deps.bus },
      { row, eventIds: [event.row.id] },
      event,
      photos,
      'purchase',
    );
  }
}
