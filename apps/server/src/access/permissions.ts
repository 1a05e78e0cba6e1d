import type { PublicKeyType } from '@flashbulb/shared';

/**
 * Who may do what, as data (docs/adr/0003-key-access.md). Rows are permissions, columns the
 * subjects: the three operator roles (each within its reach: super users every event, admins the
 * events of their organisation, event owners the events they created), the five key types (each
 * within the event it names; an attendee key within the attendee's album) and the kiosk: the
 * private key presented together with the event's display token, which only the organiser's kiosk
 * links carry (a guest's private-album link is the private key alone). `requireEventAccess`
 * reads this table and nothing else to decide; `apps/server/test/access/permission-matrix.test.ts`
 * checks every call of the contract against it.
 */
export const SUBJECTS = [
  'super_user',
  'admin',
  'event_owner',
  'event_owner_key',
  'private_key',
  'public_key',
  'attendee_key',
  'robot_key',
  'kiosk',
] as const;
export type Subject = (typeof SUBJECTS)[number];

/**
 * The subject a presented key acts as: its key type, or `kiosk` for a private key that came with
 * the event's display token.
 */
export const keySubject = (keyType: PublicKeyType, kiosk = false): Subject =>
  kiosk && keyType === 'private' ? 'kiosk' : `${keyType}_key`;

type Row = Readonly<Record<Subject, boolean>>;

const Y = true;
const N = false;

// Columns: super admin owner | eo-key private public attendee robot | kiosk (private + display).
// The kiosk holds everything the private key holds, and the cashier and kiosk powers besides.
const row = (
  super_user: boolean,
  admin: boolean,
  event_owner: boolean,
  event_owner_key: boolean,
  private_key: boolean,
  public_key: boolean,
  attendee_key: boolean,
  robot_key: boolean,
  kiosk: boolean,
): Row => ({
  super_user,
  admin,
  event_owner,
  event_owner_key,
  private_key,
  public_key,
  attendee_key,
  robot_key,
  kiosk,
});

export const PERMISSIONS = {
  /** Read and change an event and what hangs off it in the console (attendees, faces, counts). */
  'event.manage': row(Y, Y, Y, N, N, N, N, N, N),
  /** Decrypted secure fields (payment and shop tokens). */
  'event.secure_fields': row(Y, Y, N, N, N, N, N, N, N),
  /** The event's settings as the key's audience may see them (presenters/event-presenter.ts). */
  'event.read_by_key': row(N, N, N, Y, Y, Y, Y, Y, Y),
  /** Stock-image and ignored-face uploads of the event editor. */
  'event.media_upload': row(N, N, N, Y, N, N, N, N, N),
  /** Upload grants and upload completion. */
  'photo.upload': row(Y, Y, Y, Y, N, N, N, Y, N),
  /**
   * A guest adds their own photos (docs/domains/photos.md, "Guests' own photos"): the public
   * album's key, an attendee's key into their own album; each only while the event's setting for
   * it is on (access/guest-upload-rules.ts).
   */
  'photo.guest_upload': row(N, N, N, N, N, Y, Y, N, N),
  /** Photo lists and live streams (what each audience sees: album-visibility.ts). */
  'photo.list': row(Y, Y, Y, Y, Y, Y, Y, Y, Y),
  // The event's photo counts, hidden and processing included: those who run the event.
  'photo.count': row(Y, Y, Y, Y, N, N, N, Y, N),
  /** Delete photos (with the audit entry). */
  'photo.delete': row(Y, Y, Y, N, N, N, N, N, N),
  /** Hide, show, categorise, curate and reprocess photos. */
  'photo.curate': row(Y, Y, Y, Y, N, N, N, N, N),
  /** The moderation queue: approve or reject waiting photos, read the moderation log. */
  'photo.moderate': row(Y, Y, Y, N, N, N, N, N, N),
  /** Robots report activities on the photos of their event. */
  'photo.activity': row(N, N, N, N, N, N, N, Y, N),
  /** A robot key asks which robot it is and which event it feeds (the robot client's check). */
  'robot.whoami': row(N, N, N, N, N, N, N, Y, N),
  /** Share pages and share tracking; mini-album links. */
  'photo.share': row(Y, Y, Y, Y, Y, Y, Y, Y, Y),
  /**
   * Kiosk calls that add to an album: card check, add photos (by id or QR scan), camera photos,
   * kiosk deletes. The kiosk (and the roaming photographer's event-owner key), never a guest's
   * private-album link: it would check any card of the organisation and fill any album.
   */
  'attendee.kiosk': row(N, N, N, Y, N, N, N, N, Y),
  /**
   * The kiosk desk, on attendees of the kiosk's event only: leave an attendee's e-mail address,
   * group cards into one album, profile photos, the staff PIN. Only the kiosk (private key +
   * display token).
   */
  'attendee.kiosk_desk': row(N, N, N, N, N, N, N, N, Y),
  /** An attendee's own album. */
  'attendee.album': row(N, N, N, N, N, N, Y, N, N),
  /** Search the event's photos by face (the owner call; the key twin will add kiosk and guests). */
  'face.search': row(Y, Y, Y, N, N, N, N, N, N),
  /** Guests find their photos by selfie: kiosk (private), web app (public) and attendee keys. */
  'face.search_by_key': row(N, N, N, N, Y, Y, Y, N, Y),
  /** Desk sales: unlock an attendee's album with an employee's code (the kiosk only). */
  'attendee.unlock': row(N, N, N, N, N, N, N, N, Y),
  /**
   * Checkout: prices, start, poll and cancel a payment, on any provider (QR, card form, the
   * payment terminal, the Square reader, a Shopify draft). The attendee for their own album; the
   * kiosk (and the event-owner key) for the attendee in front of it. A guest's private-album link
   * is nobody's album: it sells nothing (a sale names an attendee, any of the organisation).
   */
  'payment.checkout': row(N, N, N, Y, N, N, Y, N, Y),
  /**
   * Buying from a public or private album of a paid event: the sale names no attendee, it makes
   * the buyer a personal album of their own (filled only once the provider confirms). Poll and
   * cancel only the album purchases of the key's event.
   */
  'payment.album_purchase': row(N, N, N, N, Y, Y, N, N, Y),
  /**
   * Sales on the venue's hardware (the payment terminal, the paired Square reader): started at
   * the kiosk, or by the event-owner key that runs it; a guest's key, even the attendee's own,
   * never starts one (albums spec: "card payment at kiosk").
   */
  'payment.at_kiosk': row(N, N, N, Y, N, N, N, N, Y),
  /** Queue prints of the event's photos (owners in the console, the kiosk by key). */
  'photo.print': row(Y, Y, Y, N, N, N, N, N, Y),
  /** Complete a shop's draft order as paid at the counter: operators and the kiosk only. */
  'payment.counter': row(Y, Y, Y, N, N, N, N, N, Y),
  /**
   * The event's insight dashboard (reach, shares, messages, prints, money): the operators who run
   * the event in the console; no key, not even the event-owner key of a booth or roamer.
   */
  'event.insight': row(Y, Y, Y, N, N, N, N, N, N),
} as const satisfies Record<string, Row>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What a refused caller is told when the permission is not theirs. Refusals never say more than
 * the caller knows: operators who cannot see the event hear `event_not_found` (or `not_found` for
 * a photo), a key that matches nothing `invalid_key` (calls naming the event) or
 * `unauthorized_user` (the key alone names it).
 */
