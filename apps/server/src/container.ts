import type { FastifyBaseLogger as Logger } from 'fastify';
import type { LeadGate } from './access/lead-gate.ts';
import type { AppConfig } from './config.ts';
import { DatabaseMaintenance } from './db/maintenance.ts';
import { wireAlbums } from './container/albums.ts';
import { wireAttendees } from './container/attendees.ts';
import { createCore, type ContainerOptions } from './container/core.ts';
import { wireEvents } from './container/events.ts';
import { wireFaces } from './container/faces.ts';
import { wireIdentity } from './container/identity.ts';
import { bindJobs } from './container/jobs.ts';
import { wireMessaging } from './container/messaging.ts';
import { wireMessagingTopics } from './container/messaging-topics.ts';
import { wireOperations } from './container/operations.ts';
import { wirePayments } from './container/payments.ts';
import { wirePhotos } from './container/photos.ts';
import { wirePrinting } from './container/printing.ts';

export {
  embeddedDatabaseFolder,
  openConfiguredDatabase,
  type ContainerOptions,
} from './container/core.ts';

/** Domains are composed flat: two of them naming the same service or repository is a bug. */
export const assertDisjoint = (kind: string, parts: object[]): void => {
  const seen = new Set<string>();
  for (const name of parts.flatMap((part) => Object.keys(part))) {
    if (seen.has(name)) throw new Error(`container: two domains define ${kind}.${name}`);
    seen.add(name);
  }
};

/**
 * Wires repositories into services, one file per domain under `container/` (each service gets
 * only what it uses), and composes them: `services.*` and `repositories.*` are flat.
 */
