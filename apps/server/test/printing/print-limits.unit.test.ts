/* eslint-disable @typescript-eslint/require-await -- in-memory fakes answer at once */
/**
 * The print call's limits with in-memory fakes (no app, no database): printing on, the event's
 * pools, photos and copies per request, whole sheets of the placeholder count, printable photos;
 * and what a valid call queues (sheets, copies, one render job each, once per request id).
 */
import { describe, expect, it } from 'vitest';
import type { AccessControl } from '../../src/access/access-control.ts';
import type { Principal } from '../../src/access/principal.ts';
import { AppError } from '../../src/lib/app-error.ts';
import type { EventRecord } from '../../src/repositories/events/event.repository.ts';
import type {
  NewPrintJobRow,
  PrintJobRow,
} from '../../src/repositories/printing/print-job.repository.ts';
import { PrintService } from '../../src/services/printing/print.service.ts';

const OWNER: Principal = { kind: 'anonymous' };

const eventRecord = (row: Record<string, unknown> = {}): EventRecord =>
  ({
    row: {
      id: 7,
      is_photo_printer_active: 1,
      is_printer_pool_enabled: 1,
      printer_pool_name_list: ['Booth'],
      max_print_photos_count: 4,
      max_print_copies_count: 3,
      place_holder_count: 2,
      opts: { storiesPrintPool: '', requiredTagsToGenerateStory: '' },
      ...row,
    },
    pptIds: [],
  }) as unknown as EventRecord;

const photo = (n: number, row: Record<string, unknown> = {}) => ({
  id: 100 + n,
  uid: `P${n}`,
  status: 'ready',
  mediaType: 'image',
  printable: 1,
  tags: [],
  ...row,
});

const setup = (event = eventRecord(), photos = [1, 2, 3, 4, 5].map((n) => photo(n))) => {
  const stored: NewPrintJobRow[] = [];
  const sent: { name: string; data: unknown }[] = [];
  const keys = new Set<string>();
  const service = new PrintService({
    access: {
      requireEventAccess: async () => ({ event, actor: null, keyType: null }),
    } as unknown as AccessControl,
    albums: {
      photosByUids: async (_eventId: number, uids: string[]) =>
        photos.filter((p) => uids.includes(p.uid)),
    } as never,
    printJobs: {
      insertSheets: async (sheets: NewPrintJobRow[]) => {
        const key = sheets[0]?.requestKey;
        const replayed = key !== null && key !== undefined && keys.has(key);
        if (key) keys.add(key);
        if (!replayed) stored.push(...sheets);
        const jobs = sheets.map((s, i) => ({ ...s, id: i + 1 }) as unknown as PrintJobRow);
        return { jobs, replayed, paid: true };
      },
    } as never,
    templates: { findById: async () => undefined },
    purchases: { printPurchases: async () => [] },
    jobs: {
      send: async (name: string, data: unknown) => {
        sent.push({ name, data });
        return null;
      },
    } as never,
    clock: { now: () => new Date('2026-06-01T12:00:00Z') },
  });
  return { service, stored, sent };
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

const print = (uids: string[], more: Record<string, unknown> = {}) => ({
  event_id: 7,
  printable_photo_uid_array: uids,
  ...more,
});

describe('print limits (fakes)', () => {
  it('queues whole sheets of the placeholder count with their copies, one render job each', async () => {
    const { service, stored, sent } = setup();
    const answer = await service.ownerPrint(
      OWNER,
      print(['P1', 'P2', 'P3', 'P4'], { printing_count: 3, client_request_id: 'r1' }),
    );
    expect(answer).toMatchObject({ event_id: 7, printer_pool_name: 'Booth', sheet_count: 2 });
    expect(stored.map((s) => [s.photoIds, s.copies, s.sheetIndex, s.pool])).toEqual([
      [[101, 102], 3, 0, 'Booth'],
      [[103, 104], 3, 1, 'Booth'],
    ]);
    expect(sent.map((s) => s.name)).toEqual(['print.render', 'print.render']);
    // The same request id again: the stored sheets answer, nothing more is queued.
    const again = await service.ownerPrint(
      OWNER,
      print(['P1', 'P2', 'P3', 'P4'], { printing_count: 3, client_request_id: 'r1' }),
    );
    expect(again.replayed).toBe(1);
    expect(stored).toHaveLength(2);
    expect(sent).toHaveLength(2);
  });

  it('refuses each limit with its key and stores nothing', async () => {
    const cases: [ReturnType<typeof setup>, Record<string, unknown>, string, string | null][] = [
      [
        setup(eventRecord({ is_photo_printer_active: 0 })),
        print(['P1', 'P2']),
        'printing_not_active',
        null,
      ],
      [
        setup(),
        print(['P1', 'P2'], { printer_pool_name: 'Elsewhere' }),
        'printer_pool_name_invalid',
        'printer_pool_name',
      ],
      [
        setup(),
        print(['P1', 'P2', 'P3', 'P4', 'P5', 'P1']),
        'per_request_count_error',
        'printable_photo_uid_array',
      ],
      [
        setup(),
        print(['P1', 'P2'], { printing_count: 4 }),
        'photos_copy_count_error',
        'printing_count',
      ],
      [
        setup(),
        print(['P1', 'P2', 'P3']),
        'print_count_placeholder_error',
        'printable_photo_uid_array',
      ],
      [setup(), print(['P1', 'P9']), 'not_found', 'printable_photo_uid_array'],
      [
        setup(eventRecord(), [photo(1), photo(2, { status: 'processing' })]),
        print(['P1', 'P2']),
        'photo_not_printable',
        'printable_photo_uid_array',
      ],
      [
        setup(eventRecord(), [photo(1), photo(2, { mediaType: 'video' })]),
        print(['P1', 'P2']),
        'photo_not_printable',
        'printable_photo_uid_array',
      ],
      [
        setup(eventRecord(), [photo(1), photo(2, { printable: 0 })]),
        print(['P1', 'P2']),
        'photo_not_printable',
        'printable_photo_uid_array',
      ],
    ];
    for (const [{ service, stored, sent }, input, key, field] of cases) {
      expect(
        await refusal(service.ownerPrint(OWNER, input as Parameters<typeof service.ownerPrint>[1])),
      ).toEqual({ key, field: field ?? undefined });
      expect(stored).toEqual([]);
      expect(sent).toEqual([]);
    }
  });

  it('prints on the Default pool when pools are off, and at most the copies allowed', async () => {
    const { service, stored } = setup(eventRecord({ is_printer_pool_enabled: 0 }));
    await service.ownerPrint(OWNER, print(['P1', 'P2'], { printing_count: 3 }));
    expect(stored.map((s) => [s.pool, s.copies])).toEqual([['Default', 3]]);
    expect(
      (
        await refusal(
          service.ownerPrint(OWNER, print(['P1', 'P2'], { printer_pool_name: 'Booth' })),
        )
      ).key,
    ).toBe('printer_pool_name_invalid');
  });
});
