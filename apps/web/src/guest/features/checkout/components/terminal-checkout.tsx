import { useMemo } from 'react';
import {
  cancelTerminalSale,
  checkTerminalSale,
  startTerminalSale,
} from '../../../shared/api/album-payments.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import type { PhotoChoice } from './paid-album-panel.tsx';
import { ReaderSale, type ReaderSaleAdapter } from './reader-sale.tsx';

/**
 * Paying on the venue's payment terminal at the kiosk (albums spec §7.3, its texts §8): a pricing
 * button starts the sale on the terminal (`/payment/terminal/pay`); the screen waits while it
 * asks the server about the sale (`/payment/terminal/check-status`), showing the terminal's own
 * text when a check fails — offline or refused — and asking again; the guest or staff can cancel
 * it. Offered when the event's kiosk may take the terminal and the kiosk link carries its key.
 */
export function TerminalCheckout({
  attendeeUid,
  kioskKey,
  choice = null,
}: {
  attendeeUid: string;
  kioskKey: string;
  choice?: PhotoChoice | null;
}) {
  const adapter = useMemo<ReaderSaleAdapter>(
    () => ({
      method: 'terminal',
      offeredWithoutMethods: false,
      texts: 'albums.terminal',
      explainsFailures: { checkFailed: 'albums.terminal.checkFailed' },
      pollMs: () => pollTiming.terminalMs,
      start: (index, requestId, photoUids) =>
        startTerminalSale(kioskKey, attendeeUid, index, requestId, photoUids),
      check: (paymentId) =>
        checkTerminalSale(kioskKey, paymentId).then((result) => ({
          status: result.status,
          note: result.error_message,
        })),
      cancel: (paymentId) => cancelTerminalSale(kioskKey, paymentId),
    }),
    [attendeeUid, kioskKey],
  );
  return (
    <ReaderSale adapter={adapter} attendeeUid={attendeeUid} kioskKey={kioskKey} choice={choice} />
  );
}
