import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpoints, type FlashbulbEvent, type PrintJob } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentOnce, type AgentOptions } from '../../src/cli/print-agent.ts';
import { startCups, type TestCups } from '../helpers/cups.ts';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The print agent against a real CUPS: the suite starts its own cupsd with two PDF
 * queues forming one pool. A sheet becomes a 4×6 PDF containing the photo; a disabled queue
 * (`cupsdisable`) is skipped and the sheet prints on the other; an agent that dies after CUPS
 * took the sheet leaves it to its lease, and the next round prints it once, not twice.
 */

let t: TestApp;
let cups: TestCups;
let admin: { authorization: string };
let event: FlashbulbEvent;
let stationKey: string;
let stateDir: string;
let seed = 0;

/** The agent's HTTP calls, through the app (the same routes `httpPost` reaches over HTTP). */
const post: AgentOptions['post'] = async (route, body) => {
  const response = await t.app.inject({ method: 'POST', url: `/api/v1${route}`, payload: body });
  const envelope = response.json<{ status: string; result?: unknown; error?: unknown }>();
  if (envelope.status !== 'ok') throw new Error(`${route}: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
};
const agent = (extra: Partial<AgentOptions> = {}): AgentOptions => ({
  post,
  key: stationKey,
  printers: ['booth1', 'booth2'],
  stateDir,
  cupsServer: cups.server,
  printTimeoutMs: 60_000,
  ...extra,
});

const jobById = async (id: number): Promise<PrintJob> =>
  (await t.ok(endpoints.printJobList, { event_id: event.id }, admin)).jobs.find(
    (j) => j.id === id,
  )!;

/** A ready photo of the event, a colour of its own. */
const readyPhoto = async () => {
  seed += 1;
  const bytes = await sharp({
    create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 40 + seed, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  const photo = await uploadPhoto(
    t,
    { authorization: admin.authorization },
    event.name,
    bytes,
    `a${seed}.jpg`,
  );
  await waitForReady(t, admin.authorization, event.id, photo.id);
  return photo;
};

/** Waits until a print job's sheet is rendered and waits for an agent (`sent`). */
const rendered = async (jobId: number) => {
  const deadline = Date.now() + 30_000;
  while ((await jobById(jobId)).state !== 'sent') {
    if (Date.now() > deadline) throw new Error('sheet not rendered');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Queues one photo and waits until its sheet is rendered and waits for an agent (`sent`). */
const queueSheet = async (): Promise<{ jobId: number; photoId: number }> => {
  const photo = await readyPhoto();
  const queued = await t.ok(
    endpoints.printWithQueue,
    { event_id: event.id, printable_photo_uid_array: [photo.uid], printer_pool_name: 'Booth-A' },
    admin,
  );
  const jobId = queued.print_job_ids[0]!;
  await rendered(jobId);
  return { jobId, photoId: photo.id };
};

const completedCount = async () =>
  (await cups.lp(['lpstat', '-W', 'completed', '-o'])).split('\n').filter(Boolean).length;

const pdfPage = async (queue: string) => {
  const pdf = await readFile(cups.outFile(queue), 'latin1');
  return {
    isPdf: pdf.startsWith('%PDF-'),
    mediaBox: /\/MediaBox\s*\[\s*([\d.\s]+)\]/.exec(pdf)?.[1]?.trim().split(/\s+/).map(Number),
    hasImage: /\/Subtype\s*\/Image/.test(pdf),
  };
};

beforeAll(async () => {
  cups = await startCups();
  await cups.addQueue('booth1');
  await cups.addQueue('booth2');
  stateDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-agent-'));
  t = await createTestApp();
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'CUPS Booth',
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Booth-A'],
    opts: { description: 'booth', storiesPrintPool: 'Booth-A' },
  });
  // the pool must be the event's
  const refused = await t.call(
    endpoints.printStationCreate,
    { event_id: event.id, printer_pool_name: 'Booth-Z', name: 'Nope' },
    admin,
  );
  expect(errorOf(refused)).toMatchObject({ message_key: 'printer_pool_name_invalid' });
  stationKey = (
    await t.ok(
      endpoints.printStationCreate,
      { event_id: event.id, printer_pool_name: 'Booth-A', name: 'Booth computer' },
      admin,
    )
  ).key;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await cups?.stop();
});

describe('print agent on CUPS', () => {
  it('prints a sheet as a 4×6 PDF containing the photo and marks it printed', async () => {
    const { jobId, photoId } = await queueSheet();
    const outcome = await runAgentOnce(agent());
    expect(outcome).toMatchObject({ kind: 'printed', jobId, printer: 'booth1' });
    const page = await pdfPage('booth1');
    expect(page.isPdf).toBe(true);
    // 4×6 inches in points, either orientation
    expect([...page.mediaBox!.slice(2)].sort()).toEqual([288, 432]);
    expect(page.hasImage).toBe(true);
    expect(await jobById(jobId)).toMatchObject({ state: 'printed', printer: 'booth1' });
    const row = (
      await t.database.executeSql('select printed, print_count from photos where id = $1', [
        photoId,
      ])
    ).rows[0];
    expect(row).toEqual({ printed: 1, print_count: 1 });
    const stations = await t.ok(endpoints.printStationList, { event_id: event.id }, admin);
    expect(stations.stations[0]?.printers.map((p) => [p.name, p.state])).toEqual([
      ['booth1', 'idle'],
      ['booth2', 'idle'],
    ]);
    // nothing more to print
    expect(await runAgentOnce(agent())).toEqual({ kind: 'idle' });
  });

  it('skips a disabled queue and prints on the other printer of the pool', async () => {
    await cups.lp(['cupsdisable', 'booth1']);
    const { jobId } = await queueSheet();
    const outcome = await runAgentOnce(agent());
    expect(outcome).toMatchObject({ kind: 'printed', jobId, printer: 'booth2' });
    expect((await pdfPage('booth2')).hasImage).toBe(true);
    const stations = await t.ok(endpoints.printStationList, { event_id: event.id }, admin);
    expect(stations.stations[0]?.printers.find((p) => p.name === 'booth1')?.state).toBe('stopped');
    await cups.lp(['cupsenable', 'booth1']);
  });

  it('an agent killed after CUPS took the sheet: the sheet prints once', async () => {
    const { jobId } = await queueSheet();
    const before = await completedCount();
    await expect(
      runAgentOnce(
        agent({
          afterSubmit: () => Promise.reject(new Error('killed')),
        }),
      ),
    ).rejects.toThrow('killed');
    expect((await jobById(jobId)).state).toBe('printing');
    // under lease: another round takes nothing
    expect(await runAgentOnce(agent())).toEqual({ kind: 'idle' });
    // the lease runs out; the restarted agent finds the sheet in its journal and only reports it
    t.clock.advance(61_000);
    const outcome = await runAgentOnce(agent());
    expect(outcome).toMatchObject({ kind: 'printed', jobId, resubmitted: false });
    expect(await completedCount()).toBe(before + 1);
    expect((await jobById(jobId)).state).toBe('printed');
  });

  it('renews its lease while a stopped printer holds the sheet, shows why, and prints it once when the printer is back', async () => {
    const { jobId } = await queueSheet();
    const before = await completedCount();
    const leaseUntil = async () =>
      new Date(
        (await t.database.executeSql('select lease_until from print_jobs where id = $1', [jobId]))
          .rows[0]!.lease_until as string,
      ).getTime();
    const waiting = runAgentOnce(
      agent({
        printers: ['booth1'],
        statusEveryMs: 100,
        renewEveryMs: 100,
        // The printer stops (paper out, jam…) just as CUPS takes the sheet.
        beforeSubmit: () => cups.lp(['cupsdisable', 'booth1']).then(() => undefined),
      }),
    );
    // The desk sees the trouble on the sheet and on the station's printer.
    await expect
      .poll(async () => (await jobById(jobId)).error, { timeout: 20_000 })
      .toBe('booth1: stopped');
    const stations = await t.ok(endpoints.printStationList, { event_id: event.id }, admin);
    expect(stations.stations[0]?.printers).toEqual([
      expect.objectContaining({ name: 'booth1', state: 'stopped' }),
    ]);
    // Time passes beyond the first lease; renewals keep it this agent's.
    const first = await leaseUntil();
    t.clock.advance(40_000);
    await expect.poll(leaseUntil, { timeout: 20_000 }).toBeGreaterThan(first + 30_000);
    t.clock.advance(40_000);
    // Another agent of the pool finds nothing to take: the sheet is not printed twice.
    expect(await runAgentOnce(agent({ printers: ['booth2'] }))).toEqual({ kind: 'idle' });
    await cups.lp(['cupsenable', 'booth1']);
    expect(await waiting).toMatchObject({ kind: 'printed', jobId, printer: 'booth1' });
    expect(await completedCount()).toBe(before + 1);
    expect(await jobById(jobId)).toMatchObject({ state: 'printed', printer: 'booth1' });
  });

  it('a printer that stops with the sheet in it: the sheet is taken back from CUPS and prints on the other printer', async () => {
    const { jobId } = await queueSheet();
    // `completed` lists cancelled CUPS jobs too: count per queue.
    const doneOn = async (queue: string) =>
      (await cups.lp(['lpstat', '-W', 'completed', '-o', queue])).split('\n').filter(Boolean)
        .length;
    const before = await doneOn('booth2');
    const outcome = await runAgentOnce(
      agent({
        statusEveryMs: 100,
        beforeSubmit: (_id, printer) => cups.lp(['cupsdisable', printer]).then(() => undefined),
      }),
    );
    expect(outcome).toEqual({
      kind: 'handed_back',
      jobId,
      reason: 'printer trouble (booth1: stopped)',
    });
    expect((await jobById(jobId)).state).toBe('sent');
    // booth1 holds no job of ours any more
    expect((await cups.lp(['lpstat', '-o', 'booth1'])).trim()).toBe('');
    expect(await runAgentOnce(agent())).toMatchObject({
      kind: 'printed',
      jobId,
      printer: 'booth2',
    });
    await cups.lp(['cupsenable', 'booth1']);
    expect(await doneOn('booth2')).toBe(before + 1);
    expect((await jobById(jobId)).state).toBe('printed');
  });

  it('a story (two photos on one sheet) on the stories pool prints through CUPS as one 4×6 PDF', async () => {
    const photos = [await readyPhoto(), await readyPhoto()];
    const queued = await t.ok(
      endpoints.printStory,
      { event_id: event.id, printable_photo_uid_array: photos.map((p) => p.uid) },
      admin,
    );
    // the event's storiesPrintPool
    expect(queued).toMatchObject({ printer_pool_name: 'Booth-A', sheet_count: 1 });
    const jobId = queued.print_job_ids[0]!;
    await rendered(jobId);
    const outcome = await runAgentOnce(agent());
    expect(outcome).toMatchObject({ kind: 'printed', jobId });
    const page = await pdfPage((outcome as { printer: string }).printer);
    expect([...page.mediaBox!.slice(2)].sort()).toEqual([288, 432]);
    expect(page.hasImage).toBe(true);
    expect(await jobById(jobId)).toMatchObject({
      state: 'printed',
      source: 'story',
      photo_uids: photos.map((p) => p.uid),
    });
  });

  it('a sheet cancelled by hand in CUPS is reported cancelled, not printed', async () => {
    const { jobId, photoId } = await queueSheet();
    const outcome = await runAgentOnce(
      agent({
        printers: ['booth1'],
        // The queue holds the sheet (stopped) while the operator cancels it with `cancel`.
        beforeSubmit: () => cups.lp(['cupsdisable', 'booth1']).then(() => undefined),
        afterSubmit: async () => {
          await cups.lp(['cancel', '-a', 'booth1']);
          await cups.lp(['cupsenable', 'booth1']);
        },
      }),
    );
    expect(outcome).toEqual({
      kind: 'not_printed',
      jobId,
      printer: 'booth1',
      cupsState: 'canceled',
    });
    expect(await jobById(jobId)).toMatchObject({
      state: 'cancelled',
      printer: 'booth1',
      error: 'cancelled in CUPS on booth1',
    });
    const row = (
      await t.database.executeSql('select printed, print_count from photos where id = $1', [
        photoId,
      ])
    ).rows[0];
    expect(row).toEqual({ printed: 0, print_count: 0 });
    // nothing left to print: the cancelled sheet is not handed to another printer
    expect(await runAgentOnce(agent())).toEqual({ kind: 'idle' });
  });

  it('refuses a revoked or unknown station key', async () => {
    const stations = await t.ok(endpoints.printStationList, { event_id: event.id }, admin);
    await t.ok(
      endpoints.printStationRevoke,
      { event_id: event.id, id: stations.stations[0]!.id },
      admin,
    );
    await expect(runAgentOnce(agent())).rejects.toThrow('invalid_key');
  });
});
