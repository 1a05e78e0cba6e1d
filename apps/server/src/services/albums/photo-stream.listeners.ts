import type { SignalBus } from '../../signals/signal-bus.ts';
import type { PhotoEventsRepository } from '../../repositories/photos/photo-events.repository.ts';

/**
 * Live streams (ADR 0002) hear of photos through PostgreSQL `NOTIFY`: a photo that became ready
 * or visible again, or joined an attendee's album. One short NOTIFY per photo, inline: a job
 * would add its polling delay to the 2 s the stream promises.
 */
export const registerPhotoStreamListeners = (
  bus: SignalBus,
  notices: Pick<PhotoEventsRepository, 'photoReady'>,
): void => {
  bus.on('photo.ready', 'photo stream: notify', ({ photoId, eventId }) =>
    notices.photoReady({ photoId, eventId }),
  );
  bus.on('photo.shown', 'photo stream: notify', ({ photoId, eventId }) =>
    notices.photoReady({ photoId, eventId }),
  );
  bus.on('attendee.photos_attached', 'photo stream: notify the attendee', async (event) => {
    // A photo attached to one attendee's album is news to that attendee's streams only.
    for (const { photoId, eventId } of event.photos)
      await notices.photoReady({ photoId, eventId, attendeeId: event.attendeeId });
  });
};
