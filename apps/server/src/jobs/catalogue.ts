import { z } from 'zod';
import { jobSpec } from './job-definition.ts';

// The job catalogue: every job the product runs, as data — queue name, payload schema (checked
// when sent and when run), retry, expiry, queue policy, singleton key and schedule. No handlers
// and no service imports: services send jobs through `JobSender` (job-sender.ts), typed by this
// file, and the handlers (`<name>.job.ts`, bound to their services in container/jobs.ts) sit above
// the services. A new job is one entry here, its handler file and its binding line.

/** Thin: the outbox service keeps the rules (claim, attempts, backoff, final status). */
export const mailDeliver = jobSpec({
  name: 'mail.deliver',
  summary: 'One delivery attempt of a mail outbox message through the mail adapter',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `mail-${outboxId}`,
});

/** Thin: the outbox service keeps the rules (claim, attempts, backoff, final status). */
export const smsDeliver = jobSpec({
  name: 'sms.deliver',
  summary: 'One delivery attempt of an SMS outbox message through the SMS adapter',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `sms-${outboxId}`,
});

/** Messages whose job was lost (a crash between insert and enqueue) or whose worker died. */
export const outboxResume = jobSpec({
  name: 'outbox.resume',
  summary:
    'Re-enqueue every due outbox message and webhook delivery (a duplicate job is harmless: deliver claims)',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
});

export const authCleanup = jobSpec({
  name: 'auth.cleanup',
  summary: 'Delete expired sessions and sign-in challenges',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '17 * * * *',
});

/**
 * The work of a forgot-password request: look the account up, make and store a code, mail it.
 * The request only queues this job, known account or not, so its answer and its timing say
 * nothing about which e-mail addresses have accounts.
 */
