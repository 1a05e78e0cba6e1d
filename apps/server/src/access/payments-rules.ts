import { userTypeOf } from '@flashbulb/shared';
import { ownerPatternMatches } from '../lib/owner-pattern.ts';
import type { AttendeeRecord } from '../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../repositories/events/event.repository.ts';
import type { Principal } from './principal.ts';

/**
 * Who pays on an album page (the event's `albumPaymentMethods`): an attendee's key on their own
 * album, and a guest buying from the public album or a private-album link (without the kiosk's
 * display token). Every other key pays at a kiosk (the event's `kioskPaymentMethods`).
 */
export const paysOnAlbumPage = (principal: Principal): boolean =>
  principal.kind === 'key' &&
  (principal.keyType === 'attendee' ||
    principal.keyType === 'public' ||
    (principal.keyType === 'private' && !principal.kiosk));

/**
 * The attendee's price type (`{USER_TYPE}` of a pricing formula): 2 (VIP) when the attendee's
 * uid matches the event's VIP pattern, else 1 — the operator's pattern run on RE2.
 */
export const attendeePriceType = (
  attendee: Pick<AttendeeRecord, 'row'>,
  event: Pick<EventRecord, 'row'>,
): 1 | 2 => userTypeOf(attendee.row.uid, event.row.opts.attendeeIdVipRegex, ownerPatternMatches);
