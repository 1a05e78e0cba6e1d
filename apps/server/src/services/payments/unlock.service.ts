import { createHash, timingSafeEqual } from 'node:crypto';
import {
  parseUnlockCodes,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { attendsEvent } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  WHOLE_ALBUM,
  type AttendeeUnlockRepository,
} from '../../repositories/payments/attendee-unlock.repository.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { OrderRow } from '../../repositories/payments/payment.repository.ts';
import type { PrintRequestRepository } from '../../repositories/printing/print-request.repository.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
/** A public twin's body without its key: the principal already carries it. */
/** Paid orders' print requests carry `order:<order id>` as their request id (one per order). */
export const PAID_ORDER_PRINT_PREFIX = 'order:';

/** Wrong codes a kiosk may try in a row before it waits (`UNLOCK_WAIT_SECONDS`). */
export const UNLOCK_MAX_FAILURES = 5;
export const UNLOCK_WAIT_SECONDS = 60;
/** And in any hour. */
export const UNLOCK_MAX_FAILURES_PER_HOUR = 30;
/** A run of wrong codes is forgotten after this long without one. */
const UNLOCK_FORGET_SECONDS = 15 * 60;

/** The `attendee.unlocked` domain event. */
export interface AttendeeUnlocked {
  attendeeId: number;
  eventId: number;
  scope: string;
  source: 'employee_code' | 'payment' | 'owner';
  employeeName: string | null;
  paymentId: number | null;
}

/** Equal-time comparison (hashed first, so lengths leak nothing). */
const sameCode = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * Unlocking attendee albums (albums spec §3, §7.2): at the desk with an employee's code
 * (a cash sale), and — for the payments service — on a confirmed payment. Codes and attendee ids
 * are secrets: never logged.
 */
