/**
 * Every signal the server emits, with its payload (a signal is a fact on the in-process bus,
 * signals/signal-bus.ts; "event" always means the party and its album). A payload names what
 * happened (ids, not rows): listeners re-read what they need, so nothing they see is stale.
 *
 * Signals without a producer yet are declared for the issues that will emit them (payments,
 * printing, attendee unlocks); emitting one is a one-line change in the service that owns the
 * fact.
 */
export interface Signals {
  /** An upload was completed and its row is `processing` (derivatives are still to be made). */
  'photo.uploaded': { photoId: number; eventId: number };
  /** A photo's derivatives are made (or a video is registered): albums may show it. */
  'photo.ready': { photoId: number; eventId: number };
  /** An image process made a photo's variant: auto-print may print it. */
  'photo.variant_ready': {
    photoId: number;
    eventId: number;
    originalPhotoId: number;
    imageProcessId: number;
  };
  /** A hidden photo was made visible again. */
  'photo.shown': { photoId: number; eventId: number };
  /** A visible photo was hidden. */
  'photo.hidden': { photoId: number; eventId: number };
  /** A photo's row is gone (an owner's delete or retention); its files are removed after. */
  'photo.deleted': {
    photoId: number;
    eventId: number;
    uid: string;
    storageKey: string;
    reason: 'owner' | 'auto_delete' | 'kiosk';
  };
  /** Photos were added to an attendee's album (owner, attendee key or QR scan). */
  'attendee.photos_attached': {
    attendeeId: number;
    photos: { photoId: number; eventId: number }[];
  };
  /** An attendee may now download their originals (declared: payments, unlock codes). */
  'attendee.unlocked': { attendeeId: number; eventId: number };
  /** A payment was confirmed by its provider (declared: payments). */
  'payment.confirmed': { paymentId: number; eventId: number };
  /** A paid payment was refunded (its provider's report or the console's refund). */
  'payment.refunded': { paymentId: number; eventId: number };
  /** A new attendee was created for an event (web-app registration, an uploaded attendee id). */
  'attendee.created': { attendeeId: number; uid: string; eventId: number };
  /** A lead was submitted at an event's album gate (first time or again: the same lead id). */
  'lead.created': { leadId: number; eventId: number };
  /** A print request was stored (unlock-and-print); printing sends it to the queue. */
  'print.requested': { printRequestId: number; eventId: number };
  /** A print job's sheet was printed (printing). */
  'print.finished': { printJobId: number; eventId: number };
  /** An event's settings were saved (event update). */
  'event.updated': { eventId: number };
}

export type SignalName = keyof Signals;
