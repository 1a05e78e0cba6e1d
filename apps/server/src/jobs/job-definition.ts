import type { z } from 'zod';

export interface JobRetry {
  /** Retries after the first failure (pg-boss `retryLimit`). */
  limit: number;
  /** Seconds before the first retry (`retryDelay`). */
  delaySeconds: number;
  /** Doubles the delay on each retry (`retryBackoff`). */
  backoff: boolean;
}

/**
 * One job as data (its catalogue entry, jobs/catalogue.ts): queue name, payload schema (checked
 * when sent and when run), retry policy, optional cron schedule. No handler: that is the job's
 * own file, bound to its services in the container.
 */
export interface JobSpec<N extends string = string, S extends z.ZodType = z.ZodType> {
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
}

export const jobSpec = <const N extends string, S extends z.ZodType>(
  spec: JobSpec<N, S>,
): JobSpec<N, S> => spec;

/**
 * A job's handler: its catalogue entry and what it does with a checked payload, using only the
 * narrow dependencies `D` it declares. Handlers must be idempotent: pg-boss may run a job twice.
 */
export interface JobHandler<N extends string, S extends z.ZodType, D> {
  readonly job: JobSpec<N, S>;
  run(payload: z.output<S>, deps: D): Promise<unknown>;
}

export const defineJob = <const N extends string, S extends z.ZodType, D>(
  job: JobSpec<N, S>,
  run: (payload: z.output<S>, deps: D) => Promise<unknown>,
): JobHandler<N, S, D> => ({ job, run });

/** A handler bound to its dependencies (container/jobs.ts): what the worker runs for a queue. */
export interface BoundJob<N extends string = string> {
  readonly name: N;
  run(payload: unknown): Promise<unknown>;
}

/** Binds a handler to its dependencies; the payload it gets was checked against the schema. */
export const bindJob = <N extends string, S extends z.ZodType, D>(
  handler: JobHandler<N, S, D>,
  deps: D,
): BoundJob<N> => ({
  name: handler.job.name,
  run: (payload) => handler.run(payload as z.output<S>, deps),
});

/** Expiry of a job without its own: long enough for a slow mail server or a storage sweep. */
export const DEFAULT_EXPIRE_SECONDS = 15 * 60;

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

/** Throws if two jobs share a name: queue names come from the catalogue, each listed once. */
export const assertUniqueJobNames = (jobs: readonly { name: string }[]): void => {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
    seen.add(job.name);
  }
};
