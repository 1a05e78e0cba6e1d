import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Messaging } from './messaging.ts';
import { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';
import { UsageBudgets } from '../access/guest-limits.ts';
import { NotificationRepository } from '../repositories/messaging/notification.repository.ts';
import { AlbumMailService } from '../services/messaging/album-mail.service.ts';
import { EventMailService } from '../services/messaging/event-mail.service.ts';
import { OutboxAdminService } from '../services/messaging/outbox-admin.service.ts';
import { registerNotificationListeners } from '../services/messaging/notification.listeners.ts';
import { NotificationService } from '../services/messaging/notification.service.ts';
import { WebappService } from '../services/albums/webapp.service.ts';

/**
 * Messaging's second half, wired once the events domain exists: notifications by topic
 * (docs/domains/messaging.md: product facts on the bus → the event's topic templates → the
 * outbox, once per recipient and fact; the unsubscribe list), the album and event mails, the
 * Outbox page; and the guest-side service that sends through them (the web-app page).
 */
export const wireMessagingTopics = (core: Core, events: Events, messaging: Messaging) => {
  const { config, database, bus, secrets } = core;
  const notificationRows = new NotificationRepository(database.db);
  const notifications = new NotificationService({
    events: events.repositories.events,
    rows: notificationRows,
    outbox: messaging.services.outbox,
    platformFrom: config.mailFrom,
    publicUrl: config.publicUrl,
    signingKey: secrets.signingKey,
    publicMediaUrl: (key) => core.storage.publicUrl(key),
  });
  registerNotificationListeners(bus, {
    notifications,
    rows: notificationRows,
    events: events.repositories.events,
  });
  // The album e-mail (`email_body_template`) for every sender of album links.
  const albumMail = new AlbumMailService({
    outbox: messaging.services.outbox,
    notifications,
    platformFrom: config.mailFrom,
    publicMediaUrl: (key) => core.storage.publicUrl(key),
  });
  // The attendee list mail and the daily report (operator mail).
  const eventMail = new EventMailService({
    events: events.repositories.events,
    rows: notificationRows,
    outbox: messaging.services.outbox,
    publicUrl: config.publicUrl,
    publicMediaUrl: (key) => core.storage.publicUrl(key),
  });
  // The console's Outbox page.
  const outboxAdmin = new OutboxAdminService({
    access: events.access,
    rows: notificationRows,
    outboxRows: messaging.repositories.outbox,
    outbox: messaging.services.outbox,
  });
  // The web-app page (`/?eName=`) and its registration.
  const webapp = new WebappService({
    events: events.repositories.events,
    attendees: events.repositories.attendees,
    access: events.access,
    albumMail,
    notifications,
    outbox: messaging.services.outbox,
    clock: core.clock,
    publicUrl: config.publicUrl,
    publicMediaUrl: (key) => core.storage.publicUrl(key),
    budgets: new UsageBudgets(new HitCounterRepository(database)),
    limits: config.guestLimits,
    bus,
  });
  return {
    repositories: { notifications: notificationRows },
    services: { notifications, albumMail, eventMail, outboxAdmin, webapp },
  };
};
export type MessagingTopics = ReturnType<typeof wireMessagingTopics>;
