import { describe, expect, it } from 'vitest';
import { isOwnedSpace } from '../../src/services/operations/integrity.service.ts';

/**
 * Which stored objects the integrity check may call untracked: only key spaces whose every object
 * a row names. Objects that settings name or that are in flight are never reported.
 */
describe('integrity check: key spaces rows own', () => {
  it.each([
    ['protected/events/ABCD/photos/uid_1_uid/original.jpg', true],
    ['events/ABCD/photos/uid_1_uid/thumbnail.jpg', true],
    ['archive/protected/events/ABCD/photos/uid_1_uid/original.jpg', true],
    ['selfies/ABCD/guest.jpg', true],
    ['profile-photos/att1/photo.jpg', true],
    ['prints/7/job-3.jpg', true],
    // named by settings, written for browsers, or in flight: not judged
    ['share/1/watermarks/frame.png', false],
    ['stock-images/ABCD/logo.png', false],
    ['data/ABCD.json', false],
    ['tmp/ABCD/123/photo.jpg', false],
    ['profile-photos/tmp/att1/x/photo.jpg', false],
    ['selfies/probe/probe.jpg', false],
    ['ready-check/abc', false],
    ['events/ABCD/settings.json', false],
  ])('%s → %s', (key, owned) => {
    expect(isOwnedSpace(key)).toBe(owned);
  });
});
