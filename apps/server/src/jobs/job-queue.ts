import { isDeepStrictEqual } from 'node:util';
import PgBossModule from 'pg-boss';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SqlRunner } from '../db/database.ts';
import { jobCatalogue, type JobName, type JobPayload } from './catalogue.ts';
import {
  assertUniqueJobNames,
  DEFAULT_EXPIRE_SECONDS,
  JobPayloadError,
  type BoundJob,
  type JobRetry,
  type JobSpec,
} from './job-definition.ts';
import type { JobBacklog, JobSender, JobSendOptions } from './job-sender.ts';

/** A handler bound to its services for every job of the catalogue (container/jobs.ts). */
export type BoundJobs = { readonly [N in JobName]: BoundJob<N> };

type PgBossInstance = InstanceType<typeof PgBossModule>;
const PgBoss = PgBossModule as unknown as new (options: object) => PgBossInstance;

const SCHEMA = 'pgboss';

const retryOptions = (retry: JobRetry) => ({
  retryLimit: retry.limit,
  retryDelay: retry.delaySeconds,
  retryBackoff: retry.backoff,
});

const queueOptions = (job: JobSpec) => ({
  ...retryOptions(job.retry),
  expireInSeconds: job.expireSeconds ?? DEFAULT_EXPIRE_SECONDS,
  policy: job.policy ?? 'standard',
});

/** A schedule as pg-boss stores it (`getSchedules`). */
interface StoredSchedule {
  name: string;
  cron: string;
  timezone: string;
  data: unknown;
  options: unknown;
}

/** Whether a stored schedule is already the one `boss.schedule(name, cron, {}, options)` writes. */
const sameSchedule = (
  stored: StoredSchedule | undefined,
  cron: string,
  options: ReturnType<typeof retryOptions>,
): boolean =>
  stored !== undefined &&
  stored.cron === cron &&
  stored.timezone === 'UTC' &&
  isDeepStrictEqual(stored.data ?? {}, {}) &&
  isDeepStrictEqual(stored.options, options);

/** Whether a stored queue already has the options the catalogue gives it. */
const sameQueueOptions = (
  queue: {
    policy?: string;
    retryLimit?: number;
    retryDelay?: number;
    retryBackoff?: boolean;
    expireInSeconds?: number;
  },
  wanted: ReturnType<typeof queueOptions>,
): boolean =>
  queue.policy === wanted.policy &&
  queue.retryLimit === wanted.retryLimit &&
  queue.retryDelay === wanted.retryDelay &&
  queue.retryBackoff === wanted.retryBackoff &&
  queue.expireInSeconds === wanted.expireInSeconds;

/**
 * pg-boss's maintenance, every MAINTENANCE_INTERVAL_SECONDS, fails active jobs past their expiry
 * and archives completed ones, on conditions none of its own indexes serve: two scans of every job
 * kept (12 hours of completed jobs) every 5 s. With 100,000 completed jobs (a busy event day) that
 * held PGlite's one connection ~44 ms every 5 s, in front of guests' requests; with these two
 * partial indexes, ~8 ms, as with an empty table. Created on the partitioned table, so every
 * queue's partition has them (and a queue made later gets them).
 */
export const MAINTENANCE_INDEXES = [
  `create index if not exists flashbulb_job_active_started on ${SCHEMA}.job (started_on) where state = 'active'`,
  `create index if not exists flashbulb_job_completed_on on ${SCHEMA}.job (completed_on) where completed_on is not null`,
];

/**
 * How often pg-boss fails expired active jobs (its default, 120 s, would add minutes) and archives
 * completed ones. On PostgreSQL another process may die mid-job, and only this round hands its
 * jobs to a survivor: every 5 s. A database one process owns (PGlite) has nobody else's jobs to
 * recover — the jobs its own last run left active are failed at start (`recoverOrphans`) — so the
 * round there only ends a handler hung past its expiry and tidies up: every 30 s, which makes
 * the round's hold on PGlite's one connection, in front of guests' requests, six times rarer.
 */
export const MAINTENANCE_INTERVAL_SECONDS = 5;
export const SINGLE_OWNER_MAINTENANCE_INTERVAL_SECONDS = 30;

