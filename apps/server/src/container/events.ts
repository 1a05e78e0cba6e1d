import { AttendeeLookupLimits } from '../access/attendee-lookup-limits.ts';
import { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';
import { UsageBudgets } from '../access/guest-limits.ts';
import { AttendeeRepository } from '../repositories/attendees/attendee.repository.ts';
import { EventRepository } from '../repositories/events/event.repository.ts';
import { FromAddressVerificationRepository } from '../repositories/messaging/from-address-verification.repository.ts';
import { IgnoredFaceRepository } from '../repositories/faces/ignored-face.repository.ts';
import { ImageProcessRepository } from '../repositories/printing/image-process.repository.ts';
import { PrintTemplateRepository } from '../repositories/printing/print-template.repository.ts';
import { EventProviderCredentials } from '../repositories/provider-credentials.ts';
import { PaymentConnectionRepository } from '../repositories/payments/payment-connection.repository.ts';
import { RobotRepository } from '../repositories/events/robot.repository.ts';
import { AccessControl } from '../access/access-control.ts';
import { EventFromAddressService } from '../services/messaging/event-from-address.service.ts';
import { EventService } from '../services/events/event.service.ts';
import { displayTokenOf } from '../services/events/event-settings.ts';
import { IgnoredFaceService } from '../services/faces/ignored-face.service.ts';
import { ImageProcessService } from '../services/printing/image-process.service.ts';
import { RobotService } from '../services/events/robot.service.ts';
import {
  ShareBucketService,
  StorageEventSettingsFile,
} from '../services/events/share-bucket.service.ts';
import type { Core } from './core.ts';
import type { Identity } from './identity.ts';
import type { Messaging } from './messaging.ts';

/** Events: settings, keys and access, robots, image processes, templates, share bucket. */
export const wireEvents = (core: Core, identity: Identity, messaging: Messaging) => {
  const { config, database, clock, secrets, storage, bus } = core;
  const { organisations } = identity.repositories;
  const { mail } = messaging.services;
  const events = new EventRepository(database.db);
  const paymentConnections = new PaymentConnectionRepository(database.db);
  const robots = new RobotRepository(database.db);
  const imageProcesses = new ImageProcessRepository(database.db);
  const printTemplates = new PrintTemplateRepository(database.db);
  const ignoredFaces = new IgnoredFaceRepository(database.db);
  const fromAddressVerifications = new FromAddressVerificationRepository(database.db);
  // Attendee keys open events too: event access reads attendee rows (attendees domain).
  const attendees = new AttendeeRepository(database.db);
  // One access layer: keys become principals, requireEventAccess decides (access/).
  const access = new AccessControl({
    events,
    robots,
    attendees,
    clock,
    attendeeLookups: new AttendeeLookupLimits(
      new UsageBudgets(new HitCounterRepository(database)),
      config.guestLimits,
    ),
    displayToken: (eventId) => displayTokenOf(secrets, eventId),
  });
  const imageProcessService = new ImageProcessService(imageProcesses, access);
  const eventFromAddress = new EventFromAddressService({
    verifications: fromAddressVerifications,
    events,
    mail,
    clock,
    publicUrl: config.publicUrl,
  });
  const eventService = new EventService({
    events,
    robots,
    imageProcesses,
    templates: printTemplates,
    organisations,
    access,
    fromAddress: eventFromAddress,
    secrets,
    clock,
    settingsFile: new StorageEventSettingsFile(storage),
    publicStoragePrefix: storage.publicUrl('x').slice(0, -1),
    bus,
  });
  return {
    access,
    repositories: {
      events,
      robots,
      imageProcesses,
      printTemplates,
      ignoredFaces,
      attendees,
      /** Provider credentials an event carries (secure fields), for adapters called on its behalf. */
      eventCredentials: new EventProviderCredentials(events, secrets, paymentConnections),
      /** The organisations' payment provider connections and card readers. */
      paymentConnections,
    },
    services: {
      events: eventService,
      eventFromAddress,
      robots: new RobotService(robots, organisations, access),
      imageProcesses: imageProcessService,
      ignoredFaces: new IgnoredFaceService(ignoredFaces, access),
      shareBucket: new ShareBucketService(storage, organisations, access),
    },
  };
};
export type Events = ReturnType<typeof wireEvents>;
