import { createHmac } from 'node:crypto';
import { AttendeeUnlockRepository } from '../repositories/payments/attendee-unlock.repository.ts';
import { PaymentRepository } from '../repositories/payments/payment.repository.ts';
import { PayPalAdapter } from '../repositories/payments/paypal.adapter.ts';
import { SquareAdapter } from '../repositories/payments/square.adapter.ts';
import { TerminalAdapter } from '../repositories/payments/terminal.adapter.ts';
import { StripePaymentsAdapter } from '../repositories/payments/stripe.adapter.ts';
import { TestPaymentsAdapter } from '../repositories/payments/test-provider.adapter.ts';
import { PrintRequestRepository } from '../repositories/printing/print-request.repository.ts';
import { AlbumPurchaseService } from '../services/payments/album-purchase.service.ts';
import { CardCheckoutService } from '../services/payments/card-checkout.service.ts';
import { ReaderCheckoutService } from '../services/payments/reader-checkout.service.ts';
import { CheckoutService } from '../services/payments/checkout.service.ts';
import { OrderAdminService } from '../services/payments/order-admin.service.ts';
import { PaymentService } from '../services/payments/payment.service.ts';
import { ProviderCheckouts } from '../services/payments/provider-checkout.service.ts';
import { SquarePairingService } from '../services/payments/square-pairing.service.ts';
import { PaymentConnectionService } from '../services/payments/payment-connection.service.ts';
import { SHOPIFY_PROVIDER, ShopifyAdapter } from '../repositories/payments/shopify.adapter.ts';
import { ShopifyService } from '../services/payments/shopify.service.ts';
import { ReceiptService } from '../services/payments/receipt.service.ts';
import { UnlockService } from '../services/payments/unlock.service.ts';
import type { Albums } from './albums.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Identity } from './identity.ts';
import type { Messaging } from './messaging.ts';
import type { Photos } from './photos.ts';

/**
 * Paid albums (docs/domains/payments.md): unlock codes, orders and payments, the built-in
 * test provider and its webhook, QR checkout, receipts, the operator's orders and refunds.
 */
