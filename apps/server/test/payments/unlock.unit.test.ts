/* eslint-disable @typescript-eslint/require-await -- in-memory fakes answer at once */
/**
 * The unlock rules with in-memory fakes (no app, no database): which desk codes unlock which
 * album, the refusals for attendees of other events, locked or expired ones, wrong codes and the
 * wait after a run of them, and the print limits of unlock-and-print.
 */
import { describe, expect, it } from 'vitest';
import { attendeePriceType } from '../../src/access/payments-rules.ts';
import type { AccessControl } from '../../src/access/access-control.ts';
import type { AttendeeRefusal, Principal } from '../../src/access/principal.ts';
import { AppError } from '../../src/lib/app-error.ts';
import type { AttendeeRecord } from '../../src/repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../src/repositories/events/event.repository.ts';
import type { ThrottleRow } from '../../src/repositories/identity/throttle.repository.ts';
import {
  UNLOCK_MAX_FAILURES,
  UNLOCK_WAIT_SECONDS,
  UnlockService,
  type AttendeeUnlocked,
} from '../../src/services/payments/unlock.service.ts';

const KIOSK: Principal = { kind: 'anonymous' };
const ADDRESS = { address: '10.0.0.1' };

const eventRecord = (id: number, row: Record<string, unknown> = {}): EventRecord =>
  ({
    row: {
      id,
      organisationId: 1,
      secret_code_list: 'Ann_Lee_AB12,Bob_Ray_ZZ99',
      max_print_photos_count: 3,
      max_print_copies_count: 2,
      opts: { attendeeIdVipRegex: '' },
      ...row,
    },
    pptIds: [],
  }) as unknown as EventRecord;

const attendee = (id: number, eventIds: number[], uid = `ATT${id}`): AttendeeRecord =>
  ({
    row: { id, uid, organisationId: 1, lockedAt: null, expiresAt: null },
    eventIds,
  }) as unknown as AttendeeRecord;

/** The service over fakes: one event (7), its attendees by uid, photos the attendee owns. */
const setup = (
  options: {
    attendees?: Record<string, AttendeeRecord>;
    refusals?: Record<string, AttendeeRefusal>;
    event?: EventRecord;
    owned?: string[];
  } = {},
) => {
  let now = new Date('2026-06-01T12:00:00Z');
  const event = options.event ?? eventRecord(7);
  const attendees = options.attendees ?? { ATT1: attendee(1, [7]) };
  const unlocked: AttendeeUnlocked[] = [];
  const notices: AttendeeUnlocked[] = [];
  const throttle = new Map<string, ThrottleRow>();
  const requests: { id: number; attendeeId: number; photoUids: string[]; copies: number }[] = [];
  const owned = new Set(options.owned ?? ['P1', 'P2', 'P3', 'P4']);
  const access = {
    requireEventAccess: async () => ({ event, actor: null, keyType: 'private' }),
    attendeeById: async (raw: string) => ({
      record: options.refusals?.[raw] ? undefined : attendees[raw],
      refusal: options.refusals?.[raw] ?? (attendees[raw] ? null : 'invalid_attendee_id'),
    }),
    attendeeByUid: async (raw: string) => ({ record: attendees[raw], refusal: null }),
  } as unknown as AccessControl;
  const service = new UnlockService({
    access,
    unlocks: {
      unlock: async (input: AttendeeUnlocked) => {
        const seen = unlocked.some(
          (u) =>
            u.attendeeId === input.attendeeId &&
            u.eventId === input.eventId &&
            u.scope === input.scope,
        );
        if (!seen) unlocked.push(input);
        return { created: !seen };
      },
      deleteForPayment: async () => 0,
    } as never,
    throttle: {
      get: async (key: string) => throttle.get(key),
      recordFailure: async (key: string, at: Date, forgetSeconds: number) => {
        const row = throttle.get(key);
        const forgotten =
          !row?.lastFailureAt || at.getTime() - row.lastFailureAt.getTime() >= forgetSeconds * 1000;
        throttle.set(key, {
          username: key,
          consecutiveFailures: forgotten ? 1 : row.consecutiveFailures + 1,
          lastFailureAt: at,
          hourWindowStart: row?.hourWindowStart ?? at,
          hourFailures: (row?.hourFailures ?? 0) + 1,
        });
      },
      recordSuccess: async (key: string) => {
        const row = throttle.get(key);
        if (row) throttle.set(key, { ...row, consecutiveFailures: 0 });
      },
    } as never,
    attendees: {
      ownsPhoto: async (_record: AttendeeRecord, photo: { uid: string }) => owned.has(photo.uid),
    } as never,
    albums: {
      photosByUids: async (_eventId: number, uids: string[]) =>
        uids.filter((uid) => /^P\d$/.test(uid)).map((uid) => ({ uid })),
    } as never,
    printRequests: {
      findByClientRequestId: async () => undefined,
      insert: async (row: { attendeeId: number; photoUids: string[]; copies: number }) => {
        const stored = { ...row, id: requests.length + 1 };
        requests.push(stored);
        return stored;
      },
      insertOnce: async () => {
        throw new Error('not used');
      },
    } as never,
    clock: { now: () => now },
    notices: { attendeeUnlocked: async (e: AttendeeUnlocked) => void notices.push(e) },
  });
  return {
    service,
    unlocked,
    notices,
    requests,
    later: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
};

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const { key, field } = error as AppError;
  return { key, field };
};

