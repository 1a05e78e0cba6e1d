/* eslint-disable @typescript-eslint/require-await -- in-memory fakes answer at once */
/**
 * What a guest's screen may print at a paid event, on plain values and over in-memory fakes (no
 * app, no database): free events and "prints are free" print as they always did; otherwise only
 * photos a paid kiosk purchase bought, as many times as it bought them.
 */
import { describe, expect, it } from 'vitest';
import type { AccessControl } from '../../src/access/access-control.ts';
import type { Principal } from '../../src/access/principal.ts';
import { AppError } from '../../src/lib/app-error.ts';
import type { EventRecord } from '../../src/repositories/events/event.repository.ts';
import type { OrderRow } from '../../src/repositories/payments/payment.repository.ts';
import type {
  NewPrintJobRow,
  PrintJobRow,
} from '../../src/repositories/printing/print-job.repository.ts';
import {
  coveringPurchases,
  printPolicy,
  printsLeft,
  printsRemaining,
  type PrintPurchase,
} from '../../src/services/printing/print-allowance.ts';
import { PrintService } from '../../src/services/printing/print.service.ts';

const bought = (id: number, prints: string[], used = 0, more: Partial<PrintPurchase> = {}) => ({
  id,
  status: 'paid' as const,
  prints,
  printsUsed: used,
  printOnPayment: false,
  ...more,
});

describe('the print policy', () => {
  it('a free event, or a paid one marked prints free, prints without buying', () => {
    expect(printPolicy({ is_free: 1, opts: { printsFree: 0 } })).toBe('free');
    expect(printPolicy({ is_free: 0, opts: { printsFree: 1 } })).toBe('free');
    expect(printPolicy({ is_free: 0, opts: { printsFree: 0 } })).toBe('bought');
  });

  it('a kiosk purchase leaves what it bought minus what was printed; nothing else leaves any', () => {
    expect(printsLeft(bought(1, ['A', 'B']))).toBe(2);
    expect(printsLeft(bought(1, ['A', 'B'], 1))).toBe(1);
    expect(printsLeft(bought(1, ['A', 'B'], 2))).toBe(0);
    // Printed at once when paid (a phone purchase, or an order from before): nothing to spend.
    expect(printsLeft(bought(1, ['A'], 0, { printOnPayment: true }))).toBe(0);
    expect(printsLeft({ id: 1, status: 'paid', prints: ['A'], printsUsed: 0 })).toBe(0);
    // Not paid yet, or refunded.
    expect(printsLeft(bought(1, ['A'], 0, { status: 'open' }))).toBe(0);
    expect(printsLeft(bought(1, ['A'], 0, { status: 'refunded' }))).toBe(0);
    expect(printsRemaining([bought(1, ['A', 'B'], 1), bought(2, ['C'])])).toBe(2);
  });

  it('a print is covered by a purchase that bought every photo with enough prints left', () => {
    const orders = [bought(2, ['A', 'B', 'C'], 2), bought(1, ['A', 'B'])];
    expect(coveringPurchases(orders, ['A', 'B'], 1)).toEqual([1]);
    expect(coveringPurchases(orders, ['A'], 1)).toEqual([1, 2]);
    expect(coveringPurchases(orders, ['C'], 1)).toEqual([2]);
    // Two copies of two photos are four prints: more than any purchase left.
    expect(coveringPurchases(orders, ['A', 'B'], 2)).toEqual([]);
    // A photo never bought.
    expect(coveringPurchases(orders, ['D'], 1)).toEqual([]);
    expect(coveringPurchases([], ['A'], 1)).toEqual([]);
  });
});

const KIOSK: Principal = { kind: 'anonymous' };
const ATTENDEE = { row: { id: 41, organisationId: 3, uid: 'ANN1' } };

const eventRecord = (row: Record<string, unknown> = {}): EventRecord =>
  ({
    row: {
      id: 7,
      organisationId: 3,
      is_free: 0,
      is_photo_printer_active: 1,
      is_printer_pool_enabled: 0,
      printer_pool_name_list: null,
      max_print_photos_count: 5,
      max_print_copies_count: 3,
      place_holder_count: 1,
      photo_delay_minutes: null,
      opts: { storiesPrintPool: '', requiredTagsToGenerateStory: '', printsFree: 0 },
      ...row,
    },
    pptIds: [],
  }) as unknown as EventRecord;

const photo = (n: number) => ({
  id: 100 + n,
  uid: `P${n}`,
  status: 'ready',
  mediaType: 'image',
  printable: 1,
  isVisible: 1,
  tags: [],
  createdAt: new Date('2026-06-01T10:00:00Z'),
  availableAt: new Date('2026-06-01T10:00:00Z'),
});

