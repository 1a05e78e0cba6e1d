import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { PasswordHasher } from './lib/password-hasher.ts';
import { SecretBox } from './lib/secret-box.ts';
import { ApiKeyRepository } from './repositories/api-key.repository.ts';
import { OutboxRepository } from './repositories/outbox.repository.ts';
import { createProviders } from './repositories/providers.ts';
import { EventProviderCredentials } from './repositories/provider-credentials.ts';
import { WebhookEventRepository } from './repositories/webhooks/webhook-event.repository.ts';
import { OrganisationRepository } from './repositories/organisation.repository.ts';
import { SessionRepository } from './repositories/session.repository.ts';
import { ThrottleRepository } from './repositories/throttle.repository.ts';
import { UserRepository } from './repositories/user.repository.ts';
import { EventRepository } from './repositories/event.repository.ts';
import { FromAddressVerificationRepository } from './repositories/from-address-verification.repository.ts';
import { IgnoredFaceRepository } from './repositories/ignored-face.repository.ts';
import { ImageProcessRepository } from './repositories/image-process.repository.ts';
import { PrintTemplateRepository } from './repositories/print-template.repository.ts';
import { RobotRepository } from './repositories/robot.repository.ts';
import { AccessControl } from './access/access-control.ts';
import { EventFromAddressService } from './services/event-from-address.service.ts';
import { EventService } from './services/event.service.ts';
import { IgnoredFaceService } from './services/ignored-face.service.ts';
import { ImageProcessService } from './services/image-process.service.ts';
import { RobotService } from './services/robot.service.ts';
import { ShareBucketService, StorageEventSettingsFile } from './services/share-bucket.service.ts';
import { TemplateService } from './services/template.service.ts';
import { AuthService } from './services/auth.service.ts';
import { MailService } from './services/mail.service.ts';
import { OrganisationService } from './services/organisation.service.ts';
import { createStorage } from './storage/create-storage.ts';
import { ImageEngine } from './repositories/image-engine.ts';
import { PhotoRepository, retentionEventsQuery } from './repositories/photo.repository.ts';
import { PhotoUrls } from './services/photos/photo-urls.ts';
import { StorageMigration } from './services/photos/storage-migration.ts';
import { PhotoStorageRepository } from './repositories/photo-storage.repository.ts';
import { PhotoChangesService } from './services/photos/photo-changes.service.ts';
import { PhotoDerivativesService } from './services/photos/photo-derivatives.service.ts';
import { PhotoListingService } from './services/photos/photo-listing.service.ts';
import { PhotoRetentionService } from './services/photos/photo-retention.service.ts';
import { PhotoUploadService } from './services/photos/photo-upload.service.ts';
import { StockUploadService } from './services/stock-upload.service.ts';
import { UserService } from './services/user.service.ts';
import { AlbumRepository } from './repositories/album.repository.ts';
import { PhotoEventsRepository } from './repositories/photo-events.repository.ts';
import { MiniAlbumService } from './services/mini-album.service.ts';
import { PhotoStreamService } from './services/photo-stream.service.ts';
import { ShareService } from './services/share.service.ts';
import { SmsService } from './services/sms.service.ts';
import { AttendeeRepository } from './repositories/attendee.repository.ts';
import { AttendeeService } from './services/attendee.service.ts';
import { AttendeeUnlockRepository } from './repositories/attendee-unlock.repository.ts';
import { UnlockService } from './services/unlock.service.ts';
import { PrintRequestRepository } from './repositories/print-request.repository.ts';
import { PaymentRepository } from './repositories/payment.repository.ts';
import { PaymentService } from './services/payment.service.ts';
import { CheckoutService } from './services/checkout.service.ts';
import { ReceiptService } from './services/receipt.service.ts';
import { OrderAdminService } from './services/order-admin.service.ts';
import { TestPaymentsAdapter } from './repositories/payments/test-provider.adapter.ts';
import { createHmac } from 'node:crypto';
import { OutboxService } from './services/outbox.service.ts';
import { WebhookService } from './services/webhook.service.ts';