describe('unlock by desk code (fakes)', () => {
  it('a code of the event’s list unlocks the whole album, named after its employee, once', async () => {
    const { service, unlocked, notices } = setup();
    const answer = await service.unlockByCode(
      KIOSK,
      { attendee_uid: 'ATT1', unlock_code: ' ab12 ' },
      ADDRESS,
    );
    expect(answer).toEqual({ attendee_uid: 'ATT1', event_id: 7, unlocked: 1 });
    expect(unlocked).toEqual([
      expect.objectContaining({
        attendeeId: 1,
        eventId: 7,
        scope: '*',
        source: 'employee_code',
        employeeName: 'Ann Lee',
      }),
    ]);
    await service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: 'ZZ99' }, ADDRESS);
    // The first unlock stands; the second is no new fact.
    expect(unlocked).toHaveLength(1);
    expect(notices).toHaveLength(1);
  });

  it('a code not in the list changes nothing', async () => {
    const { service, unlocked } = setup();
    expect(
      await refusal(
        service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: 'AB13' }, ADDRESS),
      ),
    ).toEqual({ key: 'invalid_unlock_code', field: 'unlock_code' });
    expect(unlocked).toEqual([]);
  });

  it('an event without codes unlocks nothing, whatever is typed', async () => {
    const { service, unlocked } = setup({ event: eventRecord(7, { secret_code_list: '' }) });
    expect(
      (
        await refusal(
          service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: '' }, ADDRESS),
        )
      ).key,
    ).toBe('invalid_unlock_code');
    expect(unlocked).toEqual([]);
  });

  it('refuses an attendee of another event, and a locked or expired one, before the code', async () => {
    const { service, unlocked } = setup({
      attendees: { OTHER: attendee(2, [8]), ATT1: attendee(1, [7]) },
      refusals: { OLD: 'attendee_expired', SHUT: 'attendee_locked' },
    });
    const code = { unlock_code: 'AB12' };
    expect(
      await refusal(service.unlockByCode(KIOSK, { attendee_uid: 'OTHER', ...code }, ADDRESS)),
    ).toEqual({ key: 'invalid_attendee_id', field: 'attendee_uid' });
    expect(
      (await refusal(service.unlockByCode(KIOSK, { attendee_uid: 'OLD', ...code }, ADDRESS))).key,
    ).toBe('attendee_expired');
    expect(
      (await refusal(service.unlockByCode(KIOSK, { attendee_uid: 'SHUT', ...code }, ADDRESS))).key,
    ).toBe('attendee_locked');
    expect(unlocked).toEqual([]);
  });

  it('after a run of wrong codes the kiosk waits, even with a right one; then it works', async () => {
    const { service, unlocked, later } = setup();
    for (let i = 0; i < UNLOCK_MAX_FAILURES; i++)
      await refusal(
        service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: 'NOPE' }, ADDRESS),
      );
    expect(
      (
        await refusal(
          service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: 'AB12' }, ADDRESS),
        )
      ).key,
    ).toBe('too_many_attempts');
    // Another kiosk (address) is not held up by this one.
    await service.unlockByCode(
      KIOSK,
      { attendee_uid: 'ATT1', unlock_code: 'AB12' },
      {
        address: '10.0.0.2',
      },
    );
    expect(unlocked).toHaveLength(1);
    later(UNLOCK_WAIT_SECONDS);
    await service.unlockByCode(KIOSK, { attendee_uid: 'ATT1', unlock_code: 'AB12' }, ADDRESS);
  });
});

