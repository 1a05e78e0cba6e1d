// Why this file is long: the guest checkouts (pricing buttons, QR payments, provider payments,
// the test provider) share one chain of rules before any money moves: the key's attendee, the
// methods the event offers, the chosen photos and the one payment lookup. Split by flow once the
// card and PayPal work beside it has landed (the flows move with their checks).
import { randomUUID } from 'node:crypto';
import {
  eventButtonPriceCents,
  normaliseAttendeeId,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type PaymentStatusName,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { attendeePriceType, paysOnAlbumPage } from '../../access/payments-rules.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type {
  PaymentRepository,
  PaymentRow,
} from '../../repositories/payments/payment.repository.ts';
import type {
  Checkout,
  PaymentCredentials,
  PaymentsProvider,
} from '../../repositories/payments/payments-provider.ts';
import type { TestPaymentsAdapter } from '../../repositories/payments/test-provider.adapter.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { type OrderSale, type PaymentService } from './payment.service.ts';
import { centsToMinor } from '@flashbulb/shared';
import type { ProviderCheckouts } from './provider-checkout.service.ts';
import type { WebhookService } from '../operations/webhook-in.service.ts';
import { methodOfProvider, offeredMethods, requireOffered } from './payment-methods.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import { printPolicy, printPurchaseOf, printsRemaining } from '../printing/print-allowance.ts';
import { comboBlocks, upsellOffer } from './selling-rules.ts';
import { providerCall, providerFailure, requireProviderPayment } from './provider-state.ts';

/** The provider of a QR checkout: the event's real one (with its credentials), or the test provider. */
export interface QrProvider {
  adapter: PaymentsProvider;
  real: Awaited<ReturnType<ProviderCheckouts['forEvent']>> | null;
}

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
/** A public twin's body without its key: the principal already carries it. */
/**
 * QR checkout (albums spec §7.3): the kiosk (or the attendee's own album) starts a
 * payment for a pricing button and shows its checkout URL as a QR code; the built-in test
 * provider's form takes a test card and reports through its signed webhook. Access is checked here
 * (`payment.checkout`); prices and state belong to PaymentService.
 *
 * Longer than our ~350 lines on purpose: the QR checkout, the checkouts other providers start
 * (`startProviderPayment`) and the test provider's page are one concern — a guest paying for a
 * pricing button — and share the attendee lookup, the chosen photos, the price and the provider
 * failure mapping; split apart, each would copy those rules.
 */
/**
 * What a service selling through the checkout needs: access, the checkout that starts its sales,
 * and the payment state its provider's answers move.
 */
export interface SaleDeps {
  access: AccessControl;
  checkout: CheckoutService;
  payments: PaymentService;
  paymentRows: PaymentRepository;
}

