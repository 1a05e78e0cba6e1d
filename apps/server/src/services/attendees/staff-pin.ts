import { createHash, timingSafeEqual } from 'node:crypto';
import type { ThrottleRow } from '../../repositories/identity/throttle.repository.ts';

/** Wrong staff PINs a kiosk may try in a row before it waits `STAFF_PIN_WAIT_SECONDS`. */
export const STAFF_PIN_MAX_FAILURES = 5;
export const STAFF_PIN_WAIT_SECONDS = 60;
/** And in any hour: a 4-digit PIN then takes weeks to guess from one kiosk. */
export const STAFF_PIN_MAX_FAILURES_PER_HOUR = 30;
/** A run of wrong PINs is forgotten after this long without one. */
export const STAFF_PIN_FORGET_SECONDS = 15 * 60;

/** The throttle key of one kiosk (event and address): one kiosk's guesses never lock another. */
export const staffPinThrottleKey = (eventId: number, address: string): string =>
  `kiosk-staff-pin:${eventId}:${address}`;

/**
 * Whether a kiosk must wait before its next PIN is even compared: 5 wrong in a row wait a
 * minute (the run is forgotten 15 minutes after its last failure), 30 wrong in an hour wait for
 * the hour to pass.
 */
export const staffPinThrottled = (
  row:
    | Pick<
        ThrottleRow,
        'lastFailureAt' | 'consecutiveFailures' | 'hourFailures' | 'hourWindowStart'
      >
    | undefined,
  now: Date,
): boolean => {
  if (!row?.lastFailureAt) return false;
  const at = now.getTime();
  const sinceLast = at - row.lastFailureAt.getTime();
  const hourStart = row.hourWindowStart?.getTime() ?? 0;
  if (at - hourStart < 3_600_000 && row.hourFailures >= STAFF_PIN_MAX_FAILURES_PER_HOUR)
    return true;
  return (
    row.consecutiveFailures >= STAFF_PIN_MAX_FAILURES && sinceLast < STAFF_PIN_WAIT_SECONDS * 1000
  );
};

/** Equal-time comparison of a typed PIN with the stored one (hashed first: lengths leak nothing). */
export const samePin = (given: string, stored: string): boolean =>
  timingSafeEqual(
    createHash('sha256').update(given.trim()).digest(),
    createHash('sha256').update(stored.trim()).digest(),
  );
