import { describe, expect, it } from 'vitest';
import { albumDecision } from '../../src/services/albums/album-visibility.ts';

/**
 * The album's rule for one photo (photo delay, stream window, hidden and unfinished photos), on
 * plain rows: no app, no database. The API tests prove the lists apply it; this proves the rule.
 */

const NOW = new Date('2026-06-01T12:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

const photo = (
  over: Partial<{
    status: string;
    isVisible: number;
    availableAt: Date;
    createdAt: Date;
  }> = {},
) =>
  ({
    status: 'ready',
    isVisible: 1,
    availableAt: minutes(-1),
    createdAt: minutes(-5),
    ...over,
  }) as Parameters<typeof albumDecision>[0];

const noWindow = { photo_stream_available_minutes: null };
const window = (n: number) => ({ photo_stream_available_minutes: n });

describe('album decision: what a photo shows to whom', () => {
  it('shows a ready, visible photo past its delay to every audience', () => {
    for (const audience of ['owner', 'private', 'public', 'attendee', 'robot'] as const)
      expect(albumDecision(photo(), noWindow, audience, NOW), audience).toEqual({ show: true });
  });

  it('never shows an unfinished photo, not even to the owner, and names no time', () => {
    for (const status of ['processing', 'failed', 'deleted'])
      for (const audience of ['owner', 'private', 'public'] as const)
        expect(albumDecision(photo({ status }), noWindow, audience, NOW)).toEqual({
          show: false,
          due: null,
        });
  });

  it('shows the owner hidden and delayed photos; others never see a hidden one', () => {
    const hidden = photo({ isVisible: 0, availableAt: minutes(30) });
    expect(albumDecision(hidden, noWindow, 'owner', NOW)).toEqual({ show: true });
    for (const audience of ['private', 'public', 'attendee', 'robot'] as const)
      expect(albumDecision(hidden, noWindow, audience, NOW), audience).toEqual({
        show: false,
        due: null,
      });
  });

  it('photo delay: held until its available time, and says when; shown from that instant', () => {
    const delayed = photo({ availableAt: minutes(10) });
    expect(albumDecision(delayed, noWindow, 'private', NOW)).toEqual({
      show: false,
      due: minutes(10),
    });
    expect(albumDecision(delayed, noWindow, 'private', minutes(10))).toEqual({ show: true });
    expect(albumDecision(delayed, noWindow, 'public', minutes(9.99))).toEqual({
      show: false,
      due: minutes(10),
    });
  });

  it('stream window: the public key sees only photos taken within the last N minutes', () => {
    const old = photo({ createdAt: minutes(-31) });
    const recent = photo({ createdAt: minutes(-29) });
    const edge = photo({ createdAt: minutes(-30) });
    expect(albumDecision(old, window(30), 'public', NOW)).toEqual({ show: false, due: null });
    expect(albumDecision(recent, window(30), 'public', NOW)).toEqual({ show: true });
    // Exactly N minutes old is still inside the window.
    expect(albumDecision(edge, window(30), 'public', NOW)).toEqual({ show: true });
    // Without a window every age shows.
    expect(albumDecision(old, noWindow, 'public', NOW)).toEqual({ show: true });
  });

  it('the stream window binds the public key only, and only where the caller applies it', () => {
    const old = photo({ createdAt: minutes(-600) });
    for (const audience of ['owner', 'private', 'attendee'] as const)
      expect(albumDecision(old, window(30), audience, NOW), audience).toEqual({ show: true });
    expect(albumDecision(old, window(30), 'public', NOW, { streamWindow: false })).toEqual({
      show: true,
    });
    // A window of 0 minutes: only photos taken this instant.
    expect(albumDecision(photo({ createdAt: NOW }), window(0), 'public', NOW)).toEqual({
      show: true,
    });
    expect(albumDecision(old, window(0), 'public', NOW)).toEqual({ show: false, due: null });
  });

  it('outside the stream window a photo is gone for good, even while its delay still runs', () => {
    const oldAndDelayed = photo({ createdAt: minutes(-60), availableAt: minutes(5) });
    expect(albumDecision(oldAndDelayed, window(30), 'public', NOW)).toEqual({
      show: false,
      due: null,
    });
    expect(albumDecision(oldAndDelayed, window(30), 'private', NOW)).toEqual({
      show: false,
      due: minutes(5),
    });
  });
});
