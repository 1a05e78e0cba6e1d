import * as endpoints from '../../../lib/guest-endpoints.ts';
import { useQuery } from '@tanstack/react-query';
import { type AttendeeAlbum, type ResultOf } from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';
import { kioskKeyFields } from './kiosk-key.ts';

export type { AttendeeAlbum };
export type QrScanResult = ResultOf<typeof endpoints.attachPhotosByQrScan>;

/**
 * The attendee behind an album link (`attId`, or `attOrgId` with its organisation): id as printed,
 * whether originals may be downloaded, the events' names and empty-album texts.
 */
export const useAttendeeAlbum = (
  attendeeUid: string,
  organisationId: number | null,
  enabled = true,
) =>
  useQuery({
    enabled,
    queryKey: ['albums', 'attendee', attendeeUid, 'retrieve', organisationId],
    queryFn: ({ signal }) =>
      callApi(
        endpoints.retrieveAttendee,
        {
          key_type: 'attendee',
          key_value: attendeeUid,
          ...(organisationId !== null ? { organisation_id: organisationId } : {}),
        },
        { signal },
      ),
    staleTime: Infinity,
    retry: false,
  });

/**
 * All-photos kiosk (evSB1): adds photos of the private key's event to the attendee's album. The
 * kiosk's call: its private key with the display token of its link (a private key alone is refused).
 */
export const attachPhotosToAttendee = (
  privateKey: string,
  attendeeUid: string,
  photoUids: string[],
) =>
  callApi(endpoints.attachPhotosByKey, {
    ...kioskKeyFields(privateKey),
    attendee_uid: attendeeUid,
    photo_uid_array: photoUids,
  });

/**
 * QR ride kiosk (evSB3): the scanned card text names the album the chosen photos go to (the
 * kiosk's key and display token, as above).
 */
export const attachPhotosByCardScan = (
  privateKey: string,
  scan: string,
  photoUids: string[],
): Promise<QrScanResult> =>
  callApi(endpoints.attachPhotosByQrScan, {
    ...kioskKeyFields(privateKey),
    qr_text: scan,
    photo_uid_array: photoUids,
  });

/** A kiosk visitor leaves the address their album link is sent to; the kiosk's private key vouches. */
export const sendAlbumLinkByEmail = (
  kioskKey: string,
  attendeeUid: string,
  email: string,
  /** The kiosk outbox's action id: the server mails once per id, however often it is retried. */
  requestId?: string,
) =>
  callApi(endpoints.updateAttendeeByKiosk, {
    // The kiosk: its private key with the display token of its link.
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    email_address: email,
    ...(requestId ? { client_request_id: requestId } : {}),
  });
