import type { z } from 'zod';
import { attendeesCleanupJob } from './attendees-cleanup.job.ts';
import { attendeesMailListJob } from './attendees-mail-list.job.ts';
import { databaseVacuumJob } from './database-vacuum.job.ts';
import { authCleanupJob } from './auth-cleanup.job.ts';
import { authPasswordResetJob } from './auth-password-reset.job.ts';
import { facesBackfillJob } from './faces-backfill.job.ts';
import { facesIndexJob } from './faces-index.job.ts';
import { facesSelfiesExpireJob } from './faces-selfies-expire.job.ts';
import { facesSweepJob } from './faces-sweep.job.ts';
import type { JobDefinition } from './job-definition.ts';
import { mailDeliverJob } from './mail-deliver.job.ts';
import { notificationsRemindJob } from './notifications-remind.job.ts';
import { outboxResumeJob } from './outbox-resume.job.ts';
import { paymentsExpireJob } from './payments-expire.job.ts';
import { paymentsFulfilJob } from './payments-fulfil.job.ts';
import { paymentsReconcileJob } from './payments-reconcile.job.ts';
import { photoDerivativesJob } from './photo-derivatives.job.ts';
import { photoImageProcessJob } from './photo-image-process.job.ts';
import { photosRetentionJob } from './photos-retention.job.ts';
import { photosStuckJob } from './photos-stuck.job.ts';
import { printRenderJob, printResumeJob, printTagStoriesJob } from './print.job.ts';
import { reportsDailyJob } from './reports-daily.job.ts';
import { smsDeliverJob } from './sms-deliver.job.ts';
import { storageProtectLegacyJob } from './storage-protect-legacy.job.ts';
import { storageProtectPhotoJob } from './storage-protect-photo.job.ts';
import { storageSweepUploadsJob } from './storage-sweep-uploads.job.ts';
import { webhookDeliverJob } from './webhook-deliver.job.ts';
import { videoRenditionsJob } from './video-renditions.job.ts';

/**
 * Every job the product runs: the only list of queue names. The queue creates each queue, the
 * worker registers each handler and schedule from here. A new job is one file plus one line.
 */
export const jobRegistry = [
  mailDeliverJob,
  smsDeliverJob,
  outboxResumeJob,
  authCleanupJob,
  authPasswordResetJob,
  attendeesCleanupJob,
  photoDerivativesJob,
  photosRetentionJob,
  photosStuckJob,
  storageProtectLegacyJob,
  storageProtectPhotoJob,
  facesIndexJob,
  facesBackfillJob,
  facesSweepJob,
  facesSelfiesExpireJob,
  paymentsExpireJob,
  paymentsFulfilJob,
  notificationsRemindJob,
  printRenderJob,
  printResumeJob,
  paymentsReconcileJob,
  storageSweepUploadsJob,
  databaseVacuumJob,
  photoImageProcessJob,
  attendeesMailListJob,
  reportsDailyJob,
  printTagStoriesJob,
  webhookDeliverJob,
  videoRenditionsJob,
] as const;

export type RegisteredJob = (typeof jobRegistry)[number];
export type JobName = RegisteredJob['name'];
/** What `JobQueue.send` accepts for a job (the schema's input). */
export type JobPayload<N extends JobName> = z.input<Extract<RegisteredJob, { name: N }>['payload']>;
export type AnyJob = JobDefinition<string, z.ZodType>;
