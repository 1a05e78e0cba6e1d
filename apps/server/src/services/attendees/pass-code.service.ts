import { randomInt } from 'node:crypto';
import {
  formatUnlockCodes,
  isValidPersonName,
  parseUnlockCodes,
  UNLOCK_CODE_ALPHABET,
  type Endpoints,
  type ParsedBodyOf,
  type UnlockCodeEntry,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { passCodesForOwner } from '../../presenters/attendee.presenter.ts';
import type { KioskMediaRepository } from '../../repositories/attendees/kiosk-media.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';

/**
 * Pass codes (albums §7.2): the owner's list of people and their four-character codes, stored on
 * the event (`secret_code_list`); the kiosk's desk unlocks an album with one. Written with the
 * event's `updatedAt` as a compare-and-set, so two editors never overwrite each other.
 */
export class PassCodeService {
  constructor(
    private readonly deps: {
      rows: Pick<KioskMediaRepository, 'writeSecretCodeList'>;
      access: AccessControl;
      clock: Clock;
    },
  ) {}

  private async ownerEvent(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    return event;
  }

  private async write(event: EventRecord, entries: UnlockCodeEntry[]): Promise<void> {
    const written = await this.deps.rows.writeSecretCodeList(
      event.row.id,
      event.row.updatedAt,
      formatUnlockCodes(entries),
      this.deps.clock.now(),
    );
    if (!written) throw new AppError('event_was_updated_by_another_user');
  }

  async retrievePassCodes(
    principal: Principal,
    input: ParsedBodyOf<Endpoints['retrievePassCodeList']>,
  ) {
    const event = await this.ownerEvent(principal, input.event_id);
    return { pass_codes: passCodesForOwner(parseUnlockCodes(event.row.secret_code_list)) };
  }

  /** Adds the person's entry or gives them a new code; codes stay unique within the event. */
  async updatePassCode(principal: Principal, input: ParsedBodyOf<Endpoints['updatePassCode']>) {
    const event = await this.ownerEvent(principal, input.event_id);
    if (!isValidPersonName(input.first_name))
      throw new AppError('unlock_code_name_invalid', 'first_name');
    if (!isValidPersonName(input.last_name))
      throw new AppError('unlock_code_name_invalid', 'last_name');
    const entries = parseUnlockCodes(event.row.secret_code_list);
    const same = (e: UnlockCodeEntry) =>
      e.firstName.toLowerCase() === input.first_name.toLowerCase() &&
      e.lastName.toLowerCase() === input.last_name.toLowerCase();
    const others = entries.filter((e) => !same(e));
    const taken = new Set(others.map((e) => e.code));
    let code = input.code;
    if (code && taken.has(code)) throw new AppError('pass_code_taken', 'code');
    while (!code || taken.has(code)) {
      code = Array.from(
        { length: 4 },
        () => UNLOCK_CODE_ALPHABET[randomInt(UNLOCK_CODE_ALPHABET.length)],
      ).join('');
    }
    const entry = { firstName: input.first_name, lastName: input.last_name, code };
    const index = entries.findIndex(same);
    const next = index < 0 ? [...entries, entry] : entries.map((e, i) => (i === index ? entry : e));
    await this.write(event, next);
    return {
      pass_code: passCodesForOwner([entry])[0]!,
      pass_codes: passCodesForOwner(next),
    };
  }

  async deletePassCode(principal: Principal, input: ParsedBodyOf<Endpoints['deletePassCode']>) {
    const event = await this.ownerEvent(principal, input.event_id);
    const entries = parseUnlockCodes(event.row.secret_code_list);
    const next = entries.filter((e) => e.code !== input.code);
    if (next.length === entries.length) throw new AppError('not_found', 'code');
    await this.write(event, next);
    return { pass_codes: passCodesForOwner(next) };
  }
}