/**
 * How workers find work. Polling each queue on its own (pg-boss's way: one fetch per queue every
 * half second) kept PGlite's single connection busy with some 50 fetches a second, and a guest's
 * request waited behind them. Instead one query a tick asks which queues have jobs due
 * (`DISPATCH_INTERVAL_MS`) and wakes only those queues' workers; a job sent by this process wakes
 * its worker at once, and a worker that ran a job fetches again at once until its queue is empty.
 * A queue's worker is registered with pg-boss when the queue first has work here, so a start
 * fetches nothing from the queues that stay empty. Each registered worker still polls on its own
 * every `IDLE_POLL_SECONDS`, a safety net only.
 */
export const DISPATCH_INTERVAL_MS = 500;
export const IDLE_POLL_SECONDS = 30;

/** A database that can serialise start-up work across processes (PostgreSQL); PGlite has one. */
export interface StartupLock {
  withStartupLock?<T>(work: () => Promise<T>): Promise<T>;
}

const describeIssues = (error: { issues: { path: PropertyKey[]; message: string }[] }): string =>
  error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');

/** What pg-boss's writes answer after stop (see the JobQueue constructor). */
const NOTHING_CHANGED = { rows: [{ count: 0 }] };

/** How long a stop waits for running handlers (a shutdown must not hang on a stuck one). */
const STOP_TIMEOUT_MS = 10_000;

/**
 * pg-boss on the app's own database (PGlite or PostgreSQL), driven by the job catalogue
 * (jobs/catalogue.ts): queues, payload checks, retry policies and schedules all come from there;
 * the worker runs the handlers the container bound (container/jobs.ts). It knows no service.
 */
export class JobQueue implements JobSender, JobBacklog {
  private readonly boss: PgBossInstance;
  private readonly jobs: ReadonlyMap<string, JobSpec>;
  private started = false;
  /** Queue name → this process's pg-boss worker id (the worker role only). */
  private readonly workerIds = new Map<string, string>();
  /** The worker role's handlers, from `startWorker` to `stop`. */
  private handlers: Readonly<Partial<Record<string, BoundJob>>> | null = null;
  /** Queues whose pg-boss worker is being registered (see `register`). */
  private readonly registering = new Map<string, Promise<void>>();
  private dispatcher: NodeJS.Timeout | null = null;
  private dispatching = false;
  /** Set once pg-boss has stopped: its later writes go nowhere (see the constructor). */
  private stopped = false;
  /** Seconds between pg-boss's maintenance rounds on this database. */
  readonly maintenanceIntervalSeconds: number;
  private readonly stopTimeoutMs: number;
  private readonly metrics:
    | { observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void }
    | undefined;

  constructor(
    private readonly db: SqlRunner & StartupLock,
    private readonly logger: Logger,
    catalogue: readonly JobSpec[] = jobCatalogue,
    options: {
      singleOwner?: boolean;
      /** How long `stop` waits for running handlers before it fails their jobs (default 10 s). */
      stopTimeoutMs?: number;
      /** Where each handler's outcome and duration are counted (the /metrics of this process). */
      metrics?: {
        observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void;
      };
    } = {},
  ) {
    this.stopTimeoutMs = options.stopTimeoutMs ?? STOP_TIMEOUT_MS;
    this.metrics = options.metrics;
    assertUniqueJobNames(catalogue);
    this.jobs = new Map(catalogue.map((job) => [job.name, job]));
    this.maintenanceIntervalSeconds = options.singleOwner
      ? SINGLE_OWNER_MAINTENANCE_INTERVAL_SECONDS
      : MAINTENANCE_INTERVAL_SECONDS;
    this.boss = new PgBoss({
      // After stop, a handler that outlived the stop's wait still ends inside pg-boss, which then
      // records its completion — on a database that may be closed by then, in a promise nobody
      // awaits (an unhandled rejection at shutdown). Its job was already failed by the stop
      // (retried by the next process), so those late writes are dropped: they answer as pg-boss's
      // completion commands do, one row counting the jobs changed — none.
      db: {
        executeSql: (text: string, values?: unknown[]) =>
          this.stopped ? Promise.resolve(NOTHING_CHANGED) : db.executeSql(text, values),
      },
      schema: SCHEMA,
      supervise: true,
      schedule: true,
      maintenanceIntervalSeconds: this.maintenanceIntervalSeconds,
    });
    this.boss.on('error', (error: unknown) => this.logger.error({ err: error }, 'job queue error'));
  }

