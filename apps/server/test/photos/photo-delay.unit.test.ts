import { defaultEventOpts, type EventOpts } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import { photoDelay } from '../../src/services/photos/photo-delay.ts';

/**
 * How long a new photo waits before guest keys see it: the event's delay, the VIP delay, and the
 * delay by tags, on plain settings (no app, no database). `photos/calls.test.ts` proves an upload
 * applies it to the guest lists.
 */

const opts = (over: Partial<EventOpts> = {}): EventOpts => ({ ...defaultEventOpts(), ...over });
const tagged = (...tags: string[]) => ({ attendeeUid: null, tags });
const byTags: Partial<EventOpts> = {
  isPhotoDelayCheckTags: 1,
  photoDelayTags: ['review', '#Sponsor'],
  photoDelayTagsMinutes: 45,
};

describe('photo delay', () => {
  it('none set: no wait', () => {
    expect(photoDelay(opts(), tagged('review'))).toEqual({ minutes: 0, reason: 'none' });
  });

  it("the event's delay for every photo", () => {
    expect(photoDelay(opts({ photoDelayMinutes: 10 }), tagged())).toEqual({
      minutes: 10,
      reason: 'event',
    });
  });

  it('holds a photo carrying a delay tag for the tag minutes, tags compared without case or #', () => {
    const o = opts({ ...byTags, photoDelayMinutes: 10 });
    expect(photoDelay(o, tagged('party', 'REVIEW'))).toEqual({
      minutes: 45,
      reason: 'tags',
      tags: ['REVIEW'],
    });
    expect(photoDelay(o, tagged('sponsor'))).toMatchObject({ minutes: 45, reason: 'tags' });
    // A photo without one of the tags waits the event's delay.
    expect(photoDelay(o, tagged('party'))).toEqual({ minutes: 10, reason: 'event' });
    expect(photoDelay(o, tagged())).toEqual({ minutes: 10, reason: 'event' });
  });

  it('a tag minutes shorter than the event delay shows the tagged photo sooner', () => {
    const o = opts({ ...byTags, photoDelayTagsMinutes: 2, photoDelayMinutes: 30 });
    expect(photoDelay(o, tagged('review'))).toMatchObject({ minutes: 2, reason: 'tags' });
  });

  it('no delay by tags while the check is off, the minutes unset or the tag list empty', () => {
    const base = { ...byTags, photoDelayMinutes: 5 };
    const cases: Partial<EventOpts>[] = [
      { isPhotoDelayCheckTags: 0 },
      { photoDelayTagsMinutes: null },
      { photoDelayTags: [] },
      { photoDelayTags: ['', '#'] },
    ];
    for (const over of cases)
      expect(
        photoDelay(opts({ ...base, ...over }), tagged('review')),
        JSON.stringify(over),
      ).toEqual({
        minutes: 5,
        reason: 'event',
      });
  });

  it('a VIP attendee waits the VIP delay; a tagged photo of a VIP still waits its tag minutes', () => {
    const vip = opts({
      attendeeIdVipRegex: '^VIP',
      photoDelayVipMinutes: 1,
      photoDelayMinutes: 20,
    });
    expect(photoDelay(vip, { attendeeUid: 'VIP7', tags: [] })).toEqual({
      minutes: 1,
      reason: 'vip',
    });
    expect(photoDelay(vip, { attendeeUid: 'A7', tags: [] })).toEqual({
      minutes: 20,
      reason: 'event',
    });
    const both = opts({ ...byTags, attendeeIdVipRegex: '^VIP', photoDelayVipMinutes: 1 });
    expect(photoDelay(both, { attendeeUid: 'VIP7', tags: ['review'] })).toMatchObject({
      minutes: 45,
      reason: 'tags',
    });
  });
});
