import PgBossModule from 'pg-boss';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SqlRunner } from '../db/database.ts';

/** Every job the product runs, with its payload. Handlers must be idempotent: a job may run twice. */
export interface JobPayloads {
  'mail.deliver': { outboxId: number };
  'auth.cleanup': Record<string, never>;
  'attendees.cleanup': Record<string, never>;
  'photo.derivatives': { photoId: number };
  'photos.retention': Record<string, never>;
  'sms.deliver': { outboxId: number };
  'outbox.resume': Record<string, never>;
  /** ADR 0006 storage migration: finds photos with pre-protected-storage keys (once per start). */
  'storage.protect-legacy': Record<string, never>;
  /** ADR 0006 storage migration of one photo (crash-safe, idempotent). */
  'storage.protect-photo': { photoId: number };
  /** Payments pending too long become `expired` (issue 10; idempotent by the state machine). */
  'payments.expire': Record<string, never>;
}
export type JobName = keyof JobPayloads;
export type JobHandler<N extends JobName> = (payload: JobPayloads[N]) => Promise<void>;

const queueNames: JobName[] = [
  'mail.deliver',
  'auth.cleanup',
  'attendees.cleanup',
  'photo.derivatives',
  'photos.retention',
  'sms.deliver',
  'outbox.resume',
  'storage.protect-legacy',
  'storage.protect-photo',
  'payments.expire',
];

type PgBossInstance = InstanceType<typeof PgBossModule>;
const PgBoss = PgBossModule as unknown as new (options: object) => PgBossInstance;

/** pg-boss on the app's own database (PGlite or PostgreSQL). */
export class JobQueue {
  private readonly boss: PgBossInstance;
  private started = false;

  constructor(
    db: SqlRunner,
    private readonly logger: Logger,
  ) {
    this.boss = new PgBoss({ db, schema: 'pgboss', supervise: true, schedule: true });
    this.boss.on('error', (error: unknown) => this.logger.error({ err: error }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of queueNames) await this.boss.createQueue(name);
    this.started = true;
  }

  async send<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { singletonKey?: string; retryLimit?: number; startAfterSeconds?: number } = {},
  ): Promise<void> {
    await this.boss.send(name, payload, {
      retryLimit: options.retryLimit ?? 5,
      retryDelay: 5,
      retryBackoff: true,
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
    });
  }

  async schedule(name: JobName, cron: string): Promise<void> {
    await this.boss.schedule(name, cron, {});
  }

  async work<N extends JobName>(name: N, handler: JobHandler<N>): Promise<void> {
    await this.boss.work<JobPayloads[N]>(
      name,
      { pollingIntervalSeconds: 0.5, batchSize: 1 },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data);
          } catch (error) {
            this.logger.warn(
              { err: error, job: name, jobId: job.id },
              'job failed; pg-boss will retry',
            );
            throw error;
          }
        }
      },
    );
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