export const authPasswordReset = jobSpec({
  name: 'auth.password-reset',
  summary: 'Make and mail a password reset code (the forgot-password request only queues this)',
  payload: z.object({ username: z.string().min(1).max(320) }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireSeconds: 60,
});

export const attendeesCleanup = jobSpec({
  name: 'attendees.cleanup',
  summary: 'Delete attendee batches whose generation was abandoned',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '41 * * * *',
});

/** Enqueued by the `photo.uploaded` listener, by reprocess and by the stuck-photo sweep. */
export const photoDerivatives = jobSpec({
  name: 'photo.derivatives',
  summary: 'Make preview, thumbnail and watermarked variants of one photo, then emit photo.ready',
  payload: z.object({ photoId: z.number().int().positive() }),
  // Retries 2, 4, 8… s apart: a job whose worker was killed twice in a row (a crash loop) is
  // still retried within the 30 s.
  retry: { limit: 5, delaySeconds: 2, backoff: true },
  // One photo decodes and resizes in about a second; 15 s covers a loaded machine, and a job left
  // active by a killed worker is retried within ~22 s (expiry + maintenance + retry delay).
  expireSeconds: 15,
  // One job per photo at a time even when two processes complete the same upload at once.
  policy: 'stately',
  singletonKey: ({ photoId }) => `derive-${photoId}`,
});

/**
 * Moderation: `photo.ready` for approved photos whose announcement is owed (`moderation =
 * 'releasing'`), then `approved`. Sent after each approval; the schedule makes up a send lost to a
 * crash. One run at a time, so two rounds never announce the same photo together.
 */
export const photosModerationRelease = jobSpec({
  name: 'photos.moderation-release',
  summary: 'Announce approved photos (photo.ready) whose approval has not been announced yet',
  payload: z.object({}),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  schedule: '*/5 * * * *',
  policy: 'stately',
  singletonKey: () => 'moderation-release',
});

export const photosRetention = jobSpec({
  name: 'photos.retention',
  summary: 'Archive originals after instant_archive_days, delete after photo_auto_delete_days',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/15 * * * *',
});

/**
 * Crash safety of uploads: a photo whose row says `processing` but whose derivatives job was
 * never enqueued (the process died between the insert and the enqueue, or the listener failed)
 * gets its job again. Photos with a derivatives job still queued or running are skipped.
 */
export const photosStuck = jobSpec({
  name: 'photos.requeue-stuck',
  summary: 'Re-enqueue derivatives for photos stuck in processing for more than a few minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  schedule: '*/5 * * * *',
});

/**
 * A paid event's protected previews made again for the photos already stored: sent when an event
 * turns paid or changes its mark (event.updated), and by the console's "Try again". Batched and
 * resumable (photos done carry the mark's version and are skipped); one run per event at a time.
 */
export const photosProtectPreviews = jobSpec({
  name: 'photos.protect-previews',
  summary: 'Make the protected preview (≤ 1200 px, tiled mark) of every photo of a paid event',
  payload: z.object({ eventId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  // About 0.1–0.5 s a photo: an hour covers tens of thousands; a run cut short resumes.
  expireSeconds: 60 * 60,
  policy: 'stately',
  singletonKey: ({ eventId }) => `protect-previews-${eventId}`,
});

/** ADR 0006: finds photos with pre-protected-storage keys; sent once when a worker starts. */
export const storageProtectLegacy = jobSpec({
  name: 'storage.protect-legacy',
  summary: 'Enqueue storage.protect-photo for every photo still stored the old way',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  singletonKey: () => 'protect-legacy',
});

/** ADR 0006 storage migration of one photo (crash-safe, idempotent). */
export const storageProtectPhoto = jobSpec({
  name: 'storage.protect-photo',
  summary: 'Move one photo stored before protected storage into the protected key space',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `protect-${photoId}`,
});

/** Enqueued by the faces listener of `photo.ready` when the event has face recognition on. */
export const facesIndex = jobSpec({
  name: 'faces.index',
  summary: "Detect and store the faces of one photo's preview",
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `faces.index:${photoId}`,
});

/** Enqueued by `event.updated` (face recognition switched on) and by the `faces.sweep`. */
export const facesBackfill = jobSpec({
  name: 'faces.backfill',
  summary:
    'Index a batch of the photos of an event not yet indexed; queues itself while more remain',
  payload: z.object({ eventId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ eventId }) => `faces.backfill:${eventId}`,
});

/** Catches events whose photos were never indexed (a lost job, a new model). */
export const facesSweep = jobSpec({
  name: 'faces.sweep',
  summary: 'Queue a faces.backfill for every event with face recognition on and unindexed photos',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  schedule: '*/10 * * * *',
});

/** Deletes selfies (object, row, descriptor) past the event's selfie expiration or photo retention. */
export const facesSelfiesExpire = jobSpec({
  name: 'faces.selfies-expire',
  summary: "Delete guests' selfies and their descriptors once the event's selfie expiration passes",
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
});

/** Checkouts left unpaid too long become `expired` (the state machine makes a rerun harmless). */
export const paymentsExpire = jobSpec({
  name: 'payments.expire',
  summary: 'Expire payments pending for over 30 minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
});

/**
 * Paid payments whose effects (unlock, prints, receipt) a crash cut off get them (a
 * guest who paid is never left locked; every effect is idempotent, so a rerun is harmless).
 */
export const paymentsFulfil = jobSpec({
  name: 'payments.fulfil',
  summary: 'Redo the unlock, prints and receipt of paid payments a crash interrupted',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  schedule: '* * * * *',
});

/**
 * Personal albums made by album purchases that nobody paid for within a week go, with their
 * orders and payments (docs/domains/payments.md).
 */
export const paymentsBuyerAlbumsCleanup = jobSpec({
  name: 'payments.buyer-albums-cleanup',
  summary: 'Remove buyer albums of album purchases left unpaid for 7 days',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  schedule: '47 4 * * *',
});

/** `attendee_reminder` notifications for albums that expire within a day. */
export const notificationsRemind = jobSpec({
  name: 'notifications.remind',
  summary: 'Remind attendees whose album expires within a day (attendee_reminder topic)',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '23 * * * *',
});

/** Enqueued for each new print job (print calls, auto-print, unlock-and-print). */
export const printRender = jobSpec({
  name: 'print.render',
  summary: 'Render one print sheet with sharp and hand it to its pool’s printer',
  payload: z.object({ printJobId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  singletonKey: ({ printJobId }) => `print.render:${printJobId}`,
});

/** Sweep: stored print requests not yet queued, and queued jobs whose render job was lost. */
export const printResume = jobSpec({
  name: 'print.resume',
  summary: 'Queue stored print requests and re-send print jobs stuck in queued (every 5 min)',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 30, backoff: false },
  schedule: '*/5 * * * *',
});

/**
 * Payments of real providers still pending after a few minutes are asked about: a lost
 * webhook never strands a paid guest. The state machine makes a rerun, or a webhook arriving too,
 * harmless.
 */
export const paymentsReconcile = jobSpec({
  name: 'payments.reconcile',
  summary: 'Ask payment providers about payments pending for over 2 minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/2 * * * *',
});

/** Uploads left in `tmp/` by crashes and abandoned clients (services/photos/upload-sweep.ts). */
export const storageSweepUploads = jobSpec({
  name: 'storage.sweep-uploads',
  summary: 'Delete uploads in tmp/ that were completed already or are older than 6 hours',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '23 * * * *',
});

/**
 * Storage deletes owed after a commit (a privacy erasure writes them in its transaction): sent
 * after each erasure, and every ten minutes for those that failed (services/photos/storage-deletions.ts).
 */
export const storageDeletePending = jobSpec({
  name: 'storage.delete-pending',
  summary: 'Delete storage objects a committed erasure left unreachable; failures stay owed',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  schedule: '*/10 * * * *',
});

/**
 * A whole album too big to stream to a page (over `ALBUM_DOWNLOAD_MAIL_THRESHOLD` photos): the
 * zip written into storage as it is read, its link mailed; sent again later to delete the stored
 * zip once its link has expired (services/albums/album-download.service.ts).
 */
export const albumsZipMail = jobSpec({
  name: 'albums.zip-mail',
  summary: 'Build an album zip into storage and mail its link; or delete an expired one',
  payload: z.union([
    z.object({
      ticket: z.string().min(1).max(8192),
      email: z.string().min(3).max(320),
      zipKey: z.string().min(1).max(300),
    }),
    z.object({ expiredZipKey: z.string().min(1).max(300) }),
  ]),
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  // Thousands of photos read and written once: minutes, not seconds.
  expireSeconds: 2 * 60 * 60,
});

/** PGlite has no autovacuum launcher: db/maintenance.ts does its job (a no-op on PostgreSQL). */
export const databaseVacuum = jobSpec({
  name: 'database.vacuum',
  summary: 'Vacuum and analyze PGlite tables that changed by more than 1,000 + 10 % of their rows',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  schedule: '*/10 * * * *',
});

/**
 * The nightly storage integrity check (services/operations/integrity.service.ts): missing
 * objects, objects no row owns, originals whose bytes no longer match their SHA-256. Its result is
 * logged and set on the worker's `flashbulb_integrity_problems` gauge.
 */
export const integrityCheck = jobSpec({
  name: 'integrity.check',
  summary: 'Compare the objects rows name with what storage holds (missing, untracked, checksums)',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 600, backoff: false },
  // Every original is read and hashed: hours on a large install.
  expireSeconds: 6 * 60 * 60,
  schedule: '37 3 * * *',
});

/**
 * The scheduled backup (services/operations/backup.service.ts `runScheduled`): every five
 * minutes it asks whether the schedule the console set is due (daily at HH:MM UTC, every N
 * hours) and, if so, writes a backup into `<data>/backups` and prunes to the retention.
 */
export const backupScheduled = jobSpec({
  name: 'backup.scheduled',
  summary: 'Write a backup when the console’s schedule says one is due, then apply retention',
  payload: z.object({}),
  retry: { limit: 0, delaySeconds: 60, backoff: false },
  // Every object is copied: long on a large install (the next tick finds it done).
  expireSeconds: 6 * 60 * 60,
  // One waiting and one running at most: a tick during a long backup does not start another.
  policy: 'stately',
  schedule: '*/5 * * * *',
});

/** Enqueued on `photo.ready` once per image process of the event that makes a file. */
export const photoImageProcess = jobSpec({
  name: 'photo.image-process',
  summary: 'Run one of the event’s image processes (resize, watermark, print 4×6) on a new photo',
  payload: z.object({
    photoId: z.number().int().positive(),
    imageProcessId: z.number().int().positive(),
  }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireSeconds: 60,
  singletonKey: ({ photoId, imageProcessId }) => `image-process-${photoId}-${imageProcessId}`,
});

/** The generated attendee list (CSV + QR card sheet) mailed to the generate call's address. */
export const attendeesMailList = jobSpec({
  name: 'attendees.mail-list',
  summary:
    "Mail a generated attendee list (CSV and printable QR cards) to the generate call's e-mail",
  payload: z.object({
    batchId: z.number().int().positive(),
    email: z.string().min(3).max(320),
    eventIds: z.array(z.number().int().positive()).min(1).max(100),
  }),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  singletonKey: (payload) => `attendee-list:${payload.batchId}`,
});

/** The daily report to each event's `email_for_reports` (the previous UTC day's figures). */
export const reportsDaily = jobSpec({
  name: 'reports.daily',
  summary: 'Mail the daily report (photos, attendees, sales, prints) to email_for_reports',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  schedule: '7 6 * * *',
});

/**
 * `photo.ready` with `lookForTagsInImages` creating stories (ADR 0009 addendum): queues the story
 * sheet of the photo's group once it is complete. Idempotent: a photo already in an automatic
 * story is never grouped again (lock per event, request key per story).
 */
export const printTagStories = jobSpec({
  name: 'print.tag-stories',
  summary: 'Queue an automatic story sheet when tagged photos fill a group (ADR 0009)',
  payload: z.object({ eventId: z.number().int().positive(), photoId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `print.tag-stories:${photoId}`,
});

/**
 * Thin: the webhook service keeps the rules (claim, attempts, backoff, auto-disable). No singleton
 * key: a duplicate job (a resume beside a delayed retry) is harmless, the claim lets one through.
 */
export const webhookDeliver = jobSpec({
  name: 'webhook.deliver',
  summary: 'One delivery attempt of an outgoing webhook (signed POST) to its endpoint',
  payload: z.object({ deliveryId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireSeconds: 60,
});

/**
 * Enqueued by `photo.derivatives` for a clip or an animated GIF: the poster (and the photo
 * derivatives made from it) and the web-playable MP4 renditions, then `photo.ready` for a clip.
 */
export const videoRenditions = jobSpec({
  name: 'video.renditions',
  summary:
    'Make the poster and the web-playable MP4 renditions (plain, watermarked, paid preview) of a clip or animated GIF',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  // A minute of 1080p takes a few minutes on a small, shared machine (docs/performance.md).
  expireSeconds: 30 * 60,
  policy: 'stately',
  singletonKey: ({ photoId }) => `video-${photoId}`,
});

/**
 * Every job, in the order the queue creates them: the only list of queue names. The queue creates
 * each queue and schedule from here; the worker runs the handler bound to each name.
 */
export const jobCatalogue = [
  mailDeliver,
  smsDeliver,
  outboxResume,
  authCleanup,
  authPasswordReset,
  attendeesCleanup,
  photoDerivatives,
  photosModerationRelease,
  photosRetention,
  photosStuck,
  storageProtectLegacy,
  storageProtectPhoto,
  photosProtectPreviews,
  facesIndex,
  facesBackfill,
  facesSweep,
  facesSelfiesExpire,
  paymentsExpire,
  paymentsFulfil,
  paymentsBuyerAlbumsCleanup,
  notificationsRemind,
  printRender,
  printResume,
  paymentsReconcile,
  storageSweepUploads,
  storageDeletePending,
  albumsZipMail,
  databaseVacuum,
  integrityCheck,
  backupScheduled,
  photoImageProcess,
  attendeesMailList,
  reportsDaily,
  printTagStories,
  webhookDeliver,
  videoRenditions,
] as const;

type CatalogueJob = (typeof jobCatalogue)[number];
export type JobName = CatalogueJob['name'];
/** What `JobSender.send` accepts for a job (the schema's input). */
export type JobPayload<N extends JobName> = z.input<Extract<CatalogueJob, { name: N }>['payload']>;
/** What a job's handler receives (the schema's output). */
export type JobData<N extends JobName> = z.output<Extract<CatalogueJob, { name: N }>['payload']>;
