import { AppError } from '../lib/app-error.ts';
import type { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';

/**
 * What guests (keys and anonymous callers) may make the server do for them: messages sent and
 * attendee ids looked up. Each limit is a budget per window counted in the database
 * (HitCounterRepository), so it holds across every API process. Values: docs/security.md
 * ("Limits, relay and patterns"); an operator changes them with FLASHBULB_GUEST_LIMITS.
 */
export const DEFAULT_GUEST_LIMITS = {
  /** Mail recipients one key call may name (after comma lists are split). */
  recipientsPerCall: 5,
  /** Mail recipients per hour: per key, per client address, per event, per recipient address. */
  mailPerKeyHourly: 100,
  mailPerAddressHourly: 30,
  mailPerEventHourly: 300,
  mailPerRecipientHourly: 5,
  /** SMS per hour: per key, per client address, per event, per number. */
  smsPerKeyHourly: 30,
  smsPerAddressHourly: 10,
  smsPerEventHourly: 100,
  smsPerRecipientHourly: 3,
  /** Web-app registrations (each mails and may text) per hour: per client address, per event. */
  registerPerAddressHourly: 60,
  registerPerEventHourly: 1000,
  /** Guests' own photos (upload grants) per hour: per client address, per event. */
  guestUploadsPerAddressHourly: 60,
  guestUploadsPerEventHourly: 2000,
  /** Attendee-id lookups per 10 minutes: all of them per client address; failed ones per address and per event. */
  attendeeLookupsPerAddress: 1000,
  attendeeFailuresPerAddress: 30,
  attendeeFailuresPerEvent: 200,
} as const;

export type GuestLimits = { -readonly [K in keyof typeof DEFAULT_GUEST_LIMITS]: number };

export const HOUR_MS = 3_600_000;
export const TEN_MINUTES_MS = 600_000;

/**
 * FLASHBULB_GUEST_LIMITS: `name=value` pairs separated by commas (names as in
 * DEFAULT_GUEST_LIMITS) over the defaults; an unknown name or a value that is not a positive
 * whole number refuses to start.
 */
export const parseGuestLimits = (raw: string | undefined): GuestLimits => {
  const limits: GuestLimits = { ...DEFAULT_GUEST_LIMITS };
  for (const pair of (raw ?? '').split(',')) {
    if (!pair.trim()) continue;
    const [name = '', value = ''] = pair.split('=').map((part) => part.trim());
    if (!(name in limits) || !/^\d+$/.test(value) || Number(value) < 1)
      throw new Error(
        `Invalid configuration: FLASHBULB_GUEST_LIMITS: "${pair.trim()}" is not <name>=<positive number> (names: ${Object.keys(DEFAULT_GUEST_LIMITS).join(', ')})`,
      );
    limits[name as keyof GuestLimits] = Number(value);
  }
  return limits;
};

/** One budget: a counter key and how much it may reach in its window. */
export interface Budget {
  key: string;
  limit: number;
}

/** Spends and checks budgets (answers 429 `too_many_requests` when one is used up). */
export class UsageBudgets {
  constructor(private readonly counters: HitCounterRepository) {}

  /**
   * Takes `amount` from every budget, or refuses (`too_many_requests`) when any cannot give it.
   * Checked before counting, so a refused call spends nothing; counted, then checked again, so
   * calls racing in several processes cannot together go past a limit.
   */
  async spend(budgets: Budget[], amount: number, windowMs: number): Promise<void> {
    if (amount <= 0 || budgets.length === 0) return;
    const before = await this.counters.current(budgets.map((b) => b.key));
    if (budgets.some((b, i) => (before[i] ?? 0) + amount > b.limit))
      throw new AppError('too_many_requests');
    const after = await this.counters.add(
      budgets.map((b) => b.key),
      amount,
      windowMs,
    );
    if (budgets.some((b, i) => (after[i] ?? 0) > b.limit)) throw new AppError('too_many_requests');
  }

  /** Refuses when any budget is already used up (nothing counted). */
  async check(budgets: Budget[]): Promise<void> {
    const counts = await this.counters.current(budgets.map((b) => b.key));
    if (budgets.some((b, i) => (counts[i] ?? 0) >= b.limit))
      throw new AppError('too_many_requests');
  }

  /** Counts `amount` on every budget without refusing (failures, counted after the fact). */
  async count(budgets: Budget[], amount: number, windowMs: number): Promise<void> {
    await this.counters.add(
      budgets.map((b) => b.key),
      amount,
      windowMs,
    );
  }
}