export const wirePayments = (
  core: Core,
  identity: Identity,
  events: Events,
  photos: Photos,
  albums: Albums,
  messaging: Messaging,
) => {
  const { config, database, clock, secrets, bus, logger } = core;
  const { access } = events;
  const { events: eventRows, attendees } = events.repositories;
  const { photos: photoRows } = photos.repositories;
  const { albums: albumRows } = albums.repositories;
  const { mail, webhooks } = messaging.services;

  const attendeeUnlocks = new AttendeeUnlockRepository(database.db);
  const paymentRows = new PaymentRepository(database.db);
  const printRequests = new PrintRequestRepository(database.db);
  const unlocks = new UnlockService({
    access,
    unlocks: attendeeUnlocks,
    throttle: identity.repositories.throttle,
    attendees,
    albums: albumRows,
    printRequests,
    clock,
    notices: {
      attendeeUnlocked: (e) =>
        bus.emit('attendee.unlocked', { attendeeId: e.attendeeId, eventId: e.eventId }),
      printRequested: (e) => bus.emit('print.requested', e),
    },
  });
  const payments = new PaymentService({
    payments: paymentRows,
    unlocks,
    clock,
    currencies: identity.repositories.organisations,
  });
  payments.onPaymentConfirmed((e) =>
    bus.emit('payment.confirmed', { paymentId: e.paymentId, eventId: e.eventId }),
  );
  payments.onPaymentRefunded((e) => bus.emit('payment.refunded', e));
  const receipts = new ReceiptService({
    payments: paymentRows,
    events: eventRows,
    attendees,
    mail,
    platformFrom: config.mailFrom,
    publicUrl: config.publicUrl,
    publicMediaUrl: (key) => core.storage.publicUrl(key),
  });
  payments.onPaymentConfirmed((e) => receipts.onPaymentConfirmed(e));

  // The built-in test provider (the embedded default; FLASHBULB_PAYMENTS_PROVIDER=none turns it off).
  const testPayments =
    config.providers.payments.kind !== 'test'
      ? null
      : new TestPaymentsAdapter({
          webhookSecret: createHmac('sha256', secrets.signingKey)
            .update('payments:test:webhook')
            .digest(),
          publicUrl: config.publicUrl,
          now: () => clock.now(),
        });
  if (testPayments) webhooks.registerReceiver(testPayments);
  // Real providers: used for events carrying their credentials (secure fields).
  const stripe = new StripePaymentsAdapter({
    apiBase: config.paymentProviders?.stripe.apiBase ?? 'https://api.stripe.com',
    webhookSecret: config.paymentProviders?.stripe.webhookSecret ?? null,
    publicUrl: config.publicUrl,
    timeoutMs: config.paymentProviders?.timeoutMs ?? 15_000,
    now: () => clock.now(),
  });
  if (config.paymentProviders?.stripe.webhookSecret) webhooks.registerReceiver(stripe);
  const square = new SquareAdapter({
    apiBase: config.paymentProviders?.square.apiBase ?? 'https://connect.squareup.com',
    webhookSignatureKey: config.paymentProviders?.square.webhookSignatureKey ?? null,
    // Square signs the notification URL byte for byte as registered: built from the public URL.
    notificationUrl: `${config.publicUrl}/api/webhooks/square`,
    timeoutMs: config.paymentProviders?.timeoutMs ?? 15_000,
  });
  if (config.paymentProviders?.square.webhookSignatureKey) webhooks.registerReceiver(square);
  // PayPal card checkout (global client id and secret) and the venue's payment terminal.
  const paypalSettings = config.paymentProviders?.paypal ?? null;
  const paypal = paypalSettings
    ? new PayPalAdapter({
        apiBase: paypalSettings.apiBase,
        clientId: paypalSettings.clientId,
        clientSecret: paypalSettings.clientSecret,
        webhookId: paypalSettings.webhookId,
        timeoutMs: config.paymentProviders?.timeoutMs ?? 15_000,
        now: () => clock.now(),
      })
    : null;
  if (paypal && paypalSettings?.webhookId) webhooks.registerReceiver(paypal);
  const terminalSettings = config.paymentProviders?.terminal ?? null;
  const terminal = terminalSettings
    ? new TerminalAdapter({
        ...terminalSettings,
        timeoutMs: config.paymentProviders?.timeoutMs ?? 15_000,
      })
    : null;
  // Shopify draft orders: per event shop and token; webhooks with the app secret.
  const shopify = new ShopifyAdapter({
    apiBase: config.paymentProviders?.shopify?.apiBase ?? null,
    webhookSecret: config.paymentProviders?.shopify?.webhookSecret ?? null,
    timeoutMs: config.paymentProviders?.timeoutMs ?? 15_000,
    paymentOf: async (publicId) => {
      const payment = await paymentRows.paymentByPublicId(publicId);
      if (!payment?.providerReference || payment.provider !== SHOPIFY_PROVIDER) return null;
      const order = await paymentRows.orderById(payment.orderId);
      const event = order ? await eventRows.findById(order.eventId) : undefined;
      return { reference: payment.providerReference, shop: event?.row.opts.shopDomain ?? '' };
    },
  });
  if (config.paymentProviders?.shopify?.webhookSecret) webhooks.registerReceiver(shopify);
  // The organisations' provider connections and card readers.
  const paymentConnections = new PaymentConnectionService({
    connections: events.repositories.paymentConnections,
    organisations: identity.repositories.organisations,
    secrets,
    square,
    stripe,
    shopify,
    clock,
    logger: logger.child({ component: 'payments' }),
  });
  const providerCheckouts = new ProviderCheckouts({
    stripe,
    paypal,
    terminal,
    square,
    shopify,
    events: eventRows,
    credentials: events.repositories.eventCredentials,
    paymentRows,
    payments,
    clock,
    logger: logger.child({ component: 'payments' }),
  });
  const checkout = new CheckoutService({
    access,
    events: eventRows,
    payments,
    paymentRows,
    attendees,
    photos: photoRows,
    albums: albumRows,
    testProvider: testPayments,
    webhooks,
    clock,
    providers: providerCheckouts,
    terminalConfigured: terminal !== null,
  });
  // Purchases from a public or private album: the buyer's personal album receives the photos.
  const albumPurchases = new AlbumPurchaseService({
    access,
    checkout,
    payments,
    paymentRows,
    attendees,
    events: eventRows,
    photos: photoRows,
    albums: albumRows,
    clock,
    publicUrl: config.publicUrl,
    bus,
    paypalCard:
      paypal && paypalSettings
        ? { clientId: paypal.clientId, sdkUrl: paypalSettings.sdkUrl }
        : null,
  });
  payments.onPaymentConfirmed((e) => albumPurchases.onPaymentConfirmed(e));
  webhooks.handlePaymentStatus((provider, reference, status, reason) =>
    payments.applyProviderStatus(provider, reference, status, reason),
  );

  return {
    repositories: { attendeeUnlocks, payments: paymentRows, printRequests },
    services: {
      unlocks,
      payments,
      checkout,
      albumPurchases,
      cardCheckout: new CardCheckoutService({
        access,
        checkout,
        albumPurchases,
        payments,
        paymentRows,
        paypal:
          paypal && paypalSettings
            ? {
                adapter: paypal,
                environment: paypalSettings.environment,
                sdkUrl: paypalSettings.sdkUrl,
              }
            : null,
        logger: logger.child({ component: 'payments' }),
      }),
      readerCheckout: new ReaderCheckoutService({
        access,
        checkout,
        payments,
        paymentRows,
        terminal,
        square,
        providers: providerCheckouts,
        logger: logger.child({ component: 'payments' }),
      }),
      providerCheckouts,
      squarePairing: new SquarePairingService(square, paymentConnections),
      paymentConnections,
      shopify: new ShopifyService({
        access,
        checkout,
        payments,
        paymentRows,
        credentials: events.repositories.eventCredentials,
        adapter: shopify,
      }),
      orderAdmin: new OrderAdminService({
        access,
        payments,
        paymentRows,
        testProvider: testPayments,
        providers: providerCheckouts,
      }),
    },
    /** Payment adapters by name. */
    providers: { test: testPayments, stripe, square, paypal, terminal, shopify },
  };
};
export type Payments = ReturnType<typeof wirePayments>;