  /** Whether this process runs job handlers now (the readiness check of a worker). */
  get working(): boolean {
    return this.started && this.handlers !== null;
  }

  /** The queue names, in catalogue order. */
  get names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Starts pg-boss and creates every queue of the catalogue (producer and worker alike). */
  async start(): Promise<void> {
    this.stopped = false;
    // pg-boss creates its schema and each queue's partition on first start; two processes doing
    // that at once on an empty PostgreSQL deadlock or collide, so it runs under our start-up lock.
    const setUp = async (): Promise<void> => {
      await this.boss.start();
      // One read of the existing queues instead of two statements per queue on every start (a
      // start is ≈ 50 statements fewer): only a missing queue is created, and only one whose
      // options differ from the catalogue's is updated (queues made by an older version keep
      // their options unless updated).
      const existing = new Map(
        (await this.boss.getQueues()).map((queue) => [queue.name, queue] as const),
      );
      for (const job of this.jobs.values()) {
        const wanted = { name: job.name, ...queueOptions(job) };
        const queue = existing.get(job.name);
        if (!queue) await this.boss.createQueue(job.name, wanted);
        else if (!sameQueueOptions(queue, wanted)) await this.boss.updateQueue(job.name, wanted);
      }
      for (const statement of MAINTENANCE_INDEXES) await this.db.executeSql(statement);
    };
    if (this.db.withStartupLock) await this.db.withStartupLock(setUp);
    else await setUp();
    this.started = true;
  }

