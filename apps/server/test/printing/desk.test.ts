import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { endpoints, type FlashbulbEvent, type PrintJob } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The console print desk: pools paused and resumed (a paused pool's sheets wait in
 * the queue), cancel before printing, reprint with a logged reason, sheets printed per printer,
 * thumbnails of each sheet's photos.
 */

let t: TestApp;
let w: EventWorld;
let admin: { authorization: string };
let desk: FlashbulbEvent;

let seed = 0;
const readyPhoto = async () => {
  seed += 1;
  const bytes = await sharp({
    create: { width: 600, height: 400, channels: 3, background: { r: 40 * seed, g: 90, b: 120 } },
  })
    .withExif({ IFD0: { ImageDescription: `desk ${seed}` } })
    .jpeg()
    .toBuffer();
  const photo = await uploadPhoto(t, admin, desk.name, bytes, `d${seed}.jpg`);
  return waitForReady(t, admin.authorization, desk.id, photo.id);
};

const list = () => t.ok(endpoints.printJobList, { event_id: desk.id }, admin);
const jobById = async (id: number): Promise<PrintJob> =>
  (await list()).jobs.find((j) => j.id === id)!;
const waitForState = async (id: number, state: PrintJob['state']): Promise<PrintJob> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = await jobById(id);
    if (job.state === state) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is ${job.state}, not ${state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const printCount = async (photoId: number) =>
  Number(
    (await t.database.executeSql('select print_count from photos where id = $1', [photoId]))
      .rows[0]!.print_count,
  );

beforeAll(async () => {
  t = await createTestApp();
  w = await createEventWorld(t);
  admin = await apiKeyAuth(t, w.adminA);
  desk = await createEvent(t, w.adminA, {
    full_name: 'Print Desk',
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Front', 'Back'],
    max_print_copies_count: 3,
  });
});
afterAll(async () => {
  await t.close();
});

describe('print desk', () => {
  it('a paused pool keeps its sheets queued; cancel works before printing; resume prints the rest', async () => {
    const [a, b] = [await readyPhoto(), await readyPhoto()];
    const paused = await t.ok(
      endpoints.printPoolPause,
      { event_id: desk.id, printer_pool_name: 'Back', paused: 1 },
      admin,
    );
    expect(paused).toEqual({ printer_pool_name: 'Back', paused: 1 });
    expect((await list()).pools).toEqual([
      { name: 'Front', paused: 0 },
      { name: 'Back', paused: 1 },
      { name: 'Default', paused: 0 },
    ]);
    const first = await t.ok(
      endpoints.printWithQueue,
      { event_id: desk.id, printable_photo_uid_array: [a.uid], printer_pool_name: 'Back' },
      admin,
    );
    const second = await t.ok(
      endpoints.printWithQueue,
      { event_id: desk.id, printable_photo_uid_array: [b.uid], printer_pool_name: 'Back' },
      admin,
    );
    const [firstId, secondId] = [first.print_job_ids[0]!, second.print_job_ids[0]!];
    // the render job leaves a paused pool's sheet queued (run here directly: deterministic)
    expect(await t.app.container.services.printSheets.renderAndPrint(firstId)).toEqual({
      status: 'paused',
    });
    expect((await jobById(firstId)).state).toBe('queued');
    const queuedJob = await jobById(firstId);
    expect(queuedJob.photo_thumbnails).toHaveLength(1);
    expect(queuedJob.photo_thumbnails[0]).toMatch(/thumbnail\.jpg$/);

    const cancelled = await t.ok(
      endpoints.printJobCancel,
      { event_id: desk.id, print_job_id: secondId },
      admin,
    );
    expect(cancelled).toMatchObject({ id: secondId, state: 'cancelled' });

    await t.ok(
      endpoints.printPoolPause,
      { event_id: desk.id, printer_pool_name: 'Back', paused: 0 },
      admin,
    );
    const printed = await waitForState(firstId, 'printed');
    expect(printed.printer).toBe('file:Back');
    expect((await jobById(secondId)).state).toBe('cancelled');
    const files = await readdir(path.join(t.config.dataDir, 'prints', 'Back'));
    expect(files).toEqual([`job-${firstId}-1.jpg`]);

    // a printed sheet cannot be cancelled; an unknown job is not found
    const late = await t.call(
      endpoints.printJobCancel,
      { event_id: desk.id, print_job_id: firstId },
      admin,
    );
    expect(errorOf(late)).toMatchObject({ status: 409, message_key: 'print_job_not_cancellable' });
    const unknown = await t.call(
      endpoints.printJobCancel,
      { event_id: desk.id, print_job_id: 999_999 },
      admin,
    );
    expect(errorOf(unknown)).toMatchObject({ status: 404, message_key: 'not_found' });
    // a pool the event does not have
    const stranger = await t.call(
      endpoints.printPoolPause,
      { event_id: desk.id, printer_pool_name: 'Side', paused: 1 },
      admin,
    );
    expect(errorOf(stranger)).toMatchObject({ message_key: 'printer_pool_name_invalid' });
    expect((await list()).pools.every((p) => p.paused === 0)).toBe(true);
  });

  it('reprints a finished sheet as a new job with its reason; counts sheets per printer', async () => {
    const photo = await readyPhoto();
    const queued = await t.ok(
      endpoints.printWithQueue,
      {
        event_id: desk.id,
        printable_photo_uid_array: [photo.uid],
        printer_pool_name: 'Front',
        printing_count: 2,
      },
      admin,
    );
    const original = await waitForState(queued.print_job_ids[0]!, 'printed');
    expect(await printCount(photo.id)).toBe(2);
    const before = (await list()).jobs.length;

    const refusals: [Record<string, unknown>, string, number][] = [
      [{ reason: '   ' }, 'reprint_reason_required', 400],
      [{ reason: 'smudged', printing_count: 4 }, 'photos_copy_count_error', 400],
      [{ reason: 'smudged', print_job_id: 999_999 }, 'not_found', 404],
    ];
    for (const [patch, key, status] of refusals) {
      const response = await t.call(
        endpoints.printJobReprint,
        { event_id: desk.id, print_job_id: original.id, ...patch },
        admin,
      );
      expect(errorOf(response), key).toMatchObject({ status, message_key: key });
    }
    expect((await list()).jobs.length).toBe(before);

    const again = await t.ok(
      endpoints.printJobReprint,
      { event_id: desk.id, print_job_id: original.id, reason: 'Paper jammed, smudged' },
      admin,
    );
    expect(again).toMatchObject({
      source: 'reprint',
      reprint_reason: 'Paper jammed, smudged',
      copies: 2,
      printer_pool_name: 'Front',
      photo_uids: [photo.uid],
    });
    expect(again.id).not.toBe(original.id);
    await waitForState(again.id, 'printed');
    expect(await printCount(photo.id)).toBe(4);
    // a sheet still in the queue is not reprinted
    await t.ok(
      endpoints.printPoolPause,
      { event_id: desk.id, printer_pool_name: 'Front', paused: 1 },
      admin,
    );
    const waiting = await t.ok(
      endpoints.printWithQueue,
      { event_id: desk.id, printable_photo_uid_array: [photo.uid], printer_pool_name: 'Front' },
      admin,
    );
    const early = await t.call(
      endpoints.printJobReprint,
      { event_id: desk.id, print_job_id: waiting.print_job_ids[0]!, reason: 'again' },
      admin,
    );
    expect(errorOf(early)).toMatchObject({ status: 409, message_key: 'print_job_not_reprintable' });
    await t.ok(
      endpoints.printPoolPause,
      { event_id: desk.id, printer_pool_name: 'Front', paused: 0 },
      admin,
    );
    await waitForState(waiting.print_job_ids[0]!, 'printed');

    const perPrinter = (await list()).printed_per_printer;
    // Back: 1 sheet (first test); Front: 2 + 2 + 1 copies
    expect(perPrinter).toEqual([
      { printer: 'file:Back', sheets: 1 },
      { printer: 'file:Front', sheets: 5 },
    ]);
  });
});