export const createContainer = async (
  config: AppConfig,
  logger: Logger,
  options: ContainerOptions = {},
) => {
  const core = await createCore(config, logger, options);
  const { database, jobs, bus, storage, clock, metrics } = core;
  bus.on('photo.uploaded', 'metrics: count ingested photos', () => metrics.photoIngested());
  bus.on('photo.ready', 'metrics: count ready photos', () => metrics.photoReady());
  const messaging = wireMessaging(core);
  const identity = wireIdentity(core, messaging, (organisationId) =>
    events.services.imageProcesses.seedDefaults(organisationId),
  );
  const events = wireEvents(core, identity, messaging);
  // The lead gate lives with the leads (attendees), wired after the photos and albums it guards.
  const leadGate: LeadGate = (principal, pass) =>
    attendees.services.leads.requireLead(principal, pass);
  const photos = wirePhotos(core, events, {
    claimUploadedId: (event, uid) => attendees.services.attendees.claimUploadedId(event, uid),
    attachUploaded: (event, photo, uids) =>
      attendees.services.attendees.attachUploaded(event, photo, uids),
    leadGate,
  });
  const albums = wireAlbums(core, events, photos, messaging, {
    albumMail: () => notifications.services.albumMail,
    leadGate,
  });
  const attendees = wireAttendees(core, events, photos, albums, {
    albumMail: () => notifications.services.albumMail,
  });
  const faces = wireFaces(core, events, photos, options.faceEngine, {
    // "New photos of you" goes through the event's topics and the outbox.
    notifyAttendee: async (eventId, attendeeId, factKey) => {
      const contact = await notifications.repositories.notifications.attendee(attendeeId);
      if (contact)
        await notifications.services.notifications.notifyAttendee(
          eventId,
          'photo_ready',
          factKey,
          contact,
        );
    },
  });
  const payments = wirePayments(core, identity, events, photos, albums, messaging);
  const notifications = wireMessagingTopics(core, events, messaging);
  const printing = wirePrinting(core, events, photos, albums);
  const operations = wireOperations(core, identity, events, messaging, options.webhookResolve);
  const domains = [
    identity,
    messaging,
    events,
    photos,
    albums,
    attendees,
    faces,
    payments,
    notifications,
    printing,
    operations,
  ];
  assertDisjoint(
    'repositories',
    domains.map((d) => d.repositories),
  );
  assertDisjoint(
    'services',
    domains.map((d) => d.services),
  );

  return {
    database,
    jobs,
    /** The in-process signal bus (signals/signal-bus.ts). */
    bus,
    /** Prometheus metrics of this process (http/metrics.ts) and the reads behind its gauges. */
    metrics,
    operations: core.operations,
    /** Maintenance while a backup is restored into the running server (lib/maintenance-gate.ts). */
    maintenance: core.maintenance,
    /** Object storage (local disk or S3); see src/storage/storage.repository.ts. */
    storage,
    /** The one access layer (access/): keys into principals, requireEventAccess. */
    access: events.access,
    /** Payment adapters by name (the built-in test provider). */
    paymentProviders: payments.providers,
    repositories: {
      ...identity.repositories,
      ...messaging.repositories,
      ...events.repositories,
      ...photos.repositories,
      ...albums.repositories,
      ...attendees.repositories,
      ...faces.repositories,
      ...payments.repositories,
      ...notifications.repositories,
      ...printing.repositories,
      ...operations.repositories,
    },
    services: {
      ...identity.services,
      ...messaging.services,
      ...events.services,
      ...photos.services,
      ...albums.services,
      ...attendees.services,
      ...faces.services,
      ...payments.services,
      ...notifications.services,
      ...printing.services,
      ...operations.services,
    },
    /** Starts the job queue and registers the job handlers (the worker role). */
    async startWorker(): Promise<void> {
      await jobs.start();
      // PGlite has one process (the data-folder lock): what it left active died with it.
      if (database.engine === 'pglite') await jobs.recoverOrphans();
      await jobs.startWorker(
        bindJobs({
          photoDerivatives: photos.services.photoDerivatives,
          photoModeration: photos.services.photoModeration,
          photoRetention: photos.services.photoRetention,
          photoVariants: photos.services.photoVariants,
          previewProtection: photos.services.previewProtection,
          outbox: messaging.services.outbox,
          sessions: identity.repositories.sessions,
          auth: identity.services.passwordReset,
          attendees: attendees.services.attendees,
          storageMigration: photos.services.storageMigration,
          uploadSweep: photos.services.uploadSweep,
          storageDeletions: photos.services.storageDeletions,
          albumZipMail: albums.services.albumZipMail,
          maintenance: new DatabaseMaintenance({
            database,
            logger: logger.child({ component: 'maintenance' }),
          }),
          faceIndex: faces.services.faceIndex,
          faceSelfies: faces.services.faceSelfies,
          payments: payments.services.payments,
          albumPurchases: payments.services.albumPurchases,
          notifications: notifications.services.notifications,
          eventMail: notifications.services.eventMail,
          printing: {
            renderAndPrint: (id) => printing.services.printSheets.renderAndPrint(id),
            resume: () => printing.services.printSheets.resume(),
            tagStories: (eventId, photoId) =>
              printing.services.autoPrint.tagStories(eventId, photoId),
          },
          providerCheckouts: payments.services.providerCheckouts,
          webhooks: operations.services.webhookOut,
          integrity: operations.services.integrity,
          backups: operations.services.backups,
          integrityLog: logger.child({ component: 'integrity' }),
          clock,
        }),
      );
      // ADR 0006: move files stored before protected storage (idempotent; a no-op once done).
      await jobs.send('storage.protect-legacy', {});
      // Uploads a crash left in tmp/ (and the claims of completions it interrupted).
      await jobs.send('storage.sweep-uploads', {}, { singletonKey: 'at-start' });
      // Messages whose job was lost (a crash between insert and enqueue) or whose worker died.
      await messaging.services.outbox.resumeDue();
      await operations.services.webhookOut.resumeDue();
    },
    /** Producer only: the API can enqueue jobs without running handlers. */
    async startQueue(): Promise<void> {
      await jobs.start();
    },
    async close(): Promise<void> {
      await jobs.stop();
      await faces.close();
      await photos.close();
      messaging.close();
      await storage.close();
      if (core.ownsDatabase) await database.close();
    },
  };
};

export type Container = Awaited<ReturnType<typeof createContainer>>;
