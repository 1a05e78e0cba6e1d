import { sendAlbumLinkByEmail } from '../api/attendee-album.ts';
import { unlockAndPrintAtDesk, unlockAtDesk } from '../api/album-payments.ts';
import { deleteAtKiosk, printAtKiosk, printStoryAtKiosk } from '../api/kiosk-actions.ts';
import type { ActionRunner } from './kiosk-outbox.ts';

/** What each stored kiosk action carries (JSON, kept in local storage until it has run). */
export interface KioskActions {
  delete: { kioskKey: string; attendeeId: string; photoUid: string };
  print: { kioskKey: string; attendeeId: string; photoUids: string[]; pool: string | null };
  /** The print list as one story sheet (issue 12, ADR 0009). */
  'print-story': {
    kioskKey: string;
    attendeeId: string;
    photoUids: string[];
    pool: string | null;
  };
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
 * found" as done; an unlock stands once whatever the repeats; the album link is mailed again only
 * when a reload fell between the server's answer and the kiosk hearing it.
 */
export const KIOSK_ACTION_RUNNERS: Readonly<Record<keyof KioskActions, ActionRunner>> = {
  delete: runner<'delete'>((p, { retried }) =>
    deleteAtKiosk(p.kioskKey, p.attendeeId, p.photoUid, () => retried),
  ),
  print: runner<'print'>((p, { id }) =>
    printAtKiosk(p.kioskKey, p.attendeeId, p.photoUids, p.pool, id),
  ),
  'print-story': runner<'print-story'>((p, { id }) =>
    printStoryAtKiosk(p.kioskKey, p.attendeeId, p.photoUids, p.pool, id),
  ),
  'send-link': runner<'send-link'>((p) => sendAlbumLinkByEmail(p.kioskKey, p.attendeeId, p.email)),
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