export const WRONG_KEY_TYPE: Record<
  Permission,
  { key: 'invalid_key' | 'forbidden'; field?: string }
> = {
  'event.manage': { key: 'forbidden' },
  'event.secure_fields': { key: 'forbidden' },
  'event.read_by_key': { key: 'invalid_key', field: 'key_type' },
  'event.media_upload': { key: 'forbidden', field: 'key_type' },
  'photo.upload': { key: 'invalid_key' },
  'photo.guest_upload': { key: 'invalid_key', field: 'key_type' },
  'photo.list': { key: 'invalid_key', field: 'key_type' },
  'photo.count': { key: 'invalid_key', field: 'key_type' },
  'photo.delete': { key: 'forbidden' },
  'photo.curate': { key: 'forbidden', field: 'key_type' },
  'photo.moderate': { key: 'forbidden' },
  'photo.activity': { key: 'invalid_key' },
  'robot.whoami': { key: 'invalid_key' },
  'photo.share': { key: 'invalid_key', field: 'key_type' },
  'attendee.kiosk': { key: 'invalid_key', field: 'key_type' },
  // A key that is not the kiosk's: the kiosk's display token (`display`) is what is missing.
  'attendee.kiosk_desk': { key: 'invalid_key', field: 'display' },
  'attendee.album': { key: 'invalid_key', field: 'key_type' },
  'face.search': { key: 'invalid_key', field: 'key_type' },
  'face.search_by_key': { key: 'invalid_key', field: 'key_type' },
  'attendee.unlock': { key: 'invalid_key', field: 'display' },
  'payment.checkout': { key: 'invalid_key', field: 'key_type' },
  'payment.album_purchase': { key: 'invalid_key', field: 'key_type' },
  'payment.at_kiosk': { key: 'invalid_key', field: 'key_type' },
  'photo.print': { key: 'invalid_key', field: 'display' },
  'payment.counter': { key: 'invalid_key', field: 'display' },
  'event.insight': { key: 'forbidden' },
};

export const allows = (permission: Permission, subject: Subject): boolean =>
  PERMISSIONS[permission][subject];