  /**
   * Enqueues a job. The payload is checked against the job's schema first: a bad payload throws
   * `JobPayloadError` and nothing is enqueued.
   */
  async send<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    options: JobSendOptions = {},
  ): Promise<void> {
    const job = this.job(name);
    const parsed = job.payload.safeParse(payload);
    if (!parsed.success) throw new JobPayloadError(name, describeIssues(parsed.error));
    const singletonKey = options.singletonKey ?? job.singletonKey?.(parsed.data);
    await this.boss.send(name, parsed.data as object, {
      ...retryOptions(job.retry),
      expireInSeconds: job.expireSeconds ?? DEFAULT_EXPIRE_SECONDS,
      ...(singletonKey ? { singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
    });
    if (!options.startAfterSeconds) this.wake(name);
  }

  private wake(name: string): void {
    const id = this.workerIds.get(name);
    if (id) this.boss.notifyWorker(id);
    else void this.register(name);
  }

  /**
   * Registers a queue's pg-boss worker the first time the queue has a job due here: pg-boss's
   * worker fetches at once when registered, so registering all of them at start cost one fetch
   * per queue (some forty statements on every worker start, most for queues that stay empty).
   * The dispatcher's tick finds the queues with work; a job sent by this process wakes its queue.
   */
  private register(name: string): Promise<void> {
    const job = this.jobs.get(name);
    const handler = this.handlers?.[name];
    if (!job || !handler || !this.started) return Promise.resolve();
    const pending = this.registering.get(name);
    if (pending) return pending;
    const registration = this.boss
      .work<unknown>(
        name,
        { pollingIntervalSeconds: IDLE_POLL_SECONDS, batchSize: 1 },
        async (batch) => {
          // Fetch again right after this job (also when it fails): drains the queue.
          this.wake(name);
          for (const item of batch) await this.run(job, handler, item.id, item.data);
        },
      )
      .then((id) => {
        this.workerIds.set(name, id);
      })
      .catch((error: unknown) => {
        if (this.started) this.logger.error({ err: error, job: name }, 'job worker not started');
      })
      .finally(() => this.registering.delete(name));
    this.registering.set(name, registration);
    return registration;
  }

  /** One dispatcher tick: wakes the workers of the queues that have a job due. */
  private async dispatch(): Promise<void> {
    if (this.dispatching || !this.started) return;
    this.dispatching = true;
    try {
      const { rows } = await this.db.executeSql(
        `select distinct name from ${SCHEMA}.job where state < 'active' and start_after < now()`,
        [],
      );
      for (const row of rows) this.wake(String(row.name));
    } catch (error) {
      if (this.started) this.logger.warn({ err: error }, 'job dispatcher query failed');
    } finally {
      this.dispatching = false;
    }
  }

  /**
   * Payloads of a queue's jobs that are `pending` (created, retry or active) or `failed` (retries
   * used up; pg-boss keeps them in its job table for hours before archiving them).
   */
  async payloads(name: JobName, which: 'pending' | 'failed'): Promise<unknown[]> {
    const { rows } = await this.db.executeSql(
      `select data from ${SCHEMA}.job where name = $1 and ${
        which === 'pending' ? "state < 'completed'" : "state = 'failed'"
      }`,
      [name],
    );
    return rows.map((row) => row.data);
  }

  /**
   * Jobs a killed process left `active`. Only for a database one process owns (PGlite, behind the
   * data-folder lock): at start nobody else can be running them, so they are failed at once and
   * retried by their policy, instead of waiting for their expiry. On PostgreSQL another process
   * may be running them: there the expiry (`expireSeconds`) recovers them.
   */
  async recoverOrphans(): Promise<number> {
    const { rows } = await this.db.executeSql(
      `select name, array_agg(id) as ids from ${SCHEMA}.job where state = 'active' group by name`,
    );
    let failed = 0;
    for (const row of rows as { name: string; ids: string[] }[]) {
      for (const id of row.ids) {
        await this.boss.fail(row.name, id, { reason: 'the process running it stopped' });
        failed += 1;
      }
    }
    if (failed > 0) this.logger.warn({ failed }, 'jobs left active by a stopped process retried');
    return failed;
  }

  /**
   * Takes every job's handler and writes the schedules (the worker role); each queue's pg-boss
   * worker starts when the queue first has work (`register`). A queue without a handler refuses
   * to start: its jobs would wait for ever.
   */
  async startWorker(handlers: Readonly<Partial<Record<string, BoundJob>>>): Promise<void> {
    for (const job of this.jobs.values()) {
      const handler = handlers[job.name];
      if (handler?.name !== job.name) throw new Error(`job ${job.name} has no handler`);
    }
    // Like the queues: one read of the stored schedules, and a write only for a schedule that is
    // missing or differs (twenty upserts on every worker start otherwise).
    const schedules = new Map(
      ((await this.boss.getSchedules()) as StoredSchedule[]).map((row) => [row.name, row]),
    );
    for (const job of this.jobs.values()) {
      const options = retryOptions(job.retry);
      if (job.schedule && !sameSchedule(schedules.get(job.name), job.schedule, options))
        await this.boss.schedule(job.name, job.schedule, {}, options);
    }
    this.handlers = handlers;
    this.dispatcher = setInterval(() => void this.dispatch(), DISPATCH_INTERVAL_MS);
    this.dispatcher.unref();
    // The jobs already due (left by an earlier run or sent by another process) start now.
    await this.dispatch();
  }

  private async run(job: JobSpec, handler: BoundJob, id: string, data: unknown): Promise<void> {
    const parsed = job.payload.safeParse(data);
    if (!parsed.success) {
      // It can never become valid: log it and let the job end instead of retrying it.
      this.logger.error(
        { job: job.name, jobId: id, issues: describeIssues(parsed.error) },
        'job payload refused; not run',
      );
      return;
    }
    const started = performance.now();
    try {
      await handler.run(parsed.data);
      this.metrics?.observeJob(job.name, 'completed', (performance.now() - started) / 1000);
    } catch (error) {
      this.metrics?.observeJob(job.name, 'failed', (performance.now() - started) / 1000);
      this.logger.warn({ err: error, job: job.name, jobId: id }, 'job failed; pg-boss will retry');
      throw error;
    }
  }

  private job(name: string): JobSpec {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`job ${name} is not in the registry`);
    return job;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    if (this.dispatcher) clearInterval(this.dispatcher);
    this.dispatcher = null;
    this.handlers = null;
    await Promise.all(this.registering.values());
    this.workerIds.clear();
    await this.boss.stop({ graceful: true, wait: true, timeout: this.stopTimeoutMs });
    this.stopped = true;
  }
}
