import { AppError } from './app-error.ts';
import type { Clock } from './clock.ts';
import type { SecretBox } from './secret-box.ts';

/** What every sealed ticket carries: when it stops opening (seconds since the epoch). */
export interface TicketExpiry {
  x: number;
}

/**
 * A ticket for a link that opens without signing in (an album's ZIP, an attendee's export),
 * sealed with the server's secret so it can be neither read nor altered, good for `seconds`.
 */
export function sealTicket<T extends object>(
  secrets: SecretBox,
  clock: Clock,
  ticket: T,
  seconds: number,
): string {
  const expiry = Math.floor(clock.now().getTime() / 1000) + seconds;
  return secrets.encrypt(JSON.stringify({ ...ticket, x: expiry }));
}

/** A sealed ticket read back; `not_found` when it cannot be read or has expired. */
export function unsealTicket<T extends object>(
  secrets: SecretBox,
  clock: Clock,
  sealed: string,
): T & TicketExpiry {
  let ticket: T & TicketExpiry;
  try {
    ticket = JSON.parse(secrets.decrypt(sealed)) as T & TicketExpiry;
  } catch {
    throw new AppError('not_found');
  }
  if (typeof ticket?.x !== 'number' || ticket.x * 1000 <= clock.now().getTime())
    throw new AppError('not_found');
  return ticket;
}
