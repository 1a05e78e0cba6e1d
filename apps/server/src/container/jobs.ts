import { albumsZipMailJob, type AlbumsZipMailDeps } from '../jobs/albums-zip-mail.job.ts';
import { attendeesCleanupJob, type AttendeesCleanupDeps } from '../jobs/attendees-cleanup.job.ts';
import {
  attendeesMailListJob,
  type AttendeesMailListDeps,
} from '../jobs/attendees-mail-list.job.ts';
import { authCleanupJob, type AuthCleanupDeps } from '../jobs/auth-cleanup.job.ts';
import {
  authPasswordResetJob,
  type AuthPasswordResetDeps,
} from '../jobs/auth-password-reset.job.ts';
import { databaseVacuumJob, type DatabaseVacuumDeps } from '../jobs/database-vacuum.job.ts';
import { backupScheduledJob, type BackupScheduledDeps } from '../jobs/backup-scheduled.job.ts';
import { integrityCheckJob, type IntegrityCheckDeps } from '../jobs/integrity-check.job.ts';
import { facesBackfillJob, type FacesBackfillDeps } from '../jobs/faces-backfill.job.ts';
import { facesIndexJob, type FacesIndexDeps } from '../jobs/faces-index.job.ts';
import {
  facesSelfiesExpireJob,
  type FacesSelfiesExpireDeps,
} from '../jobs/faces-selfies-expire.job.ts';
import { facesSweepJob, type FacesSweepDeps } from '../jobs/faces-sweep.job.ts';
import { mailDeliverJob, type MailDeliverDeps } from '../jobs/mail-deliver.job.ts';
import {
  notificationsRemindJob,
  type NotificationsRemindDeps,
} from '../jobs/notifications-remind.job.ts';
import { outboxResumeJob, type OutboxResumeDeps } from '../jobs/outbox-resume.job.ts';
import { paymentsExpireJob, type PaymentsExpireDeps } from '../jobs/payments-expire.job.ts';
import { paymentsFulfilJob, type PaymentsFulfilDeps } from '../jobs/payments-fulfil.job.ts';
import {
  paymentsBuyerAlbumsCleanupJob,
  type PaymentsBuyerAlbumsCleanupDeps,
} from '../jobs/payments-buyer-albums-cleanup.job.ts';
import {
  paymentsReconcileJob,
  type PaymentsReconcileDeps,
} from '../jobs/payments-reconcile.job.ts';
import { photoDerivativesJob, type PhotoDerivativesDeps } from '../jobs/photo-derivatives.job.ts';
import {
  photoImageProcessJob,
  type PhotoImageProcessDeps,
} from '../jobs/photo-image-process.job.ts';
import { photosRetentionJob, type PhotosRetentionDeps } from '../jobs/photos-retention.job.ts';
import {
  photosModerationReleaseJob,
  type PhotosModerationReleaseDeps,
} from '../jobs/photos-moderation-release.job.ts';
import { photosStuckJob, type PhotosStuckDeps } from '../jobs/photos-stuck.job.ts';
import {
  printRenderJob,
  type PrintRenderDeps,
  printResumeJob,
  type PrintResumeDeps,
  printTagStoriesJob,
  type PrintTagStoriesDeps,
} from '../jobs/print.job.ts';
import { reportsDailyJob, type ReportsDailyDeps } from '../jobs/reports-daily.job.ts';
import { smsDeliverJob, type SmsDeliverDeps } from '../jobs/sms-deliver.job.ts';
import {
  storageProtectLegacyJob,
  type StorageProtectLegacyDeps,
} from '../jobs/storage-protect-legacy.job.ts';
import {
  photosProtectPreviewsJob,
  type PhotosProtectPreviewsDeps,
} from '../jobs/photos-protect-previews.job.ts';
import {
  storageProtectPhotoJob,
  type StorageProtectPhotoDeps,
} from '../jobs/storage-protect-photo.job.ts';
import {
  storageDeletePendingJob,
  type StorageDeletePendingDeps,
} from '../jobs/storage-delete-pending.job.ts';
import {
  storageSweepUploadsJob,
  type StorageSweepUploadsDeps,
} from '../jobs/storage-sweep-uploads.job.ts';
import { videoRenditionsJob, type VideoRenditionsDeps } from '../jobs/video-renditions.job.ts';
import { webhookDeliverJob, type WebhookDeliverDeps } from '../jobs/webhook-deliver.job.ts';
import { bindJob } from '../jobs/job-definition.ts';
import type { BoundJobs } from '../jobs/job-queue.ts';

