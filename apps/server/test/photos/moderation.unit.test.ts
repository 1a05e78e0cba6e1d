import { describe, expect, it } from 'vitest';
import { isReleased, shownToGuests } from '../../src/repositories/photos/photo-visibility.ts';
import { albumDecision } from '../../src/services/albums/album-visibility.ts';
import { announcesReady, heldForModeration } from '../../src/services/photos/moderation.ts';

/**
 * Moderation's rules on plain values: which uploads wait, who a waiting photo reaches, and when a
 * photo announces itself. moderation.test.ts proves the app applies them.
 */

const NOW = new Date('2026-06-01T12:00:00Z');
const AUDIENCES = ['owner', 'private', 'public', 'attendee', 'robot'] as const;
const GUESTS = ['private', 'public', 'attendee'] as const;
const opts = (moderationEnabled: 0 | 1, moderationSkipOwnerUploads: 0 | 1) => ({
  moderationEnabled,
  moderationSkipOwnerUploads,
});
const photo = (moderation: 'pending' | 'releasing' | 'approved') => ({
  status: 'ready',
  isVisible: 1,
  moderation,
  availableAt: new Date(NOW.getTime() - 60_000),
  createdAt: new Date(NOW.getTime() - 120_000),
});

describe('which uploads wait for moderation', () => {
  it('none while the event does not moderate (the default)', () => {
    for (const uploader of AUDIENCES) {
      expect(heldForModeration(opts(0, 0), uploader)).toBe(false);
      expect(heldForModeration(opts(0, 1), uploader)).toBe(false);
    }
  });

  it('every upload while it moderates, the owner audience’s too unless the setting skips them', () => {
    for (const uploader of AUDIENCES) expect(heldForModeration(opts(1, 0), uploader)).toBe(true);
    expect(heldForModeration(opts(1, 1), 'owner')).toBe(false);
    for (const uploader of ['robot', 'private', 'public', 'attendee'] as const)
      expect(heldForModeration(opts(1, 1), uploader), uploader).toBe(true);
  });
});

describe('who a waiting photo reaches', () => {
  it('a pending photo is shown to no guest and released to nothing; approved ones are', () => {
    expect(isReleased(photo('pending'))).toBe(false);
    expect(shownToGuests(photo('pending'))).toBe(false);
    for (const state of ['releasing', 'approved'] as const) {
      expect(isReleased(photo(state))).toBe(true);
      expect(shownToGuests(photo(state))).toBe(true);
    }
    // Approval does not show what is hidden or unfinished.
    expect(shownToGuests({ ...photo('approved'), isVisible: 0 })).toBe(false);
    expect(shownToGuests({ ...photo('approved'), status: 'processing' })).toBe(false);
  });

  it('the album rule keeps a pending photo from every guest audience, never from the owner', () => {
    const none = { photo_stream_available_minutes: null };
    for (const audience of GUESTS)
      expect(albumDecision(photo('pending'), none, audience, NOW), audience).toEqual({
        show: false,
        due: null,
      });
    expect(albumDecision(photo('pending'), none, 'owner', NOW)).toEqual({ show: true });
    for (const audience of GUESTS)
      expect(albumDecision(photo('releasing'), none, audience, NOW)).toEqual({ show: true });
  });
});

describe('when a photo announces itself (photo.ready)', () => {
  it('its derivatives announce it unless it waits; an approval made meanwhile lets them', () => {
    expect(announcesReady({ moderation: 'pending' })).toBe(false);
    expect(announcesReady({ moderation: 'approved' })).toBe(true);
    expect(announcesReady({ moderation: 'releasing' })).toBe(true);
  });
});
