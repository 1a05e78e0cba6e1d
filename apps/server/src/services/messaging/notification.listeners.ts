import type { SignalBus } from '../../signals/signal-bus.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type {
  AttendeeContact,
  NotificationRepository,
  ReadyPhotoFacts,
} from '../../repositories/messaging/notification.repository.ts';
import type { NotificationService } from './notification.service.ts';

/**
 * Product facts → topic notifications. Each listener reads the recipients and puts
 * at most one message per recipient and fact in the outbox (rendering and one insert per
 * channel; delivery is the outbox's `mail.deliver` / `sms.deliver` job). Fact keys:
 * - `photo_ready`: `photo:<photoId>` — on `photo.ready` for every attendee whose album holds the
 *   photo (the one it was uploaded for, and those it was attached to); on `attendee.photos_attached` once per batch, keyed by the batch's first ready photo
 *   (a batch of 300 photos is one message, and its photos' later `photo.ready` adds none);
 * - `album_unlocked`: `unlock` (once per attendee and event);
 * - `payment_receipt`: `payment:<paymentId>`;
 * - `print_ready` (or the topic `pickupLocationNotificationTopic` names): `print:<printRequestId>`
 *   (a request printed on several sheets is one message, when its first sheet is done).
 */
export const registerNotificationListeners = (
  bus: SignalBus,
  deps: {
    notifications: NotificationService;
    rows: NotificationRepository;
    events: Pick<EventRepository, 'findById'>;
  },
): void => {
  const { notifications, rows } = deps;
  /** The `photo_ready` notice, keyed by the photo: one per attendee, whichever fact came first. */
  const photoReady = (photoId: number, photo: ReadyPhotoFacts, attendee: AttendeeContact) =>
    notifications.notifyAttendee(
      photo.eventId,
      'photo_ready',
      `photo:${photoId}`,
      attendee,
      photo.clip,
    );

  bus.on('photo.ready', 'notifications: photo_ready', async ({ photoId }) => {
    const { photo, attendees } = await rows.attendeesOfReadyPhoto(photoId);
    if (!photo) return;
    for (const attendee of attendees) await photoReady(photoId, photo, attendee);
  });

  bus.on('attendee.photos_attached', 'notifications: photo_ready', async (event) => {
    for (const { photoId } of event.photos) {
      const { photo, attendees } = await rows.attendeesOfReadyPhoto(photoId);
      const attendee = attendees.find((a) => a.id === event.attendeeId);
      if (!photo || !attendee) continue;
      await photoReady(photoId, photo, attendee);
      return;
    }
  });

  bus.on('attendee.unlocked', 'notifications: album_unlocked', async ({ attendeeId, eventId }) => {
    const attendee = await rows.attendee(attendeeId);
    if (attendee) await notifications.notifyAttendee(eventId, 'album_unlocked', 'unlock', attendee);
  });

  bus.on('payment.confirmed', 'notifications: payment_receipt', async ({ paymentId, eventId }) => {
    const attendee = await rows.payer(paymentId);
    if (attendee)
      await notifications.notifyAttendee(
        eventId,
        'payment_receipt',
        `payment:${paymentId}`,
        attendee,
      );
  });

  bus.on('print.finished', 'notifications: print_ready', async ({ printJobId, eventId }) => {
    const requester = await rows.printRequester(printJobId);
    const event = await deps.events.findById(eventId);
    if (!requester || !event) return;
    const topic = event.row.opts.pickupLocationNotificationTopic.trim() || 'print_ready';
    await notifications.notifyAttendee(
      eventId,
      topic,
      `print:${requester.printRequestId}`,
      requester.attendee,
    );
  });
};
