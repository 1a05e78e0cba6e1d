import { getEventListeners } from 'node:events';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSummary, runRobotUpload } from '../../src/cli/robot-upload.ts';
import {
  attendeeAlbumKey,
  createEvent,
  createEventWorld,
  type EventWorld,
} from '../helpers/events.ts';
import { cliInProcess } from '../helpers/cli.ts';
import { makeJpeg } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** `npm run cli -- <args>`, run in this process (the CLI's own test spawns it). */
const cli = (args: string[]) => cliInProcess(args, process.env);

let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let robotKey: string;
let server: string;
let folder: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const photoCount = async () =>
  (
    await t.ok(
      endpoints.photoCountInfo,
      { event_id: event.id },
      { authorization: world.adminA.authorization },
    )
  ).total;

beforeAll(async () => {
  const port = await freePort();
  server = `http://127.0.0.1:${port}`;
  t = await createTestApp({ FLASHBULB_PUBLIC_URL: server });
  await t.app.listen({ port, host: '127.0.0.1' });
  world = await createEventWorld(t);
  const robot = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth' },
    { authorization: world.adminA.authorization },
  );
  robotKey = robot.api_key;
  event = await createEvent(t, world.adminA, { robot_id_array: [robot.id] });
  folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-hot-folder-'));
  for (let i = 0; i < 5; i += 1)
    await writeFile(path.join(folder, `IMG_${i}.jpg`), await makeJpeg({ seed: 100 + i }));
  await writeFile(path.join(folder, 'notes.jpg'), 'not a photo');
  await writeFile(path.join(folder, 'readme.txt'), 'ignored: not a photo extension');
});
afterAll(async () => {
  await t.close();
  await rm(folder, { recursive: true, force: true });
});

const options = (extra: Partial<Parameters<typeof runRobotUpload>[0]> = {}) => ({
  server,
  eventName: event.name,
  robotKey,
  paths: [folder],
  watch: false,
  backoffMs: 10,
  settleMs: 50,
  log: () => undefined,
  ...extra,
});