describe('unlock and print by desk code: the event’s print limits (fakes)', () => {
  const print = (photo_uid_array: string[], printing_count?: number) => ({
    attendee_uid: 'ATT1',
    unlock_code: 'AB12',
    photo_uid_array,
    ...(printing_count === undefined ? {} : { printing_count }),
  });

  it('stores one print request of the attendee’s own photos, with its copies', async () => {
    const { service, requests, unlocked } = setup();
    const answer = await service.unlockAndPrintByCode(KIOSK, print(['P1', 'P2', 'P1'], 2), ADDRESS);
    expect(answer).toMatchObject({ unlocked: 1, photo_count: 2, print_request_id: 1 });
    expect(requests).toEqual([expect.objectContaining({ photoUids: ['P1', 'P2'], copies: 2 })]);
    expect(unlocked).toHaveLength(1);
  });

  it('refuses more photos or copies than the event allows, and photos not the attendee’s', async () => {
    const { service, requests, unlocked } = setup({ owned: ['P1', 'P2', 'P3', 'P4'] });
    expect(
      await refusal(service.unlockAndPrintByCode(KIOSK, print(['P1', 'P2', 'P3', 'P4']), ADDRESS)),
    ).toEqual({ key: 'per_request_count_error', field: 'photo_uid_array' });
    expect(await refusal(service.unlockAndPrintByCode(KIOSK, print(['P1'], 3), ADDRESS))).toEqual({
      key: 'photos_copy_count_error',
      field: 'printing_count',
    });
    const strangers = setup({ owned: ['P1'] });
    expect(
      await refusal(strangers.service.unlockAndPrintByCode(KIOSK, print(['P1', 'P2']), ADDRESS)),
    ).toEqual({ key: 'not_found', field: 'photo_uid_array' });
    expect(
      await refusal(
        service.unlockAndPrintByCode(
          KIOSK,
          { ...print(['P1']), client_request_id: 'order:12' },
          ADDRESS,
        ),
      ),
    ).toEqual({ key: 'invalid_value', field: 'client_request_id' });
    expect([...requests, ...strangers.requests]).toEqual([]);
    expect([...unlocked, ...strangers.unlocked]).toEqual([]);
  });
});

describe('the attendee’s price type (VIP pattern)', () => {
  it('is VIP (2) when the uid matches the event’s VIP pattern, else 1', () => {
    const event = eventRecord(7, { opts: { attendeeIdVipRegex: '^VIP' } });
    expect(attendeePriceType(attendee(1, [7], 'VIP123'), event)).toBe(2);
    expect(attendeePriceType(attendee(2, [7], 'ABC123'), event)).toBe(1);
    expect(attendeePriceType(attendee(3, [7], 'VIP123'), eventRecord(7))).toBe(1);
  });

  it('runs a catastrophic pattern in linear time (prices and checkout run it on every call)', () => {
    const event = eventRecord(7, { opts: { attendeeIdVipRegex: '^(A+)+C$' } });
    const started = Date.now();
    // 32 characters: JavaScript's backtracking engine needs minutes for this one test.
    expect(attendeePriceType(attendee(4, [7], 'A'.repeat(32)), event)).toBe(1);
    expect(attendeePriceType(attendee(5, [7], `${'A'.repeat(31)}C`), event)).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
