import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { photos } from '../../db/schema.ts';

/** A photo row (as photo.repository.ts's `PhotoRow`; named here so the two files import no circle). */
type PhotoRow = typeof photos.$inferSelect;

/**
 * Who a photo has reached: the one rule every guest read and every guest-facing reaction asks,
 * in JavaScript (one row in hand) and as SQL (lists, searches, sweeps). Keep the two in step.
 *
 * - released: not held by moderation (approved, approved with its fan-out still owed, or never
 *   held). A held photo starts no reaction meant for guests: face indexing and its "photos of
 *   you" messages, stories, notifications.
 * - shown to guests: released, ready and visible. Every key but the event owner's (and the
 *   operators') sees only these; the photo delay and the stream window come on top where a list
 *   applies them (album-visibility.ts, PhotoRepository's `publishedOnly`).
 */
export const isReleased = (photo: Pick<PhotoRow, 'moderation'>): boolean =>
  photo.moderation !== 'pending';

export const shownToGuests = (
  photo: Pick<PhotoRow, 'status' | 'isVisible' | 'moderation'>,
): boolean => photo.status === 'ready' && photo.isVisible === 1 && isReleased(photo);

/** `isReleased` in SQL over `photos`. */
export const releasedSql: SQL = ne(photos.moderation, 'pending');

/** `isReleased` in raw SQL over an alias of `photos` (`p` in the face searches). */
export const releasedAs = (alias: 'p'): SQL => sql.raw(`${alias}.moderation <> 'pending'`);

/** `shownToGuests` in raw SQL over an alias of `photos`. */
export const shownToGuestsAs = (alias: 'p'): SQL =>
  sql.raw(
    `${alias}.status = 'ready' and ${alias}.is_visible = 1 and ${alias}.moderation <> 'pending'`,
  );

/** `shownToGuests` in SQL over `photos`. */
export const shownToGuestsSql: SQL = and(
  eq(photos.status, 'ready'),
  eq(photos.isVisible, 1),
  releasedSql,
)!;

/**
 * In the event's album: every photo but a guest's own kept to its uploader's album
 * (`album_only`, the event's `guestUploadsPublic` off). Event-wide guest reads (the public and
 * private albums, the kiosk, streams, shares, face results) ask this on top of `shownToGuests`;
 * an attendee's own album and operators do not.
 */
export const inEventAlbum = (photo: Pick<PhotoRow, 'albumOnly'>): boolean => photo.albumOnly === 0;

/** `inEventAlbum` in SQL over `photos`. */
export const inEventAlbumSql: SQL = eq(photos.albumOnly, 0);

/** `inEventAlbum` in raw SQL over an alias of `photos` (`p` in the face searches). */
export const inEventAlbumAs = (alias: 'p'): SQL => sql.raw(`${alias}.album_only = 0`);
