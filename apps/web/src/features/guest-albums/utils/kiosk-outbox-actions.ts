import { sendAlbumLinkByEmail } from '../api/attendee-album.ts';
import { unlockAndPrintAtDesk, unlockAtDesk } from '../api/album-payments.ts';
import { deleteAtKiosk, printAtKiosk } from '../api/kiosk-actions.ts';
import type { ActionRunner } from './kiosk-outbox.ts';

/** What each stored kiosk action carries (JSON, kept in local storage until it has run). */
export interface KioskActions {
  delete: { kioskKey: string; attendeeId: string; photoUid: string };
  print: { kioskKey: string; attendeeId: string; photoUids: string[]; pool: string | null };
  'send-link': { kioskKey: string; attendeeId: string; email: string };
  unlock: { kioskKey: string; attendeeId: string; code: string };
  'unlock-print': { kioskKey: string; attendeeId: string; code: string; photoUids: string[] };
}

const runner =
  <K extends keyof KioskActions>(
    run: (payload: KioskActions[K], context: { id: string; retried: boolean }) => Promise<unknown>,
  ): ActionRunner =>
  (payload: never, context) =>
    run(payload, context);

/**
 * How the kiosk's stored actions run (issue 14). The action's id is the client request id where
 * the server dedupes by one (prints, desk unlock with prints); a delete tried again takes "not
 * found" as done; an unlock stands once whatever the repeats; the album link is mailed once per id
 * (the server dedupes `update-by-kiosk` by it).
 */
export const KIOSK_ACTION_RUNNERS: Readonly<Record<keyof KioskActions, ActionRunner>> = {
  delete: runner<'delete'>((p, { retried }) =>
    deleteAtKiosk(p.kioskKey, p.attendeeId, p.photoUid, () => retried),
  ),
  print: runner<'print'>((p, { id }) =>
    printAtKiosk(p.kioskKey, p.attendeeId, p.photoUids, p.pool, id),
  ),
  'send-link': runner<'send-link'>((p, { id }) =>
    sendAlbumLinkByEmail(p.kioskKey, p.attendeeId, p.email, id),
  ),
  unlock: runner<'unlock'>((p) => unlockAtDesk(p.kioskKey, p.attendeeId, p.code)),
  'unlock-print': runner<'unlock-print'>((p, { id }) =>
    unlockAndPrintAtDesk(p.kioskKey, p.attendeeId, p.code, p.photoUids, id),
  ),
};

/** Queue a stored kiosk action with its payload's type checked. */
export const enqueueKioskAction = <K extends keyof KioskActions, T = unknown>(
  outbox: { enqueueStored: <R>(kind: string, payload: unknown) => Promise<R> },
  kind: K,
  payload: KioskActions[K],
): Promise<T> => outbox.enqueueStored<T>(kind, payload);
