import type { EventOpts } from '@flashbulb/shared';
import type { Audience } from './photo-downloads.ts';

type ModerationOpts = Pick<EventOpts, 'moderationEnabled' | 'moderationSkipOwnerUploads'>;

/**
 * Whether a new photo waits in the moderation queue: only while the event moderates
 * (`moderationEnabled`, off by default). The uploads of those who run the event (operators in the
 * console and the roaming photographer's event-owner key, the `owner` audience the access layer
 * gives them) skip it when `moderationSkipOwnerUploads` says so; booths, robots, kiosk cameras
 * and guests adding their own photos always wait.
 */
export const heldForModeration = (opts: ModerationOpts, uploader: Audience): boolean => {
  if (opts.moderationEnabled !== 1) return false;
  return !(uploader === 'owner' && opts.moderationSkipOwnerUploads === 1);
};

/**
 * Whether the photo's `photo.ready` goes out now. A held photo's derivatives announce nothing:
 * its approval does (job `photos.moderation-release`). One that was approved while its
 * derivatives were still being made is announced by them, as any photo is.
 */
export const announcesReady = (photo: { moderation: 'pending' | 'releasing' | 'approved' }) =>
  photo.moderation !== 'pending';