describe('robot client', () => {
  it('uploads a folder through the public API and never sends a file twice', async () => {
    const first = await runRobotUpload(options());
    expect(first).toMatchObject({ uploaded: 5, skipped: 0, refused: 1, failed: 0 });
    // The summary says why a file was not sent.
    expect(first.notSent.map((n) => n.file)).toEqual(['notes.jpg']);
    expect(first.notSent[0]!.reason).toMatch(/^[a-z_]+$/);
    expect(first.stopped).toBeUndefined();
    // Each file's instant link came with its grant, before its bytes (a refused file's too).
    expect(first.links).toHaveLength(6);
    for (const link of first.links)
      expect(link.instant_url).toBe(
        `${t.config.publicUrl}/?instant=${event.name}-${link.instant_code}`,
      );
    expect(describeSummary(first)).toContain(`Not sent (${first.notSent[0]!.reason}): notes.jpg`);
    expect(await photoCount()).toBe(5);
    // Restart: the journal says everything was handled (the five photos: already sent).
    const again = await runRobotUpload(options());
    expect(again).toMatchObject({
      uploaded: 0,
      attached: 0,
      skipped: 5,
      refused: 0,
      failed: 0,
      notSent: [],
    });
    // …and says so: every photo of the folder was sent before (notes.jpg was refused, not sent).
    expect(describeSummary(again)).toBe('0 uploaded, 5 already sent.\n');
    // Even without its journal, the server recognises the same bytes: no duplicates.
    await unlink(path.join(folder, '.flashbulb-uploads.json'));
    await runRobotUpload(options());
    expect(await photoCount()).toBe(5);
  });

  it('retries transient failures with backoff', async () => {
    await writeFile(path.join(folder, 'flaky.jpg'), await makeJpeg({ seed: 200 }));
    let failures = 2;
    const lines: string[] = [];
    const flakyFetch: typeof fetch = async (input, init) => {
      // The key check before the run is not a file: the network fails under the uploads.
      const isWhoami = typeof input === 'string' && input.endsWith(endpoints.robotWhoami.path);
      if (failures > 0 && !isWhoami) {
        failures -= 1;
        throw new TypeError('fetch failed: connection reset');
      }
      return fetch(input, init);
    };
    const summary = await runRobotUpload(options({ fetch: flakyFetch, log: (l) => lines.push(l) }));
    expect(summary).toMatchObject({ uploaded: 1, failed: 0 });
    expect(lines.filter((l) => l.startsWith('retrying flaky.jpg'))).toHaveLength(2);
    // Its instant link is printed once its grant arrives, before the bytes.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^link flaky\.jpg: \S+\?instant=[A-Z0-9]+-[A-Z0-9]{6} \(code [A-Z0-9]{6}\)$/,
      ),
    );
    expect(await photoCount()).toBe(6);
  });

  it('watches the hot folder and uploads photos as they arrive', async () => {
    const controller = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const running = runRobotUpload(options({ watch: true, signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 300));
    await writeFile(path.join(folder, 'arrived.jpg'), await makeJpeg({ seed: 300 }));
    const deadline = Date.now() + 15_000;
    while ((await photoCount()) < 7 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    // However long it watches, the caller's signal carries one abort listener (waits add none).
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
    controller.abort();
    const summary = await running;
    process.off('warning', onWarning);
    expect(summary.uploaded).toBe(1);
    expect(await photoCount()).toBe(7);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('runs as `npm run cli -- upload`', async () => {
    await writeFile(path.join(folder, 'cli.jpg'), await makeJpeg({ seed: 400 }));
    // --json: a JSON line per instant link as it comes, then the summary; progress on stderr.
    const { stdout, stderr } = await cli([
      'upload',
      '--json',
      // No --event: the photos go to the event the key's robot feeds.
      '--key',
      robotKey,
      '--server',
      server,
      folder,
    ]);
    // Before sending, it says which robot the key is and which event the photos go to.
    expect(stderr).toContain(`robot "Booth" uploads to event ${event.name} (${event.full_name})`);
    expect(stderr).toContain('uploaded cli.jpg → photo');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'link', file: 'cli.jpg' });
    expect(String(lines[0]!.instant_url)).toMatch(/\?instant=[A-Z0-9]+-[A-Z0-9]{6}$/);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', uploaded: 1 });
    expect(await photoCount()).toBe(8);
    const otherJournal = path.join(folder, 'other.json');
    const wrongKey = await cli([
      'upload',
      '--event',
      event.name,
      '--key',
      'fbk_wrong',
      '--server',
      server,
      '--journal',
      otherJournal,
      folder,
    ]);
    // A wrong key stops the run at once, says why, and marks nothing as sent.
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toContain('Stopped: the server refused this run (invalid_key)');
    // A wrong key hears only that no robot has it: no event, no robot named.
    expect(wrongKey.stdout).toContain('This robot key is unknown: no robot has it.');
    expect(wrongKey.stdout).not.toContain(event.name);
    expect(wrongKey.stdout).not.toContain('uploaded ');
    const poisoned = await readFile(otherJournal, 'utf8').then(
      (text) => Object.keys(JSON.parse(text) as object),
      () => [],
    );
    expect(poisoned).toEqual([]);
    // A rerun with the right key and the same journal sends the files.
    const rerun = await runRobotUpload(options({ journalPath: otherJournal }));
    expect(rerun.stopped).toBeUndefined();
    const journal = JSON.parse(await readFile(otherJournal, 'utf8')) as Record<
      string,
      { photoId?: number }
    >;
    expect(journal[path.join(folder, 'IMG_0.jpg')]?.photoId).toEqual(expect.any(Number));
    expect(await photoCount()).toBe(8);
  }, 60_000);

  it('explains a right key whose robot is attached to no event (CLI), and stops', async () => {
    const loose = await t.ok(
      endpoints.createRobot,
      { organisation_id: world.orgA.id, name: 'Loose booth' },
      { authorization: world.adminA.authorization },
    );
    const journal = path.join(folder, 'loose.json');
    const result = await cli([
      'upload',
      '--event',
      event.name,
      '--key',
      loose.api_key,
      '--server',
      server,
      '--journal',
      journal,
      folder,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Stopped: the server refused this run (robot_not_attached)');
    // Which page and which field fix it.
    expect(result.stdout).toContain('This robot key is not attached to any event.');
    expect(result.stdout).toContain('In the console: Events → <event> → General → Robots');
    expect(result.stdout).not.toContain('uploaded IMG');
  }, 60_000);

  it('heals a journal where an older client marked files refused for a wrong key', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'flashbulb-poisoned-folder-'));
    try {
      const file = path.join(own, 'OLD_1.jpg');
      await writeFile(file, await makeJpeg({ seed: 700 }));
      await writeFile(
        path.join(own, '.flashbulb-uploads.json'),
        JSON.stringify({ [file]: { sha256: 'x', refused: 'invalid_key', at: '2026-01-01' } }),
      );
      const before = await photoCount();
      const summary = await runRobotUpload(options({ paths: [own] }));
      expect(summary).toMatchObject({ uploaded: 1, refused: 0 });
      expect(await photoCount()).toBe(before + 1);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('retries a proxy’s HTML 502 and a 503 envelope, and gives up on a 400 refusal at once', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'flashbulb-proxy-folder-'));
    try {
      await writeFile(path.join(own, 'PROXY_1.jpg'), await makeJpeg({ seed: 600 }));
      const before = await photoCount();
      const lines: string[] = [];
      // The completion call meets a proxy page first, then a busy server, then gets through.
      const replies = [
        () =>
          new Response('<html><body>Bad gateway</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
        () =>
          Response.json(
            {
              status: 'nok',
              error: { type: 'global', message_key: 'something_wrong', message: 'x' },
            },
            { status: 503 },
          ),
      ];
      const proxyFetch: typeof fetch = async (input, init) => {
        const isComplete =
          typeof input === 'string' && input.endsWith(endpoints.photoUploadComplete.path);
        const next = isComplete ? replies.shift() : undefined;
        return next ? next() : fetch(input, init);
      };
      const summary = await runRobotUpload(
        options({ paths: [own], fetch: proxyFetch, log: (l) => lines.push(l) }),
      );
      expect(summary).toMatchObject({ uploaded: 1, skipped: 0, refused: 0, failed: 0 });
      expect(lines.filter((l) => l.startsWith('retrying PROXY_1.jpg'))).toEqual([
        expect.stringContaining(
          `HTTP 502 without a JSON envelope (text/html: "<html><body>Bad gateway</body></html>")`,
        ),
        expect.stringMatching(/: something_wrong$/),
      ]);
      expect(await photoCount()).toBe(before + 1);

      // A run naming another event than the key's (NOPE) is refused at once: no retry, the run stops, and the
      // file is not marked, so the run with the right event sends it.
      await writeFile(path.join(own, 'PROXY_2.jpg'), await makeJpeg({ seed: 601 }));
      const refusedLines: string[] = [];
      const refused = await runRobotUpload(
        options({ paths: [own], eventName: 'NOPE', log: (l) => refusedLines.push(l) }),
      );
      expect(refused).toMatchObject({
        uploaded: 0,
        // Stopped before any file was looked at.
        skipped: 0,
        refused: 0,
        failed: 0,
        // The key is right: the booth hears that its robot feeds another event, and which.
        stopped: 'robot_other_event',
      });
      expect(describeSummary(refused)).toContain(
        `This robot key feeds event ${event.name}, not NOPE: run with --event ${event.name}`,
      );
      expect(refusedLines.some((l) => l.startsWith('retrying'))).toBe(false);
      expect(await photoCount()).toBe(before + 1);
      const fixed = await runRobotUpload(options({ paths: [own] }));
      expect(fixed).toMatchObject({ uploaded: 1, refused: 0 });
      expect(await photoCount()).toBe(before + 2);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('puts the photos of a run with an attendee id in that attendee’s album', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'flashbulb-attendee-folder-'));
    try {
      await writeFile(path.join(own, 'RIDE_1.jpg'), await makeJpeg({ seed: 500 }));
      const summary = await runRobotUpload(options({ paths: [own], attendeeUid: 'bib-7' }));
      expect(summary.uploaded).toBe(1);
      // A booth-chosen id: its album opens with the private id the upload gave it.
      const key = await attendeeAlbumKey(t, 'BIB7');
      const album = () =>
        t.ok(endpoints.publicPhotoList, {
          key_type: 'attendee',
          key_value: key,
          max_size: 10,
          page_number: 1,
        });
      // Listed once its derivatives are ready.
      await expect
        .poll(async () => (await album()).photos.map((p) => p.file_name), { timeout: 20_000 })
        .toEqual(['RIDE_1.jpg']);
      // The attendee's own album shows the guest view: no attendee id on the photo.
      expect((await album()).photos[0]).not.toHaveProperty('attendee_uid');
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('sends a group photo to every --attendee, and attaches it for an attendee named later', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'flashbulb-group-folder-'));
    try {
      await writeFile(path.join(own, 'GROUP_1.jpg'), await makeJpeg({ seed: 800 }));
      const { attendees } = await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 3, event_id_array: [event.id], is_prepaid: 0 },
        { authorization: world.adminA.authorization },
      );
      const [ann, bob, cy] = attendees as [
        (typeof attendees)[0],
        (typeof attendees)[0],
        (typeof attendees)[0],
      ];
      const album = async (uid: string) =>
        (
          await t.ok(endpoints.publicPhotoList, {
            key_type: 'attendee',
            key_value: uid,
            max_size: 10,
            page_number: 1,
          })
        ).photos.map((p) => p.file_name);
      const upload = (...attendeeArgs: string[]) =>
        cli([
          'upload',
          '--event',
          event.name,
          '--key',
          robotKey,
          '--server',
          server,
          ...attendeeArgs,
          own,
        ]);
      const before = await photoCount();

      // One upload for both: both albums list it.
      const group = await upload('--attendee', ann.display_uid, '--attendee', bob.display_uid);
      expect(group.stdout).toContain('1 uploaded, 0 already sent.');
      await expect
        .poll(async () => [await album(ann.uid), await album(bob.uid)], { timeout: 20_000 })
        .toEqual([['GROUP_1.jpg'], ['GROUP_1.jpg']]);

      // The same folder for Cy: the journal sent it for Ann and Bob only, so it goes again and
      // the server attaches the photo it has.
      const later = await upload('--attendee', cy.uid);
      expect(later.stdout).toContain('attached GROUP_1.jpg → photo');
      expect(later.stdout).toContain('0 uploaded, 1 attached, 0 already sent.');
      expect(await album(cy.uid)).toEqual(['GROUP_1.jpg']);
      expect(await album(ann.uid)).toEqual(['GROUP_1.jpg']);
      expect(await photoCount()).toBe(before + 1);

      // Cy again: already sent, nothing leaves the machine.
      const again = await runRobotUpload(options({ paths: [own], attendeeUids: [cy.uid] }));
      expect(again).toMatchObject({ uploaded: 0, attached: 0, skipped: 1 });
      expect(describeSummary(again)).toContain('0 uploaded, 1 already sent.');

      // Without its journal, the server says what it already has.
      await unlink(path.join(own, '.flashbulb-uploads.json'));
      const fresh = await runRobotUpload(
        options({ paths: [own], attendeeUids: [ann.uid, cy.uid] }),
      );
      expect(fresh).toMatchObject({ uploaded: 0, attached: 0, skipped: 1 });

      // A bad id among them: the run stops with the server's key and attaches nothing.
      await writeFile(path.join(own, 'GROUP_2.jpg'), await makeJpeg({ seed: 801 }));
      const bad = await runRobotUpload(
        options({ paths: [own], attendeeUids: [ann.uid, 'no/such id'] }),
      );
      expect(bad.stopped).toBe('invalid_attendee_id');
      expect(await album(ann.uid)).toEqual(['GROUP_1.jpg']);
      expect(await photoCount()).toBe(before + 1);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 90_000);
});
