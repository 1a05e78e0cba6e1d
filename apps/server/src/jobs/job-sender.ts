import type { JobName, JobPayload } from './catalogue.ts';

export interface JobSendOptions {
  /** Overrides the catalogue entry's singleton key for this one job. */
  singletonKey?: string;
  /** Runs the job no sooner than this many seconds from now. */
  startAfterSeconds?: number;
}

/**
 * What a service needs to enqueue work: a send typed by the job catalogue (jobs/catalogue.ts). A
 * payload that does not match its job's schema is refused (`JobPayloadError`) and nothing is
 * enqueued. Services import this type only, never the queue itself (jobs/job-queue.ts), so the
 * jobs layer sits above the services it runs.
 */
export interface JobSender {
  send<N extends JobName>(name: N, payload: JobPayload<N>, options?: JobSendOptions): Promise<void>;
}

/** Which jobs of a queue are still waiting or running, or failed for good (the stuck-photo sweep). */
export interface JobBacklog {
  /**
   * Payloads of a queue's jobs that are `pending` (created, retry or active) or `failed` (retries
   * used up; pg-boss keeps them in its job table for hours before archiving them).
   */
  payloads(name: JobName, which: 'pending' | 'failed'): Promise<unknown[]>;
}