export interface ContainerOptions {
  /** An already open database (tests); otherwise opened from the config. */
  database?: Database;
  clock?: Clock;
}

/** The secret from config, or one generated once into the data dir (embedded mode). */
const resolveSecret = async (config: AppConfig): Promise<string> => {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
};

export const openConfiguredDatabase = (config: AppConfig): Promise<Database> =>
  config.databaseUrl
    ? openDatabase({ engine: 'postgres', url: config.databaseUrl })
    : openDatabase({ engine: 'pglite', dataDir: path.join(config.dataDir, 'db') });

/** Wires repositories into services. Each service gets only what it uses. */
export const createContainer = async (
  config: AppConfig,
  logger: Logger,
  options: ContainerOptions = {},
) => {
  const database = options.database ?? (await openConfiguredDatabase(config));
  const clock = options.clock ?? systemClock;
  const secret = await resolveSecret(config);
  const secrets = new SecretBox(secret);
  const hasher = new PasswordHasher();
  const jobs = new JobQueue(database, logger.child({ component: 'jobs' }));
  // Outside services: one adapter per capability, chosen by configuration (embedded default first).
  const providers = createProviders(config);

  const users = new UserRepository(database.db);
  const organisations = new OrganisationRepository(database.db);
  const sessions = new SessionRepository(database.db);
  const throttle = new ThrottleRepository(database.db);
  const apiKeys = new ApiKeyRepository(database.db);
  const outbox = new OutboxRepository(database.db);
  const storage = await createStorage(config, secret, clock);
  // Signed media URLs for protected objects (ADR 0006).
  const photoUrls = new PhotoUrls({
    storage,
    clock,
    publicUrl: config.publicUrl,
    appSecret: secret,
  });

  // One outbox for mail and SMS (issue 9): stored first, delivered by the mail/sms.deliver jobs.
  const outboxService = new OutboxService({
    rows: outbox,
    jobs,
    providers,
    clock,
    logger: logger.child({ component: 'outbox' }),
  });
  const mail = new MailService(outboxService);
  const sms = new SmsService(outboxService);
  // The built-in test payment provider (issue 10): the embedded default, always on.
  const testPayments =
    config.providers.payments.kind !== 'test'
      ? null
      : new TestPaymentsAdapter({
          webhookSecret: createHmac('sha256', secrets.signingKey)
            .update('payments:test:webhook')
            .digest(),
          publicUrl: config.publicUrl,
          now: () => clock.now(),
        });
  const webhooks = new WebhookService({
    receivers: new Map([
      ...providers.webhooks,
      ...(testPayments ? ([[testPayments.provider, testPayments]] as const) : []),
    ]),
    events: new WebhookEventRepository(database.db),
    outbox,
    logger: logger.child({ component: 'webhooks' }),
  });
  const auth = new AuthService({
    users,
    sessions,
    throttle,
    apiKeys,
    mail,
    hasher,
    secrets,
    clock,
    logger: logger.child({ component: 'auth' }),
    mfaExemptUsers: config.mfaExemptUsers,
    publicUrl: config.publicUrl,
  });
  const userService = new UserService({
    users,
    organisations,
    apiKeys,
    mail,
    hasher,
    clock,
    isMfaExempt: (email) => auth.isMfaExempt(email),
    publicUrl: config.publicUrl,
  });
  // events (issue 3)
  const events = new EventRepository(database.db);
  const robots = new RobotRepository(database.db);
  const imageProcesses = new ImageProcessRepository(database.db);
  const printTemplates = new PrintTemplateRepository(database.db);
  const ignoredFaces = new IgnoredFaceRepository(database.db);
  const fromAddressVerifications = new FromAddressVerificationRepository(database.db);
  const attendees = new AttendeeRepository(database.db);
  // One access layer: keys become principals, requireEventAccess decides (access/).
  const eventAccess = new AccessControl({ events, robots, attendees, clock });
  const imageProcessService = new ImageProcessService(imageProcesses, eventAccess);
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
    access: eventAccess,
    fromAddress: eventFromAddress,
    secrets,
    clock,
    settingsFile: new StorageEventSettingsFile(storage),
  });
  // photos (issue 4)
  const photos = new PhotoRepository(database.db);
  const imageEngine = new ImageEngine();
  const photoEvents = new PhotoEventsRepository(database);
  const albums = new AlbumRepository(database.db);
  // attendee albums (issue 5)
  const attendeeService = new AttendeeService({
    attendees,
    events,
    photos,
    albums,
    access: eventAccess,
    clock,
    publicUrl: config.publicUrl,
    photoEvents,
  });
  // paid albums (issue 10)
  const attendeeUnlocks = new AttendeeUnlockRepository(database.db);
  const unlockService = new UnlockService({
    access: eventAccess,
    unlocks: attendeeUnlocks,
    throttle,
    attendees,
    albums,
    printRequests: new PrintRequestRepository(database.db),
    clock,
  });
  const paymentRows = new PaymentRepository(database.db);
  const paymentService = new PaymentService({
    payments: paymentRows,
    unlocks: unlockService,
    clock,
  });
  const receipts = new ReceiptService({
    payments: paymentRows,
    events,
    attendees,
    mail,
    platformFrom: config.mailFrom,
  });
  paymentService.onPaymentConfirmed((confirmed) => receipts.onPaymentConfirmed(confirmed));
  webhooks.handlePaymentStatus((provider, reference, status, reason) =>
    paymentService.applyProviderStatus(provider, reference, status, reason),
  );
  const checkoutService = new CheckoutService({
    access: eventAccess,
    payments: paymentService,
    paymentRows,
    attendees,
    photos,
    albums,
    testProvider: testPayments,
    webhooks,
    clock,
  });
  const photoLogger = logger.child({ component: 'photos' });
  const photoUploads = new PhotoUploadService({
    photos,
    access: eventAccess,
    storage,
    urls: photoUrls,
    images: imageEngine,
    jobs,
    clock,
    uidSecret: secrets.signingKey,
    attendeeUploads: attendeeService,
  });
  const photoDerivatives = new PhotoDerivativesService({
    photos,
    events,
    storage,
    images: imageEngine,
    logger: photoLogger,
    photoEvents,
  });
  const photoRetention = new PhotoRetentionService({
    photos,
    storage,
    clock,
    retentionEvents: () => retentionEventsQuery(database.db),
  });
  const photoListing = new PhotoListingService({
    photos,
    events,
    access: eventAccess,
    urls: photoUrls,
    clock,
    attendeeRows: attendees,
  });
  const photoChanges = new PhotoChangesService({
    photos,
    access: eventAccess,
    storage,
    urls: photoUrls,
    jobs,
    logger: photoLogger,
    photoEvents,
  });
  // albums (issue 5)
  const photoStream = new PhotoStreamService({
    photos: photoListing,
    photoRows: photos,
    albums,
    notices: photoEvents,
    events,
    access: eventAccess,
    clock,
  });
  const shareService = new ShareService({
    photos: photoListing,
    urls: photoUrls,
    photoRows: photos,
    albums,
    events,
    access: eventAccess,
    storage,
    secrets,
    clock,
    publicUrl: config.publicUrl,
  });
  const miniAlbumService = new MiniAlbumService({
    albums,
    events,
    photos: photoListing,
    access: eventAccess,
    mail,
    sms,
    clock,
    publicUrl: config.publicUrl,
    platformFrom: config.mailFrom,
  });
  const storageMigration = new StorageMigration({
    photos,
    rows: new PhotoStorageRepository(database.db),
    storage,
    logger: logger.child({ component: 'storage-migration' }),
    enqueue: (photoId) =>
      jobs.send('storage.protect-photo', { photoId }, { singletonKey: `protect-${photoId}` }),
  });
  const organisationService = new OrganisationService(organisations, (id) =>
    imageProcessService.seedDefaults(id),
  );

  return {
    database,
    jobs,
    /** Object storage (local disk or S3); see src/storage/storage.repository.ts. */
    storage,
    access: eventAccess,
    /** Payment adapters by name (the built-in test provider; issue 10). */
    paymentProviders: { test: testPayments },
    repositories: {
      users,
      organisations,
      sessions,
      throttle,
      apiKeys,
      outbox,
      events,
      robots,
      imageProcesses,
      printTemplates,
      ignoredFaces,
      photos,
      albums,
      attendees,
      attendeeUnlocks,
      payments: paymentRows,
      /** Provider credentials an event carries (secure fields), for adapters called on its behalf. */
      eventCredentials: new EventProviderCredentials(events, secrets),
    },
    services: {
      auth,
      users: userService,
      organisations: organisationService,
      mail,
      events: eventService,
      eventFromAddress,
      robots: new RobotService(robots, organisations),
      imageProcesses: imageProcessService,
      templates: new TemplateService(printTemplates),
      ignoredFaces: new IgnoredFaceService(ignoredFaces, eventAccess),
      shareBucket: new ShareBucketService(storage, organisations, eventAccess),
      photoUploads,
      photoListing,
      photoChanges,
      photoDerivatives,
      photoRetention,
      photoUrls,
      storageMigration,
      stockUploads: new StockUploadService(storage, eventAccess, imageEngine),
      photoStream,
      shares: shareService,
      miniAlbums: miniAlbumService,
      attendees: attendeeService,
      unlocks: unlockService,
      payments: paymentService,
      checkout: checkoutService,
      orderAdmin: new OrderAdminService({
        access: eventAccess,
        payments: paymentService,
        paymentRows,
      }),
      sms,
      outbox: outboxService,
      webhooks,
    },
    /** Starts the job queue and registers the job handlers (the worker role). */
    async startWorker(): Promise<void> {
      await jobs.start();
      await jobs.work('mail.deliver', ({ outboxId }) => outboxService.deliver(outboxId));
      await jobs.work('auth.cleanup', () => sessions.deleteExpired(clock.now()));
      await jobs.schedule('auth.cleanup', '17 * * * *');
      await jobs.work('attendees.cleanup', async () => {
        await attendeeService.deleteAbandonedBatches();
      });
      await jobs.schedule('attendees.cleanup', '41 * * * *');
      await jobs.work('photo.derivatives', ({ photoId }) =>
        photoDerivatives.makeDerivatives(photoId),
      );
      await jobs.work('photos.retention', async () => {
        await photoRetention.runRetention();
      });
      await jobs.schedule('photos.retention', '*/15 * * * *');
      await jobs.work('sms.deliver', ({ outboxId }) => outboxService.deliver(outboxId));
      // Messages whose job was lost (a crash between insert and enqueue) or whose worker died.
      await jobs.work('outbox.resume', async () => {
        await outboxService.resumeDue();
      });
      await jobs.schedule('outbox.resume', '*/5 * * * *');
      await jobs.work('payments.expire', async () => {
        await paymentService.expireStale();
      });
      await jobs.schedule('payments.expire', '*/5 * * * *');
      await outboxService.resumeDue();
      // ADR 0006: move files stored before protected storage (idempotent; a no-op once done).
      await jobs.work('storage.protect-photo', ({ photoId }) =>
        storageMigration.protectPhoto(photoId),
      );
      await jobs.work('storage.protect-legacy', async () => {
        await storageMigration.sweep();
      });
      await jobs.send('storage.protect-legacy', {}, { singletonKey: 'protect-legacy' });
    },
    /** Producer only: the API can enqueue jobs without running handlers. */
    async startQueue(): Promise<void> {
      await jobs.start();
    },
    async close(): Promise<void> {
      await jobs.stop();
      await photoEvents.close();
      providers.close();
      await storage.close();
      if (!options.database) await database.close();
    },
  };
};

export type Container = Awaited<ReturnType<typeof createContainer>>;
