import { endpoints } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/**
 * The card reader pairing calls (albums spec §4, §7.3): the operator's Square token goes to our
 * server for each call and on to Square; it is kept nowhere (not in storage, not in the URL).
 */
const orgBody = (organisationId: number | null) =>
  organisationId === null ? {} : { organisation_id: organisationId };

/** An empty token means the organisation's Square connection (the server reads it). */
export const squareLocations = (accessToken: string, organisationId: number | null = null) =>
  callApi(endpoints.squareLocations, { access_token: accessToken, ...orgBody(organisationId) });

export const squareCreateDeviceCode = (
  accessToken: string,
  name: string,
  locationId: string,
  organisationId: number | null = null,
) =>
  callApi(endpoints.squareCreateDeviceCode, {
    access_token: accessToken,
    ...orgBody(organisationId),
    name,
    location_id: locationId,
  });

export const squareGetDeviceCode = (
  accessToken: string,
  id: string,
  organisationId: number | null = null,
) =>
  callApi(endpoints.squareGetDeviceCode, {
    access_token: accessToken,
    ...orgBody(organisationId),
    id,
  });

/** The spec's reversed access token (shown once pairing is done, never stored). */
export const reversedToken = (token: string): string => [...token].reverse().join('');

/**
 * An example kiosk link that sells on the paired reader (the event's private key and display token
 * to fill in: the two together make the kiosk, which alone may sell).
 */
export const exampleKioskLink = (origin: string, deviceId: string): string =>
  `${origin}/?kType=evSB1&pvId=EVENT_PRIVATE_KEY&display=EVENT_DISPLAY_TOKEN&sqDeviceId=${encodeURIComponent(deviceId)}`;
