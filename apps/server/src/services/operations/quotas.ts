import { AppError } from '../../lib/app-error.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';

/** The limits of {@link Quotas} (configuration: `FLASHBULB_QUOTA_*`, docs/security.md). */
export interface QuotaLimits {
  /** Attendees one `attendee/list/generate` call may make. */
  attendeesPerCall: number;
  /** Attendees an organisation may generate per day (a window of 24 h from its first call). */
  attendeesPerDay: number;
  /** Upload completions one organisation may run at the same time (every process together). */
  uploadCompletions: number;
  /** Selfie upload grants per key per hour. */
  selfieGrantsPerHour: number;
  /** Face searches per key per hour. */
  faceSearchesPerHour: number;
}

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * A concurrency slot is a counter whose window is a lease: should a process die holding slots,
 * they come back when the window ends (far longer than any completion takes).
 */
const UPLOAD_SLOT_LEASE_MS = 10 * 60_000;

/**
 * Quotas per organisation and per key, counted in the database so they hold across every API
 * process. Over a quota: 429 `too_many_requests` (nothing done, nothing counted); one call asking
 * for more than a call may: 413 `attendee_count_too_large`. A key is named by its type, event
 * and attendee (what access resolved), never by its secret value.
 */
export class Quotas {
  constructor(
    private readonly deps: {
      throttle: Pick<ThrottleRepository, 'takeQuota' | 'returnQuota'>;
      limits: QuotaLimits;
    },
  ) {}

  private async take(key: string, amount: number, limit: number, windowMs: number, field?: string) {
    const { taken } = await this.deps.throttle.takeQuota(`quota:${key}`, amount, limit, windowMs);
    if (!taken) throw new AppError('too_many_requests', field);
  }

  /** Before generating `count` attendees for an organisation. */
  async attendees(organisationId: number, count: number): Promise<void> {
    const { attendeesPerCall, attendeesPerDay } = this.deps.limits;
    if (count > attendeesPerCall) throw new AppError('attendee_count_too_large', 'attendee_count');
    await this.take(
      `attendees-day:${organisationId}`,
      count,
      attendeesPerDay,
      DAY_MS,
      'attendee_count',
    );
  }

  /** Runs one upload completion of an organisation in one of its concurrency slots. */
  async uploadSlot<T>(organisationId: number, work: () => Promise<T>): Promise<T> {
    const key = `upload-completions:${organisationId}`;
    await this.take(key, 1, this.deps.limits.uploadCompletions, UPLOAD_SLOT_LEASE_MS);
    try {
      return await work();
    } finally {
      await this.deps.throttle.returnQuota(`quota:${key}`, 1);
    }
  }

  /** One selfie upload grant for a key (named by what access resolved: type, event, attendee). */
  async selfieGrant(keyName: string): Promise<void> {
    await this.take(`selfie-grants:${keyName}`, 1, this.deps.limits.selfieGrantsPerHour, HOUR_MS);
  }

  /** One face search for a key. */
  async faceSearch(keyName: string): Promise<void> {
    await this.take(`face-searches:${keyName}`, 1, this.deps.limits.faceSearchesPerHour, HOUR_MS);
  }
}