export class CheckoutService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      /** The test checkout page names the event it charges for. */
      events?: Pick<EventRepository, 'findById'>;
      payments: PaymentService;
      paymentRows: PaymentRepository;
      attendees: AttendeeRepository;
      photos: PhotoRepository;
      albums: AlbumRepository;
      /** Null when configuration turned the test provider off (`FLASHBULB_PAYMENTS_PROVIDER=none`). */
      testProvider: TestPaymentsAdapter | null;
      webhooks: WebhookService;
      clock: Clock;
      /** Real providers chosen by the event's credentials (Stripe Checkout). */
      providers?: ProviderCheckouts;
      /** Whether a payment terminal is configured (the kiosk offers it only then). */
      terminalConfigured?: boolean;
    },
  ) {}

  /** The attendee a checkout is for: an attendee key only for themselves; kiosks for their organisation. */
  private async attendeeFor(
    grant: { event: EventRecord; attendee: AttendeeRecord | null },
    rawId: string,
  ): Promise<AttendeeRecord> {
    if (grant.attendee) {
      if (normaliseAttendeeId(rawId) !== grant.attendee.row.uid)
        throw new AppError('invalid_attendee_id', 'attendee_uid');
      return grant.attendee;
    }
    const { record, refusal } = await this.deps.access.attendeeById(rawId);
    if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', 'attendee_uid');
    if (record.row.organisationId !== grant.event.row.organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return record;
  }

  /** Photos of the attendee's album at the event that a sale of the whole album covers. */
  private albumPhotoCount(event: EventRecord, attendee: AttendeeRecord): Promise<number> {
    return this.deps.photos.count({
      eventId: event.row.id,
      attendeeAlbum: { attendeeId: attendee.row.id, uid: attendee.row.uid },
      albumEventOnly: true,
      publishedOnly: true,
      now: this.deps.clock.now(),
    });
  }

  /**
   * The ways to pay the event offers the caller that can work now: Shopify only where the event
   * (or its organisation) has a shop and token, the terminal only where one is configured — a
   * kiosk must not offer a sale that is refused.
   */
  private async availableMethods(principal: Principal, event: EventRecord) {
    const methods = offeredMethods(principal, event).filter(
      (method) => method !== 'terminal' || this.deps.terminalConfigured === true,
    );
    if (!methods.includes('shopify')) return methods;
    const shop = await this.deps.providers?.eventCredentials(event.row.id, 'shopify');
    return shop ? methods : methods.filter((method) => method !== 'shopify');
  }

  /**
   * The buttons a guest sees, priced for them (albums spec §3): amounts null when the event hides
   * prices (`hideProductPrice`) or a formula is refused at this count.
   */
  async pricingButtons(principal: Principal, input: KeylessBody<'pricingButtonList'>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    const event = grant.event;
    const attendee = await this.attendeeFor(grant, input.attendee_uid);
    const photoCount = input.photo_count ?? (await this.albumPhotoCount(event, attendee));
    const opts = event.row.opts;
    const hide = opts.hideProductPrice === 1;
    const userType = attendeePriceType(attendee, event);
    const purchases = await this.deps.paymentRows.printPurchases(attendee.row.id, event.row.id);
    const currency = await this.deps.payments.currencyOf(event);
    const history = await this.deps.payments.purchaseHistoryOf(event, attendee);
    const paidEvent = event.row.is_free !== 1;
    return {
      is_free: event.row.is_free === 1 ? (1 as const) : (0 as const),
      currency,
      photo_count: photoCount,
      prints_free: printPolicy(event.row) === 'free' ? (1 as const) : (0 as const),
      prints_remaining: printsRemaining(purchases.map(printPurchaseOf)),
      methods: await this.availableMethods(principal, event),
      digital_message: opts.digitalProductMessage ?? '',
      // Offered after a first purchase (a paid order, or the desk's unlock).
      upsell_message: paidEvent ? upsellOffer(opts, history) : null,
      buttons: !paidEvent
        ? []
        : (opts.pricingButtons ?? []).map((button, index) => {
            const price = eventButtonPriceCents(button, opts, photoCount, userType);
            return {
              index,
              button_text: button.buttonText,
              digitals: button.digitals,
              prints: button.prints,
              amount: hide || !price.ok ? null : centsToMinor(price.cents, currency),
              requires_digital: comboBlocks(opts, button, history),
            };
          }),
    };
  }

  /**
   * What a checkout sells: the chosen photos (each in the attendee's album, else `not_found`) or
   * the whole album (`photos_required` when it is empty), and how many that is. A whole album
   * bought with a button that prints lists its photos (those are printed), up to one more than
   * the event's print maximum (the order refuses more).
   */
  private async chosenPhotos(
    event: EventRecord,
    attendee: AttendeeRecord,
    chosen: readonly string[] | undefined,
    pricingButtonIndex: number,
  ): Promise<{ photoUids: string[] | 'all'; photoCount: number; albumPhotoUids?: string[] }> {
    if (!chosen) {
      const photoCount = await this.albumPhotoCount(event, attendee);
      if (photoCount === 0) throw new AppError('photos_required', 'photo_uids');
      const button = (event.row.opts.pricingButtons ?? [])[pricingButtonIndex];
      if (!button?.prints) return { photoUids: 'all', photoCount };
      const rows = await this.deps.photos.list(
        {
          eventId: event.row.id,
          attendeeAlbum: { attendeeId: attendee.row.id, uid: attendee.row.uid },
          albumEventOnly: true,
          publishedOnly: true,
          now: this.deps.clock.now(),
        },
        event.row.max_print_photos_count + 1,
        0,
      );
      return { photoUids: 'all', photoCount, albumPhotoUids: rows.map((row) => row.uid) };
    }
    const uids = [...new Set(chosen)];
    const rows = await this.deps.albums.photosByUids(event.row.id, uids);
    if (rows.length !== uids.length) throw new AppError('not_found', 'photo_uids');
    for (const row of rows)
      if (!(await this.deps.attendees.ownsPhoto(attendee, row)))
        throw new AppError('not_found', 'photo_uids');
    return { photoUids: uids, photoCount: uids.length };
  }

  /** A QR or provider checkout's attendee (`attendeeFor`), then what it sells (`chosenPhotos`). */
  private async buyerAndPhotos(
    grant: { event: EventRecord; attendee: AttendeeRecord | null },
    input: KeylessBody<'createQrPayment'>,
  ) {
    const attendee = await this.attendeeFor(grant, input.attendee_uid);
    const chosen = await this.chosenPhotos(
      grant.event,
      attendee,
      input.photo_uids,
      input.pricing_button_index,
    );
    return { attendee, ...chosen };
  }

  async createQrPayment(principal: Principal, input: KeylessBody<'createQrPayment'>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    const event = grant.event;
    const provider = await this.qrProvider(principal, event);
    const { attendee, photoUids, photoCount, albumPhotoUids } = await this.buyerAndPhotos(
      grant,
      input,
    );
    this.refuseBelowMinimum(provider, event, attendee, input.pricing_button_index, photoCount);
    return this.openQrCheckout(provider, event, attendee, {
      pricingButtonIndex: input.pricing_button_index,
      photoUids,
      photoCount,
      ...(albumPhotoUids ? { albumPhotoUids } : {}),
      printOnPayment: paysOnAlbumPage(principal),
      clientRequestId: input.client_request_id,
    });
  }

  /**
   * The provider a QR checkout of the event goes through, or the refusal (nothing stored yet). An
   * event carrying a QR provider's credentials sells through it. The test provider (on only when
   * configured) sells events without any real provider: never one that sells for real.
   */
  async qrProvider(principal: Principal, event: EventRecord): Promise<QrProvider> {
    requireOffered(principal, event, 'qr');
    const real = (await this.deps.providers?.forEvent(event)) ?? null;
    const adapter =
      real?.adapter ??
      (this.deps.testProvider && !(await this.deps.providers?.sellsForReal(event))
        ? this.deps.testProvider
        : null);
    if (!adapter) throw new AppError('payment_provider_unavailable');
    return { adapter, real };
  }

  /** A real provider's minimum (Stripe Checkout: $0.50), refused by us first, before any row. */
  refuseBelowMinimum(
    provider: QrProvider,
    event: EventRecord,
    attendee: Pick<AttendeeRecord, 'row'>,
    index: number,
    photoCount: number,
  ): void {
    if (!provider.real) return;
    const cents = this.priceCents(event, attendee, index, photoCount);
    if (cents !== null && cents < provider.real.minimumCents)
      throw new AppError('payment_amount_below_minimum', 'pricing_button_index');
  }

  /**
   * The order, its pending payment and the provider's checkout (a QR code or a link): shared by
   * the attendee's album, the kiosk and purchases from a public or private album.
   */
  async openQrCheckout(
    provider: QrProvider,
    event: EventRecord,
    attendee: AttendeeRecord,
    sale: OrderSale & { clientRequestId: string | undefined },
  ) {
    // Without a request id every call is a new checkout; with one, a retry answers the first.
    const requestId = sale.clientRequestId ?? randomUUID();
    const { order } = await this.deps.payments.createOrder({
      event,
      attendee,
      pricingButtonIndex: sale.pricingButtonIndex,
      photoUids: sale.photoUids,
      photoCount: sale.photoCount,
      ...(sale.albumPhotoUids ? { albumPhotoUids: sale.albumPhotoUids } : {}),
      ...(sale.attach ? { attach: sale.attach } : {}),
      ...(sale.printOnPayment !== undefined ? { printOnPayment: sale.printOnPayment } : {}),
      clientRequestId: requestId,
    });
    const { payment } = await this.deps.payments.createPayment(
      order,
      provider.adapter.name,
      requestId,
    );
    const checkout = await providerCall(null, () =>
      provider.adapter.createCheckout(
        {
          paymentId: payment.publicId,
          total: { amount: payment.amount, currency: payment.currency },
          tax: { amount: 0, currency: payment.currency },
          items: [
            {
              sku: `button-${order.pricingButtonIndex}`,
              description: order.buttonText,
              quantity: 1,
              unitPrice: { amount: payment.amount, currency: payment.currency },
            },
          ],
          reference: attendee.row.uid,
          returnUrl: null,
        },
        provider.real?.credentials ?? {},
      ),
    );
    if (payment.providerReference !== checkout.providerPaymentId)
      await this.deps.paymentRows.setProviderReference(payment.id, checkout.providerPaymentId);
    const current = (await this.deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
    return {
      payment_id: current.publicId,
      checkout_url: checkout.handle.kind === 'qr' ? checkout.handle.url : '',
      amount: current.amount,
      currency: current.currency,
      status: current.status,
    };
  }

  /** The button's price for this attendee and count, or null when the formula is refused. */
  private priceCents(
    event: EventRecord,
    attendee: Pick<AttendeeRecord, 'row'>,
    index: number,
    photoCount: number,
  ): number | null {
    const button = (event.row.opts.pricingButtons ?? [])[index];
    if (!button || event.row.is_free === 1) return null;
    const price = eventButtonPriceCents(
      button,
      event.row.opts,
      photoCount,
      attendeePriceType(attendee, event),
    );
    return price.ok ? price.cents : null;
  }

  /** A payment of the key's event (and for an attendee key, of their own orders), or `not_found`. */
  private async paymentOf(principal: Principal, publicId: string): Promise<PaymentRow> {
    return (await this.paymentOfKeyEvent(principal, publicId)).payment;
  }

  private async paymentOfKeyEvent(
    principal: Principal,
    publicId: string,
  ): Promise<{ payment: PaymentRow; event: EventRecord }> {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    const payment = await this.deps.paymentRows.paymentByPublicId(publicId.trim());
    const order = payment ? await this.deps.paymentRows.orderById(payment.orderId) : undefined;
    if (
      !payment ||
      !order ||
      order.eventId !== grant.event.row.id ||
      (grant.attendee && order.attendeeId !== grant.attendee.row.id)
    )
      throw new AppError('not_found', 'payment_id');
    return { payment, event: grant.event };
  }

  async checkQrStatus(principal: Principal, input: KeylessBody<'checkQrStatus'>) {
    const payment = await this.paymentOf(principal, input.payment_id);
    return {
      payment_id: payment.publicId,
      status: payment.status,
      amount: payment.amount,
      currency: payment.currency,
    };
  }

  async disableQrLink(principal: Principal, input: KeylessBody<'disableQrLink'>) {
    return this.cancelPayment(await this.paymentOf(principal, input.payment_id));
  }

  /**
   * Cancels a pending payment whose checkout the guest left (the caller checked it is theirs): a
   * real provider's checkout is closed there first; if it was paid meanwhile, that wins.
   */
  async cancelPayment(found: PaymentRow) {
    let payment = found;
    const providers = this.deps.providers;
    if (
      payment.status === 'pending' &&
      payment.providerReference &&
      providers?.handles(payment.provider)
    ) {
      const chosen = await providers.forPayment(payment);
      if (chosen) {
        try {
          await chosen.adapter.cancel(payment.providerReference, chosen.credentials);
        } catch (error) {
          if (!(error instanceof ProviderError) || !error.permanent)
            throw providerFailure(null, error);
          await providerCall(null, () => providers.refresh(payment));
          payment = (await this.deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
        }
      }
    }
    const { payment: after } = await this.deps.payments.recordStatus(payment, 'cancelled');
    if (after.status === 'cancelled' && after.providerReference && after.provider === 'test')
      await this.deps.testProvider?.cancel();
    return { payment_id: after.publicId, status: after.status };
  }

  /**
   * Starts a payment of a pricing button through a given provider (PayPal card checkout, the
   * payment terminal): the same access, attendee, photos, amount and idempotency rules
   * as the QR checkout; the provider's checkout is created with our payment id as its idempotency
   * key and its id stored as the payment's provider reference. Below `minimumCents` is refused
   * first, before any row or provider call. A provider failure is thrown as its ProviderError.
   */
  async startProviderPayment(
    principal: Principal,
    input: KeylessBody<'createQrPayment'>,
    provider: PaymentsProvider,
    credentials: PaymentCredentials,
    minimumCents: number,
  ): Promise<{ payment: PaymentRow; checkout: Checkout; attendeeUid: string }> {
    const grant = await this.deps.access.requireEventAccess(principal, 'payment.checkout', {
      keyEvent: true,
    });
    const event = grant.event;
    requireOffered(principal, event, methodOfProvider(provider.name));
    const { attendee, photoUids, photoCount, albumPhotoUids } = await this.buyerAndPhotos(
      grant,
      input,
    );
    const cents = this.priceCents(event, attendee, input.pricing_button_index, photoCount);
    if (cents !== null && cents < minimumCents)
      throw new AppError('payment_amount_below_minimum', 'pricing_button_index');
    const requestId = input.client_request_id ?? randomUUID();
    const { order } = await this.deps.payments.createOrder({
      event,
      attendee,
      pricingButtonIndex: input.pricing_button_index,
      photoUids,
      photoCount,
      ...(albumPhotoUids ? { albumPhotoUids } : {}),
      // Bought on the guest's own album page: printed at once; at a kiosk: printed there.
      printOnPayment: paysOnAlbumPage(principal),
      clientRequestId: requestId,
    });
    const { payment } = await this.deps.payments.createPayment(order, provider.name, requestId);
    if (payment.provider !== provider.name)
      throw new AppError('invalid_value', 'client_request_id');
    // A retried start of a payment the provider already has answers it without a second sale
    // (a terminal has no idempotency key of ours).
    if (payment.providerReference)
      return {
        payment,
        checkout: {
          providerPaymentId: payment.providerReference,
          handle: { kind: 'client_token', token: payment.providerReference },
          expiresAt: null,
        },
        attendeeUid: attendee.row.uid,
      };
    // Provider failures reach the caller as ProviderErrors (it logs and maps them).
    const checkout = await provider.createCheckout(
      {
        paymentId: payment.publicId,
        total: { amount: payment.amount, currency: payment.currency },
        tax: { amount: 0, currency: payment.currency },
        items: [
          {
            sku: attendee.row.uid,
            description: order.buttonText,
            quantity: 1,
            unitPrice: { amount: payment.amount, currency: payment.currency },
          },
        ],
        reference: attendee.row.uid,
        returnUrl: null,
      },
      credentials,
    );
    if (payment.providerReference !== checkout.providerPaymentId)
      await this.deps.paymentRows.setProviderReference(payment.id, checkout.providerPaymentId);
    const current = (await this.deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
    return { payment: current, checkout, attendeeUid: attendee.row.uid };
  }

  /**
   * A payment of the key's event and of this provider, with that event, or `not_found` (public
   * for provider flows).
   */
  async providerPaymentOf(
    principal: Principal,
    publicId: string,
    provider: string,
  ): Promise<{ payment: PaymentRow; event: EventRecord }> {
    const found = await this.paymentOfKeyEvent(principal, publicId);
    return { payment: requireProviderPayment(found.payment, provider), event: found.event };
  }

  /**
   * What the test provider's checkout page shows before the card is typed: the amount, the button
   * bought and the event, and where the payment stands. Only the test provider's own payments.
   */
  async testProviderCheckout(input: Body<'testProviderCheckout'>) {
    const provider = this.deps.testProvider;
    const payment = await this.deps.paymentRows.paymentByPublicId(input.payment_id.trim());
    const order = payment ? await this.deps.paymentRows.orderById(payment.orderId) : undefined;
    if (!provider || !payment || !order || payment.provider !== provider.name)
      throw new AppError('not_found', 'payment_id');
    const event = await this.deps.events?.findById(order.eventId);
    return {
      payment_id: payment.publicId,
      status: payment.status,
      amount: payment.amount,
      currency: payment.currency,
      description: order.buttonText,
      merchant: event?.row.full_name ?? '',
    };
  }

  /**
   * The test provider's checkout form (`/payment/test-provider/pay`): the provider charges the
   * card and reports through its signed webhook, taken in by the same path as a real provider's.
   */
  async testProviderPay(
    input: Body<'testProviderPay'>,
  ): Promise<{ payment_id: string; status: PaymentStatusName }> {
    const provider = this.deps.testProvider;
    const payment = await this.deps.paymentRows.paymentByPublicId(input.payment_id.trim());
    if (!provider || !payment || payment.provider !== provider.name || !payment.providerReference)
      throw new AppError('not_found', 'payment_id');
    if (payment.status === 'pending') {
      let webhook;
      try {
        webhook = provider.charge(payment.providerReference, input.card_number);
      } catch (error) {
        if (error instanceof ProviderError) throw new AppError('card_invalid', 'card_number');
        throw error;
      }
      await this.deps.webhooks.receive(provider.provider, webhook);
    }
    const current = (await this.deps.paymentRows.paymentByPublicId(payment.publicId)) ?? payment;
    return { payment_id: current.publicId, status: current.status };
  }
}
