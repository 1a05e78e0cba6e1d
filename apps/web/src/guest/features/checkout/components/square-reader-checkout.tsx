import { useMemo } from 'react';
import {
  cancelSquareSale,
  checkSquareSale,
  startSquareSale,
} from '../../../shared/api/album-payments.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import type { PhotoChoice } from './paid-album-panel.tsx';
import { ReaderSale, type ReaderSaleAdapter } from './reader-sale.tsx';

/**
 * Paying on the kiosk's Square card reader (albums spec §7.3): the kiosk link's `sqDeviceId`
 * names the reader paired in the console. A pricing button starts a Terminal checkout on it
 * (initiate-square-payment); the screen waits for the card while it asks the server about the
 * sale (check-square-checkout-status: the server reads it from Square); a missed check is asked
 * again on the next tick.
 */
export function SquareReaderCheckout({
  attendeeUid,
  kioskKey,
  deviceId,
  choice = null,
}: {
  attendeeUid: string;
  kioskKey: string | null;
  deviceId: string;
  choice?: PhotoChoice | null;
}) {
  const adapter = useMemo<ReaderSaleAdapter>(
    () => ({
      method: 'square',
      offeredWithoutMethods: true,
      texts: 'albums.square',
      explainsFailures: null,
      pollMs: () => pollTiming.squareMs,
      start: (index, requestId, photoUids) =>
        startSquareSale(kioskKey, attendeeUid, deviceId, index, requestId, photoUids),
      check: (paymentId) =>
        checkSquareSale(kioskKey, attendeeUid, paymentId).then((result) => ({
          status: result.status,
          note: null,
        })),
      cancel: (paymentId) => cancelSquareSale(kioskKey, attendeeUid, paymentId),
    }),
    [attendeeUid, kioskKey, deviceId],
  );
  return (
    <ReaderSale adapter={adapter} attendeeUid={attendeeUid} kioskKey={kioskKey} choice={choice} />
  );
}
