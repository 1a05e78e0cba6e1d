import { PHOTO_STREAM_PATH } from '../api/albums/albums.ts';
import { API_BASE } from '../api/endpoint.ts';

/**
 * Server paths that are not contract calls (no `POST` + envelope), named once for the server, the
 * web app, the tools and the tests.
 */

/** The server's health check (`GET`, 200 when the database answers). */
export const HEALTH_PATH = '/api/health';

/** The path the refresh cookie is scoped to: only the identity calls ever receive it. */
export const AUTH_COOKIE_PATH = `${API_BASE}/auth`;

/**
 * The live photo stream (`GET`, server-sent events, ADR 0002) for one key, below `baseUrl` (an
 * origin, or `''` for the page's own).
 */
export const photoStreamUrlAt = (
  baseUrl: string,
  key: {
    readonly key_type: string;
    readonly key_value: string;
    /** The lead gate: the lead's token, or the event's display token of the organiser's screens. */
    readonly lead_token?: string | undefined;
    readonly display?: string | undefined;
  },
): string =>
  `${baseUrl.replace(/\/+$/, '')}${API_BASE}${PHOTO_STREAM_PATH}?${new URLSearchParams({
    key_type: key.key_type,
    key_value: key.key_value,
    ...(key.display
      ? { display: key.display }
      : key.lead_token
        ? { lead_token: key.lead_token }
        : {}),
  }).toString()}`;

/** The built-in test payment provider's checkout page (web app route `<path>/:paymentId`). */
export const TEST_CHECKOUT_PATH = '/pay/test';

/** The checkout page of one test payment, below `baseUrl` (the server's public address). */
export const testCheckoutUrlAt = (baseUrl: string, paymentId: string): string =>
  `${baseUrl.replace(/\/+$/, '')}${TEST_CHECKOUT_PATH}/${encodeURIComponent(paymentId)}`;