export class UnlockService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      unlocks: AttendeeUnlockRepository;
      throttle: ThrottleRepository;
      attendees: AttendeeRepository;
      albums: AlbumRepository;
      printRequests: PrintRequestRepository;
      clock: Clock;
      /** Raised once per new unlock; the domain-event bus subscribes here. */
      notices?: {
        attendeeUnlocked(event: AttendeeUnlocked): Promise<void>;
        /** A print request was stored (printing sends it to the queue). */
        printRequested?(request: { printRequestId: number; eventId: number }): Promise<void>;
      };
    },
  ) {}

  /**
   * `POST /attendee/unlock`: the kiosk's key names the event, the employee's code must be one of
   * its `secret_code_list`. Wrong codes count per kiosk (event and address) and change nothing.
   */
  async unlockByCode(
    principal: Principal,
    input: KeylessBody<'attendeeUnlock'>,
    kiosk: { address: string },
  ): Promise<{ attendee_uid: string; event_id: number; unlocked: 1 }> {
    const { event, record, employeeName } = await this.checkCode(principal, input, kiosk);
    await this.unlockAlbum(event, record, 'employee_code', employeeName);
    return { attendee_uid: record.row.uid, event_id: event.row.id, unlocked: 1 };
  }

  /** `POST /attendee/unlock-and-print`: the desk unlock, plus a stored print request. */
  async unlockAndPrintByCode(
    principal: Principal,
    input: KeylessBody<'attendeeUnlockAndPrint'>,
    kiosk: { address: string },
  ) {
    const { event, record, employeeName } = await this.checkCode(principal, input, kiosk);
    return this.unlockAndStorePrint(event, record, input, 'employee_code', employeeName);
  }

  /** The owner's unlock-and-print: any attendee of the event's organisation, locked or not. */
  async ownerUnlockAndPrint(principal: Principal, input: Body<'ownerUnlockAndPrint'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const { record } = await this.deps.access.attendeeByUid(input.attendee_uid);
    if (!record || record.row.organisationId !== event.row.organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return this.unlockAndStorePrint(event, record, input, 'owner', null);
  }

  /**
   * The kiosk's event (the private key with the event's display token: a guest's private-album
   * link guesses no codes), the open attendee of that event and the employee whose code was
   * given. Wrong codes count per kiosk (event and address) and change nothing.
   */
  private async checkCode(
    principal: Principal,
    input: Pick<Body<'attendeeUnlock'>, 'attendee_uid' | 'unlock_code'>,
    kiosk: { address: string },
  ): Promise<{ event: EventRecord; record: AttendeeRecord; employeeName: string }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.unlock', {
      keyEvent: true,
    });
    const { record, refusal } = await this.deps.access.attendeeById(input.attendee_uid);
    if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', 'attendee_uid');
    // The desk sells the albums of its own event only.
    if (!attendsEvent(record, event.row)) throw new AppError('invalid_attendee_id', 'attendee_uid');

    const throttleKey = `unlock-code:${event.row.id}:${kiosk.address}`;
    await this.refuseWhileThrottled(throttleKey);
    const given = input.unlock_code.trim().toUpperCase();
    // Every entry is compared (no early exit), so timing says nothing about which one matched.
    let employee: { firstName: string; lastName: string } | null = null;
    for (const entry of parseUnlockCodes(event.row.secret_code_list)) {
      if (sameCode(entry.code.toUpperCase(), given) && !employee) employee = entry;
    }
    if (!employee) {
      await this.deps.throttle.recordFailure(
        throttleKey,
        this.deps.clock.now(),
        UNLOCK_FORGET_SECONDS,
      );
      throw new AppError('invalid_unlock_code', 'unlock_code');
    }
    await this.deps.throttle.recordSuccess(throttleKey);
    return { event, record, employeeName: `${employee.firstName} ${employee.lastName}` };
  }

  /** Photos of the attendee's album at this event, within the event's print limits. */
  private async printablePhotos(
    event: EventRecord,
    record: AttendeeRecord,
    input: Pick<Body<'ownerUnlockAndPrint'>, 'photo_uid_array' | 'printing_count'>,
  ): Promise<string[]> {
    const uids = [...new Set(input.photo_uid_array)];
    if (uids.length > event.row.max_print_photos_count)
      throw new AppError('per_request_count_error', 'photo_uid_array');
    if ((input.printing_count ?? 1) > event.row.max_print_copies_count)
      throw new AppError('photos_copy_count_error', 'printing_count');
    const rows = await this.deps.albums.photosByUids(event.row.id, uids);
    if (rows.length !== uids.length) throw new AppError('not_found', 'photo_uid_array');
    for (const row of rows)
      if (!(await this.deps.attendees.ownsPhoto(record, row)))
        throw new AppError('not_found', 'photo_uid_array');
    return uids;
  }

  private unlockAlbum(
    event: EventRecord,
    record: AttendeeRecord,
    source: 'employee_code' | 'owner',
    employeeName: string | null,
  ) {
    return this.unlock({
      attendeeId: record.row.id,
      eventId: event.row.id,
      scope: WHOLE_ALBUM,
      source,
      employeeName,
      paymentId: null,
    });
  }

  /**
   * A client request id already used for another attendee of the event, or one of the ids paid
   * orders print under (`order:<id>`): refused, nothing changes.
   */
  private async refuseReusedRequestId(
    event: EventRecord,
    record: AttendeeRecord,
    clientRequestId: string | undefined,
  ): Promise<void> {
    if (!clientRequestId) return;
    if (clientRequestId.startsWith(PAID_ORDER_PRINT_PREFIX))
      throw new AppError('invalid_value', 'client_request_id');
    const stored = await this.deps.printRequests.findByClientRequestId(
      event.row.id,
      clientRequestId,
    );
    if (stored && stored.attendeeId !== record.row.id)
      throw new AppError('invalid_value', 'client_request_id');
  }

  /**
   * Unlock-and-print, once the attendee is settled: the photos checked, a request id reused for
   * another attendee refused, then the album unlocked and the print request stored.
   */
  private async unlockAndStorePrint(
    event: EventRecord,
    record: AttendeeRecord,
    input: Pick<
      Body<'ownerUnlockAndPrint'>,
      'photo_uid_array' | 'printing_count' | 'client_request_id'
    >,
    source: 'employee_code' | 'owner',
    employeeName: string | null,
  ) {
    const uids = await this.printablePhotos(event, record, input);
    const clientRequestId = input.client_request_id;
    await this.refuseReusedRequestId(event, record, clientRequestId);
    await this.unlockAlbum(event, record, source, employeeName);
    const copies = input.printing_count;
    const row = {
      eventId: event.row.id,
      attendeeId: record.row.id,
      photoUids: uids,
      copies: copies ?? 1,
      printerPool: null,
      source,
      employeeName,
      status: 'queued' as const,
      createdAt: this.deps.clock.now(),
    };
    // With a client request id a retry answers the stored request: one print, however often sent.
    const { row: request, created } = clientRequestId
      ? await this.deps.printRequests.insertOnce({ ...row, clientRequestId })
      : { row: await this.deps.printRequests.insert(row), created: true };
    if (request.attendeeId !== record.row.id)
      throw new AppError('invalid_value', 'client_request_id'); // a racing reuse of the id
    // The request row is the truth: a failed notice leaves it `queued` for the print.resume sweep.
    if (created)
      await this.deps.notices
        ?.printRequested?.({ printRequestId: request.id, eventId: event.row.id })
        .catch(() => undefined);
    return {
      attendee_uid: record.row.uid,
      event_id: event.row.id,
      unlocked: 1 as const,
      print_request_id: request.id,
      photo_count: request.photoUids.length,
    };
  }

  /**
   * A paid order's prints (`payment.confirmed` of an order whose button sells prints): stored once
   * per order as a print request on the button's pool, then announced to the printing service
   * (`print.requested`). A failed notice leaves the request `queued` for the print.resume sweep.
   */
  async printPaidOrder(
    order: Pick<OrderRow, 'id' | 'eventId' | 'attendeeId' | 'items'>,
  ): Promise<{ printRequestId: number; created: boolean }> {
    const { row, created } = await this.deps.printRequests.insertOnce({
      eventId: order.eventId,
      attendeeId: order.attendeeId,
      photoUids: order.items.prints,
      copies: 1,
      printerPool: order.items.printsPool ?? null,
      source: 'payment',
      employeeName: null,
      status: 'queued',
      clientRequestId: `${PAID_ORDER_PRINT_PREFIX}${order.id}`,
      createdAt: this.deps.clock.now(),
    });
    if (created)
      await this.deps.notices
        ?.printRequested?.({ printRequestId: row.id, eventId: order.eventId })
        .catch(() => undefined);
    return { printRequestId: row.id, created };
  }

  /** Records an unlock (the first one stands) and raises `attendee.unlocked` when it is new. */
  async unlock(input: AttendeeUnlocked): Promise<{ created: boolean }> {
    const { created } = await this.deps.unlocks.unlock({ ...input, now: this.deps.clock.now() });
    // A failed notice must not undo a sale: the unlock row is the truth.
    if (created) await this.deps.notices?.attendeeUnlocked(input).catch(() => undefined);
    return { created };
  }

  /** A refund: removes what the payment unlocked. */
  async relockPayment(paymentId: number): Promise<number> {
    return this.deps.unlocks.deleteForPayment(paymentId);
  }

  private async refuseWhileThrottled(key: string): Promise<void> {
    const row = await this.deps.throttle.get(key);
    if (!row?.lastFailureAt) return;
    const now = this.deps.clock.now().getTime();
    const sinceLast = now - row.lastFailureAt.getTime();
    const hourStart = row.hourWindowStart?.getTime() ?? 0;
    if (now - hourStart < 3_600_000 && row.hourFailures >= UNLOCK_MAX_FAILURES_PER_HOUR)
      throw new AppError('too_many_attempts', 'unlock_code');
    if (
      sinceLast < UNLOCK_FORGET_SECONDS * 1000 &&
      row.consecutiveFailures >= UNLOCK_MAX_FAILURES &&
      sinceLast < UNLOCK_WAIT_SECONDS * 1000
    )
      throw new AppError('too_many_attempts', 'unlock_code');
  }
}