/**
 * What the job handlers use, each handler's own narrow declaration joined: the container passes
 * its services and repositories here when the worker starts.
 */
export type JobServices = MailDeliverDeps &
  SmsDeliverDeps &
  OutboxResumeDeps &
  AuthCleanupDeps &
  AuthPasswordResetDeps &
  AttendeesCleanupDeps &
  PhotoDerivativesDeps &
  PhotosRetentionDeps &
  PhotosModerationReleaseDeps &
  PhotosStuckDeps &
  StorageProtectLegacyDeps &
  StorageProtectPhotoDeps &
  PhotosProtectPreviewsDeps &
  FacesIndexDeps &
  FacesBackfillDeps &
  FacesSweepDeps &
  FacesSelfiesExpireDeps &
  PaymentsExpireDeps &
  PaymentsFulfilDeps &
  PaymentsBuyerAlbumsCleanupDeps &
  NotificationsRemindDeps &
  PrintRenderDeps &
  PrintResumeDeps &
  PaymentsReconcileDeps &
  StorageSweepUploadsDeps &
  StorageDeletePendingDeps &
  AlbumsZipMailDeps &
  DatabaseVacuumDeps &
  IntegrityCheckDeps &
  BackupScheduledDeps &
  PhotoImageProcessDeps &
  AttendeesMailListDeps &
  ReportsDailyDeps &
  PrintTagStoriesDeps &
  WebhookDeliverDeps &
  VideoRenditionsDeps;

/**
 * Every job of the catalogue bound to its handler and services (the worker role). A job missing
 * here, or bound to another job's handler, does not compile.
 */
export const bindJobs = (services: JobServices): BoundJobs => ({
  'mail.deliver': bindJob(mailDeliverJob, services),
  'sms.deliver': bindJob(smsDeliverJob, services),
  'outbox.resume': bindJob(outboxResumeJob, services),
  'auth.cleanup': bindJob(authCleanupJob, services),
  'auth.password-reset': bindJob(authPasswordResetJob, services),
  'attendees.cleanup': bindJob(attendeesCleanupJob, services),
  'photo.derivatives': bindJob(photoDerivativesJob, services),
  'photos.retention': bindJob(photosRetentionJob, services),
  'photos.moderation-release': bindJob(photosModerationReleaseJob, services),
  'photos.requeue-stuck': bindJob(photosStuckJob, services),
  'storage.protect-legacy': bindJob(storageProtectLegacyJob, services),
  'storage.protect-photo': bindJob(storageProtectPhotoJob, services),
  'photos.protect-previews': bindJob(photosProtectPreviewsJob, services),
  'faces.index': bindJob(facesIndexJob, services),
  'faces.backfill': bindJob(facesBackfillJob, services),
  'faces.sweep': bindJob(facesSweepJob, services),
  'faces.selfies-expire': bindJob(facesSelfiesExpireJob, services),
  'payments.expire': bindJob(paymentsExpireJob, services),
  'payments.fulfil': bindJob(paymentsFulfilJob, services),
  'payments.buyer-albums-cleanup': bindJob(paymentsBuyerAlbumsCleanupJob, services),
  'notifications.remind': bindJob(notificationsRemindJob, services),
  'print.render': bindJob(printRenderJob, services),
  'print.resume': bindJob(printResumeJob, services),
  'payments.reconcile': bindJob(paymentsReconcileJob, services),
  'storage.sweep-uploads': bindJob(storageSweepUploadsJob, services),
  'storage.delete-pending': bindJob(storageDeletePendingJob, services),
  'albums.zip-mail': bindJob(albumsZipMailJob, services),
  'database.vacuum': bindJob(databaseVacuumJob, services),
  'integrity.check': bindJob(integrityCheckJob, services),
  'backup.scheduled': bindJob(backupScheduledJob, services),
  'photo.image-process': bindJob(photoImageProcessJob, services),
  'attendees.mail-list': bindJob(attendeesMailListJob, services),
  'reports.daily': bindJob(reportsDailyJob, services),
  'print.tag-stories': bindJob(printTagStoriesJob, services),
  'webhook.deliver': bindJob(webhookDeliverJob, services),
  'video.renditions': bindJob(videoRenditionsJob, services),
});
