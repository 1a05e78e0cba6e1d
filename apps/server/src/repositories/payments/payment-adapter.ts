import { timingSafeEqual } from 'node:crypto';
import type { RawWebhook } from '../operations/webhook-receiver.ts';

/**
 * What the payment adapters (`*.adapter.ts` beside this file) share: the interfaces they implement
 * and the small steps of taking a provider's webhook. One import for every adapter; each provider's
 * own protocol stays in its own file.
 */

export type {
  RawWebhook,
  VerifiedWebhook,
  WebhookReceiver,
} from '../operations/webhook-receiver.ts';
export type {
  Checkout,
  CheckoutRequest,
  PaymentCredentials,
  PaymentStatus,
  PaymentsProvider,
} from './payments-provider.ts';
export { ProviderError, redactSecrets } from '../provider-error.ts';
export { providerJson, requestJson } from './provider-http.ts';

/** How far a signed timestamp may stand from our clock, either way (a stale replay is refused). */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/** A webhook's signed time (ms since the epoch) is within the tolerance of `now`. */
export const signedInTime = (sentAtMs: number, now: Date): boolean =>
  Math.abs(now.getTime() - sentAtMs) <= WEBHOOK_TOLERANCE_MS;

/** The same signature bytes, compared in constant time; a shorter or longer one is not equal. */
export const sameSignature = (given: Buffer, expected: Buffer): boolean =>
  given.length === expected.length && timingSafeEqual(given, expected);

/**
 * A webhook's body read as JSON; `undefined` when it is not JSON (the adapter refuses it). The
 * type is what the adapter expects, not yet checked.
 */
export const webhookJson = <T>(request: RawWebhook): T | undefined => {
  try {
    return JSON.parse(request.body.toString('utf8')) as T;
  } catch {
    return undefined;
  }
};
