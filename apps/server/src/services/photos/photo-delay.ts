import type { EventOpts } from '@flashbulb/shared';
import { ownerPatternMatches } from '../../lib/owner-pattern.ts';

/** Why a photo waits before guest keys see it, and for how long. */
export type PhotoDelay =
  | { minutes: number; reason: 'none' | 'event' | 'vip' }
  | { minutes: number; reason: 'tags'; tags: string[] };

type DelayOpts = Pick<
  EventOpts,
  | 'photoDelayMinutes'
  | 'photoDelayVipMinutes'
  | 'attendeeIdVipRegex'
  | 'isPhotoDelayCheckTags'
  | 'photoDelayTags'
  | 'photoDelayTagsMinutes'
>;

/** A tag as compared: no leading `#`, no case (as the stock-image policies compare them). */
const tagKey = (tag: string) => tag.trim().replace(/^#+/, '').toLowerCase();

/**
 * How long a new photo waits before guest keys see it (owner-console opts; the album rule
 * `albumDecision` holds it until then). The most specific rule wins:
 * - a photo carrying one of `photoDelayTags`, while `isPhotoDelayCheckTags` is on and
 *   `photoDelayTagsMinutes` is set, waits those minutes: tags are how an operator marks the photos
 *   to hold (a sponsor's, one to review), whoever is in them;
 * - else a photo of a VIP attendee (`attendeeIdVipRegex`, on RE2) waits `photoDelayVipMinutes`;
 * - else `photoDelayMinutes` (none set: no wait).
 */
export const photoDelay = (
  opts: DelayOpts,
  photo: { attendeeUid: string | null; tags: readonly string[] },
): PhotoDelay => {
  if (opts.isPhotoDelayCheckTags === 1 && opts.photoDelayTagsMinutes !== null) {
    const held = new Set(opts.photoDelayTags.map(tagKey).filter(Boolean));
    const matched = photo.tags.filter((tag) => held.has(tagKey(tag)));
    if (matched.length > 0)
      return { minutes: opts.photoDelayTagsMinutes, reason: 'tags', tags: matched };
  }
  if (photo.attendeeUid && opts.attendeeIdVipRegex && opts.photoDelayVipMinutes !== null) {
    // An operator's pattern: RE2 only (lib/owner-pattern.ts), never the backtracking engine.
    if (ownerPatternMatches(opts.attendeeIdVipRegex, photo.attendeeUid))
      return { minutes: opts.photoDelayVipMinutes, reason: 'vip' };
  }
  return opts.photoDelayMinutes === null
    ? { minutes: 0, reason: 'none' }
    : { minutes: opts.photoDelayMinutes, reason: 'event' };
};
