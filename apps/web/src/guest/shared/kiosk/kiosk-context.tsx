import { createContext, useContext, useSyncExternalStore } from 'react';
import type { KioskOutbox, OutboxState } from './kiosk-outbox.ts';

/**
 * What the kiosk screen (kiosk-screen.tsx) tells the pages inside it (the attendee album, the
 * all-photos kiosk, the camera): the outbox every action goes through, the kiosk's key and guest,
 * the delete gate, the VIP token typed, and the printing choices. Null outside a kiosk session.
 */
export interface KioskSession {
  readonly outbox: KioskOutbox;
  /** The kiosk's private key from its link (`privateId` / `pvId`); null on kiosks without one. */
  readonly kioskKey: string | null;
  readonly attendeeUid: string | null;
  /**
   * §4, §6: `allowKioskPhotoDelete` true in the link or local storage, and the staff controls
   * open (a guest never sees Delete).
   */
  readonly deleteAllowed: boolean;
  /**
   * The staff controls are open on this kiosk (the staff gesture and a PIN the server accepted):
   * the desk's employee unlock code, the VIP code, the print pool and Delete show only then.
   */
  readonly staff: boolean;
  /** A VIP token the server accepted: album lists ask with it. */
  readonly vipToken: string | null;
  /** The stories print pool chosen in the dropdown (null: none selected, or only one pool). */
  readonly printPool: string | null;
  /** §4 print image list display rule, with the printer active and a kiosk key to print with. */
  readonly printListShown: boolean;
  /** At most this many photos in one print request (the event's max, §9: 20). */
  readonly maxPrintPhotos: number;
  /**
   * The operator's texts of the print step (Printing tab): the print header and footer (above
   * and under the print list, as on the sheets whose template has their slots), asked before
   * printing (`printConfirmMessage`; empty: no question) and said once the print is sent
   * (`printingConfirmationText`).
   */
  readonly printTexts?: {
    readonly header: string;
    readonly footer: string;
    readonly confirm: string;
    readonly confirmation: string;
  };
  /**
   * The event's "QR code at kiosk checkout" (`qrAtKioskCheckout`): a kiosk that can take the
   * payment itself (a paired card reader) shows the QR code for the guest's phone only when on.
   */
  readonly qrAtCheckout?: boolean;
}

export const KioskContext = createContext<KioskSession | null>(null);

export const useKiosk = (): KioskSession | null => useContext(KioskContext);

const idle: OutboxState = { pending: 0, waiting: false };
const none = () => () => undefined;

/** The outbox's state (actions in line, waiting for the network), re-rendered as it changes. */
export const useOutboxState = (outbox: KioskOutbox | null): OutboxState =>
  useSyncExternalStore(outbox?.subscribe ?? none, outbox?.getState ?? (() => idle), () => idle);