/** A kiosk over fakes; `orders` are the attendee's paid orders, spent as the repository would. */
const kiosk = (event: EventRecord, orders: Partial<OrderRow>[]) => {
  const stored: NewPrintJobRow[] = [];
  const rows = orders.map((o) => ({ status: 'paid', printsUsed: 0, ...o }) as OrderRow);
  const service = new PrintService({
    access: {
      requireEventAccess: async () => ({ event, actor: null, keyType: null }),
      attendeeById: async (uid: string) => ({
        record: uid === 'ANN1' ? ATTENDEE : undefined,
        refusal: null,
      }),
    } as unknown as AccessControl,
    albums: {
      photosByUids: async (_e: number, uids: string[]) =>
        [1, 2, 3].map(photo).filter((p) => uids.includes(p.uid)),
    } as never,
    printJobs: {
      insertSheets: async (
        sheets: NewPrintJobRow[],
        _after: unknown,
        spend?: { orderIds: number[]; prints: number },
      ) => {
        if (spend) {
          const order = rows.find(
            (o) =>
              spend.orderIds.includes(o.id) && o.printsUsed + spend.prints <= o.items.prints.length,
          );
          if (!order) return { jobs: [], replayed: false, paid: false };
          order.printsUsed += spend.prints;
        }
        stored.push(...sheets);
        return {
          jobs: sheets.map((s, i) => ({ ...s, id: i + 1 }) as unknown as PrintJobRow),
          replayed: false,
          paid: true,
        };
      },
    } as never,
    templates: { findById: async () => undefined },
    purchases: { printPurchases: async () => rows },
    jobs: { send: async () => null } as never,
    clock: { now: () => new Date('2026-06-01T12:00:00Z') },
  });
  const print = (uids: string[], more: Record<string, unknown> = {}) =>
    service.keyPrint(KIOSK, {
      printable_photo_uid_array: uids,
      attUid: 'ANN1',
      ...more,
    });
  return { print, stored, rows };
};

const refusalOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { key: (error as AppError).key, field: (error as AppError).field };
};

const kioskOrder = (id: number, prints: string[]) => ({
  id,
  items: { digitals: [], prints, printsPool: null, printOnPayment: false },
});

describe('a kiosk print at a paid event (fakes)', () => {
  it('refuses a photo no paid order bought, and stores nothing', async () => {
    const k = kiosk(eventRecord(), [kioskOrder(1, ['P1'])]);
    expect(await refusalOf(k.print(['P2']))).toEqual({
      key: 'prints_not_paid',
      field: 'printable_photo_uid_array',
    });
    // Without an attendee nothing can have been bought.
    expect(await refusalOf(k.print(['P1'], { attUid: undefined }))).toMatchObject({
      key: 'prints_not_paid',
    });
    expect(await refusalOf(k.print(['P1'], { attUid: 'NOBODY' }))).toMatchObject({
      key: 'prints_not_paid',
    });
    expect(k.stored).toEqual([]);
  });

  it('prints what was bought, as many times as bought, then refuses', async () => {
    const k = kiosk(eventRecord(), [kioskOrder(1, ['P1', 'P2'])]);
    await k.print(['P1']);
    await k.print(['P2']);
    expect(k.stored).toHaveLength(2);
    expect(k.rows[0]!.printsUsed).toBe(2);
    expect(await refusalOf(k.print(['P1']))).toMatchObject({ key: 'prints_not_paid' });
    expect(k.stored).toHaveLength(2);
  });

  it('two copies spend two prints', async () => {
    const k = kiosk(eventRecord(), [kioskOrder(1, ['P1'])]);
    expect(await refusalOf(k.print(['P1'], { printing_count: 2 }))).toMatchObject({
      key: 'prints_not_paid',
    });
    await k.print(['P1']);
    expect(k.rows[0]!.printsUsed).toBe(1);
  });

  it('a phone purchase (printed when paid) leaves nothing for the kiosk to print', async () => {
    const k = kiosk(eventRecord(), [
      { id: 1, items: { digitals: [], prints: ['P1'], printsPool: null, printOnPayment: true } },
    ]);
    expect(await refusalOf(k.print(['P1']))).toMatchObject({ key: 'prints_not_paid' });
  });

  it('prints freely where prints are free, spending nothing', async () => {
    for (const event of [
      eventRecord({ is_free: 1 }),
      eventRecord({
        opts: { storiesPrintPool: '', requiredTagsToGenerateStory: '', printsFree: 1 },
      }),
    ]) {
      const k = kiosk(event, []);
      await k.print(['P1', 'P2']);
      expect(k.stored).toHaveLength(2);
    }
  });
});
