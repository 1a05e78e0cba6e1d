import type { WebhookOutService } from '../services/operations/webhook-out.service.ts';
import type { z } from 'zod';
import type { NotificationService } from '../services/messaging/notification.service.ts';
import type { Clock } from '../lib/clock.ts';
import type { SessionRepository } from '../repositories/identity/session.repository.ts';
import type { AttendeeService } from '../services/attendees/attendee.service.ts';
import type { OutboxService } from '../services/messaging/outbox.service.ts';
import type { PaymentService } from '../services/payments/payment.service.ts';
import type { ProviderCheckouts } from '../services/payments/provider-checkout.service.ts';
import type { PhotoDerivativesService } from '../services/photos/photo-derivatives.service.ts';
import type { PhotoVariantsService } from '../services/photos/photo-variants.service.ts';
import type { PhotoRetentionService } from '../services/photos/photo-retention.service.ts';
import type { StorageMigration } from '../services/photos/storage-migration.ts';
import type { UploadSweep } from '../services/photos/upload-sweep.ts';
import type { DatabaseMaintenance } from '../db/maintenance.ts';
import type { FaceIndexService } from '../services/faces/face-index.service.ts';
import type { FaceSelfieService } from '../services/faces/face-selfie.service.ts';
import type { AutoPrintService } from '../services/printing/auto-print.service.ts';
import type { SheetPrintService } from '../services/printing/sheet-print.service.ts';
import type { AuthService } from '../services/identity/auth.service.ts';
import type { EventMailService } from '../services/messaging/event-mail.service.ts';

/**
 * What job handlers may use. The container passes these when the worker starts; a handler names
 * the one it calls, so the service keeps the rule and the job file only the plumbing.
 */
export interface JobDeps {
  photoDerivatives: Pick<
    PhotoDerivativesService,
    'makeDerivatives' | 'makeVideoRenditions' | 'requeueStuck'
  >;
  photoRetention: Pick<PhotoRetentionService, 'runRetention'>;
  photoVariants: Pick<PhotoVariantsService, 'run'>;
  outbox: Pick<OutboxService, 'deliver' | 'resumeDue'>;
  storageMigration: Pick<StorageMigration, 'protectPhoto' | 'sweep'>;
  uploadSweep: Pick<UploadSweep, 'sweep'>;
  maintenance: Pick<DatabaseMaintenance, 'vacuumIfNeeded'>;
  sessions: Pick<SessionRepository, 'deleteExpired'>;
  /** Password reset codes (the forgot-password request only queues them); optional for workers built without it. */
  auth?: Pick<AuthService, 'sendResetCode'>;
  attendees: Pick<AttendeeService, 'deleteAbandonedBatches'>;
  faceIndex: Pick<FaceIndexService, 'indexPhoto' | 'backfill' | 'sweep'>;
  /** Selfie expiry; optional for workers built without it. */
  faceSelfies?: Pick<FaceSelfieService, 'expire'>;
  payments: Pick<PaymentService, 'expireStale' | 'fulfilMissed'>;
  notifications: Pick<NotificationService, 'sendReminders'>;
  /** Attendee-list mail and daily reports; optional for workers built without it. */
  eventMail?: Pick<EventMailService, 'mailAttendeeList' | 'sendDailyReports'>;
  printing: Pick<SheetPrintService, 'renderAndPrint' | 'resume'> &
    Pick<AutoPrintService, 'tagStories'>;
  /** Real payment providers' reconciliation; optional for workers built without it. */
  providerCheckouts?: Pick<ProviderCheckouts, 'reconcilePending'>;
  /** Outgoing webhooks (operations); optional for workers built without it. */
  webhooks?: Pick<WebhookOutService, 'deliver' | 'resumeDue'>;
  clock: Clock;
}

export interface JobRetry {
  /** Retries after the first failure (pg-boss `retryLimit`). */
  limit: number;
  /** Seconds before the first retry (`retryDelay`). */
  delaySeconds: number;
  /** Doubles the delay on each retry (`retryBackoff`). */
  backoff: boolean;
}

/**
 * One job: its queue name, payload schema (checked when sent and when run), retry policy,
 * optional cron schedule and handler. Handlers must be idempotent: pg-boss may run a job twice.
 */
export interface JobDefinition<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  /** One line for docs and logs. */
  readonly summary: string;
  readonly payload: S;
  readonly retry: JobRetry;
  /** Cron expression (UTC) for scheduled jobs; their payload is `{}`. */
  readonly schedule?: string;
  /**
   * Seconds a run may stay active before pg-boss counts it failed and retries it (a worker killed
   * mid-job leaves its job active). Fit it to the work: a few times its longest honest run.
   * Default {@link DEFAULT_EXPIRE_SECONDS}.
   */
  readonly expireSeconds?: number;
  /**
   * pg-boss queue policy. `stately`: per singleton key at most one job waiting and one running,
   * so the same work sent twice (two processes, a retry beside a sweep) runs once.
   */
  readonly policy?: 'standard' | 'stately';
  /** pg-boss singleton key for a payload (with policy `stately`, one job per key at a time). */
  singletonKey?(payload: z.output<S>): string;
  run(payload: z.output<S>, deps: JobDeps): Promise<unknown>;
}

export const defineJob = <const N extends string, S extends z.ZodType>(
  job: JobDefinition<N, S>,
): JobDefinition<N, S> => job;

/** Expiry of a job without its own: long enough for a slow mail server or a storage sweep. */
export const DEFAULT_EXPIRE_SECONDS = 15 * 60;

/** Default retry policy: five retries from 5 s, doubling. */
export const DEFAULT_RETRY: JobRetry = { limit: 5, delaySeconds: 5, backoff: true };

/** Refused at send: a job whose payload does not match its schema is never enqueued. */
export class JobPayloadError extends Error {
  constructor(
    readonly job: string,
    readonly issues: string,
  ) {
    super(`job ${job}: payload refused (${issues})`);
    this.name = 'JobPayloadError';
  }
}

/** Throws if two jobs share a name: queue names come from the registry, each listed once. */
export const assertUniqueJobNames = (jobs: readonly { name: string }[]): void => {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
    seen.add(job.name);
  }
};
