import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createContractClient,
  endpoints,
  extensionOf,
  isPhotoFileName,
  isContractError,
  MEDIA_CONTENT_TYPES,
  normaliseAttendeeId,
  type BodyOf,
  type Endpoint,
  type ResultOf,
} from '@flashbulb/shared';

/**
 * The robot client: uploads photos exactly as a robot would, through the public API with its
 * robot key (grant → storage POST → completion). A journal next to the photos remembers what was
 * sent, so a restart never sends a file twice; transient failures are retried with backoff.
 */
export interface RobotUploadOptions {
  server: string;
  /** The event's code; omitted, the event the robot feeds (the server says which). */
  eventName?: string;
  robotKey: string;
  /** Attendee id every photo of this run belongs to (wristband, badge or card). */
  attendeeUid?: string;
  /**
   * Attendees every photo of this run belongs to (a group photo: each of their albums gets it);
   * with `attendeeUid`, that one first.
   */
  attendeeUids?: string[];
  /** Files and folders; folders are scanned (not recursively). */
  paths: string[];
  watch: boolean;
  /** Journal file; default `.flashbulb-uploads.json` in the first folder (or beside the first file). */
  journalPath?: string;
  concurrency?: number;
  maxAttempts?: number;
  /** Backoff base in ms (1 s in use; tests shorten it). */
  backoffMs?: number;
  /** How long a file's size must stay the same before it is sent (a camera may still be writing). */
  settleMs?: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /**
   * Each file's instant link, as soon as its grant arrives and before its bytes are sent (a booth
   * shows the QR code while the photo uploads). Default: a `link` line in the log.
   */
  onLink?: (link: InstantLinkOut) => void;
  signal?: AbortSignal;
}

/** A file's instant link: its photo's guest page and short code, usable before the upload ends. */
export interface InstantLinkOut {
  file: string;
  instant_url: string;
  instant_code: string;
}

interface JournalEntry {
  sha256: string;
  /** The photo's guest page (instant link) and its short code, from the grant. */
  instantUrl?: string;
  instantCode?: string;
  photoId?: number;
  uid?: string;
  refused?: string;
  /** The attendees (normalised ids) the file was sent for; a run naming others sends it again. */
  attendees?: string[];
  at: string;
}
type Journal = Record<string, JournalEntry>;

export interface RobotUploadSummary {
  /** New photos. */
  uploaded: number;
  /** Files the event already had as a photo, now added to the albums of this run's attendees. */
  attached: number;
  /** Files already sent (for this run's attendees), by this journal or by the server's record. */
  skipped: number;
  refused: number;
  failed: number;
  /** Why each file of this run was not sent (refused or given up), by file name. */
  notSent: { file: string; reason: string }[];
  /** The instant link of each file this run asked a grant for (the last grant's, after retries). */
  links: InstantLinkOut[];
  /**
   * Set when the server refused the run itself (wrong robot key, unknown event, bad attendee id):
   * the run stopped at once and nothing was written to the journal, so a rerun with the right
   * key or event sends every file.
   */
  stopped?: string;
  /** When the run was stopped: what the operator does about it, in words. */
  advice?: string;
  /** The robot and event the server named for the key before the run (an older server: none). */
  robot?: { name: string; eventName: string; eventFullName: string };
}

/** How to attach a robot to an event, in the console's words (which page, which field). */
export const ATTACH_ADVICE =
  'In the console: Events → <event> → General → Robots → pick this robot and save, or create the robot from the event.';

/** What the robot client says about a refused key or event, before or during a run. */
export const adviceForRefusal = (
  reason: string,
  context: { eventName?: string; ownEventName?: string } = {},
): string | undefined => {
  switch (reason) {
    case 'invalid_key':
      return (
        'This robot key is unknown: no robot has it. Copy the key shown when the robot was created, ' +
        'or make a new one on the Robots page ("New key").'
      );
    case 'robot_not_attached':
      return `This robot key is not attached to any event. ${ATTACH_ADVICE}`;
    case 'robot_other_event':
      return (
        `This robot key feeds event ${context.ownEventName ?? '(another)'}, not ` +
        `${context.eventName ?? 'the one named'}: run with --event ${context.ownEventName ?? '<its event>'}, ` +
        `or attach the robot to ${context.eventName ?? 'that event'}. ${ATTACH_ADVICE}`
      );
    default:
      return undefined;
  }
};

class PermanentError extends Error {}
class TransientError extends Error {}
/** A refusal about the run (key, event, attendee), not about one file. */
class RunRefusedError extends Error {}

/** Refusals that say the key, event or attendee is wrong: the same for every file of the run. */
export const RUN_REFUSALS: ReadonlySet<string> = new Set([
  'invalid_key',
  'robot_not_attached',
  'robot_other_event',
  'event_not_found',
  'not_found',
  'forbidden',
  'unauthorized_user',
  'invalid_attendee_id',
  'attendee_locked',
  'attendee_expired',
]);

/** What the robot client prints after a run: counts, then why files were not sent. */
export const describeSummary = (summary: RobotUploadSummary): string => {
  const counts = [`${summary.uploaded} uploaded`];
  if (summary.attached) counts.push(`${summary.attached} attached`);
  counts.push(`${summary.skipped} already sent`);
  if (summary.refused) counts.push(`${summary.refused} refused`);
  if (summary.failed) counts.push(`${summary.failed} failed`);
  const lines = [`${counts.join(', ')}.`];
  if (summary.stopped) {
    lines.push(
      `Stopped: the server refused this run (${summary.stopped}): ${
        summary.advice ?? 'check --key, --event and --attendee.'
      } Nothing was marked as sent; run again once fixed.`,
    );
  }

  const byReason = new Map<string, string[]>();
  for (const { file, reason } of summary.notSent) {
    byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
  }
  for (const [reason, names] of byReason) {
    const shown = names.slice(0, 5).join(', ');
    lines.push(
      `Not sent (${reason}): ${shown}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
};

const JOURNAL_NAME = '.flashbulb-uploads.json';

/** Waits `ms` or until aborted; the abort listener is removed again (no listener build-up). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const runRobotUpload = async (options: RobotUploadOptions): Promise<RobotUploadSummary> => {
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const maxAttempts = options.maxAttempts ?? 8;
  const backoffMs = options.backoffMs ?? 1000;
  const settleMs = options.settleMs ?? 1000;
  const summary: RobotUploadSummary = {
    uploaded: 0,
    attached: 0,
    skipped: 0,
    refused: 0,
    failed: 0,
    notSent: [],
    links: [],
  };
  const onLink =
    options.onLink ??
    ((link: InstantLinkOut) =>
      log(`link ${link.file}: ${link.instant_url} (code ${link.instant_code})`));
  // Stops the run (and the watch) when the server refuses the run itself.
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stop.signal;

  const folders: string[] = [];
  const files: string[] = [];
  for (const p of options.paths) {
    const s = await stat(p);
    if (s.isDirectory()) folders.push(path.resolve(p));
    else files.push(path.resolve(p));
  }
  const journalPath =
    options.journalPath ?? path.join(folders[0] ?? path.dirname(files[0] ?? '.'), JOURNAL_NAME);
  let journal: Journal = {};
  try {
    journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
  } catch {
    journal = {};
  }
  // A journal written by an earlier client may hold files "refused" for a wrong key or event:
  // those were never judged on their own, so they are tried again.
  for (const [file, entry] of Object.entries(journal)) {
    if (entry.refused && RUN_REFUSALS.has(entry.refused)) delete journal[file];
  }
  // Writes are chained (workers finish concurrently); each writes a temp file then renames it,
  // so a crash leaves the old journal or the new one.
  let journalWrite: Promise<void> = Promise.resolve();
  const saveJournal = (): Promise<void> => {
    journalWrite = journalWrite.then(async () => {
      const tmp = `${journalPath}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(journal, null, 1));
      await rename(tmp, journalPath);
    });
    return journalWrite;
  };
  // The run's attendees as the server stores them; a file sent for all of them is done.
  const attendees = [
    ...new Set(
      [...(options.attendeeUid ? [options.attendeeUid] : []), ...(options.attendeeUids ?? [])]
        .map(normaliseAttendeeId)
        .filter(Boolean),
    ),
  ];
  const sentForRun = (entry: JournalEntry) =>
    !entry.refused && attendees.every((a) => entry.attendees?.includes(a));
  /** Handled for this run: refused (about the file itself), or sent for every attendee. */
  const done = (entry: JournalEntry | undefined) =>
    entry !== undefined && (entry.refused !== undefined || sentForRun(entry));
  const sentHashes = () =>
    new Set(
      Object.values(journal)
        .filter(sentForRun)
        .map((e) => e.sha256),
    );
  /** Files of earlier runs counted as already sent (once each, however often a watch rescans). */
  const counted = new Set<string>();

  const client = createContractClient({ baseUrl: options.server, fetch: doFetch });
  const robotKey = { key_type: 'robot', key_value: options.robotKey } as const;

  // First ask who the key is: a wrong or unattached key is explained before anything is sent,
  // and a right one names the event its photos go to.
  let ownEventName: string | undefined;
  try {
    const me = await client.call(endpoints.robotWhoami, robotKey);
    ownEventName = me.event.name;
    summary.robot = {
      name: me.robot.name,
      eventName: me.event.name,
      eventFullName: me.event.full_name,
    };
    log(`robot "${me.robot.name}" uploads to event ${me.event.name} (${me.event.full_name})`);
  } catch (error) {
    const reason =
      isContractError(error) && error.kind === 'nok'
        ? error.messageKey
        : error instanceof Error
          ? error.message
          : String(error);
    if (reason === 'invalid_key' || reason === 'robot_not_attached') {
      summary.stopped = reason;
      summary.advice = adviceForRefusal(reason);
      log(`stopped: ${summary.advice}`);
      options.signal?.removeEventListener('abort', onOuterAbort);
      return summary;
    }
    // An older server (no such call) or one not reachable yet: the uploads will tell.
    log(`could not check the robot key first (${reason}); sending anyway`);
  }
  const eventName = options.eventName ?? ownEventName;
  if (!eventName) {
    summary.stopped = 'event_not_found';
    summary.advice = 'name the event with --event <code>.';
    options.signal?.removeEventListener('abort', onOuterAbort);
    return summary;
  }
  if (ownEventName && eventName.toUpperCase() !== ownEventName.toUpperCase()) {
    summary.stopped = 'robot_other_event';
    summary.advice = adviceForRefusal('robot_other_event', { eventName, ownEventName });
    log(`stopped: ${summary.advice}`);
    options.signal?.removeEventListener('abort', onOuterAbort);
    return summary;
  }
  /** A contract call; a refusal that will not change is permanent, anything else is retried. */
  const call = async <E extends Endpoint>(endpoint: E, body: BodyOf<E>): Promise<ResultOf<E>> => {
    try {
      return await client.call(endpoint, body);
    } catch (error) {
      if (!isContractError(error)) throw error;
      const reason = error.kind === 'nok' ? error.messageKey : error.message;
      const final = error.kind === 'nok' && error.status !== 429 && (error.status ?? 500) < 500;
      if (final && RUN_REFUSALS.has(reason)) throw new RunRefusedError(reason);
      throw final ? new PermanentError(reason) : new TransientError(reason);
    }
  };

  const uploadOnce = async (
    file: string,
    bytes: Buffer,
  ): Promise<{
    id: number;
    uid: string;
    upload_result?: string;
    instant?: InstantLinkOut;
  }> => {
    const name = path.basename(file);
    const contentType = MEDIA_CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';
    const grant = await call(endpoints.photoUploadAccess, {
      ...robotKey,
      event_name: eventName,
      file_name: name,
      content_type: contentType,
      ...(attendees.length
        ? { attendee_uid: attendees.length === 1 ? attendees[0] : attendees }
        : {}),
    });
    // The link is told before the bytes go: the guest can scan it while the photo uploads.
    let instant: InstantLinkOut | undefined;
    if (grant.instant_url && grant.instant_code) {
      instant = { file: name, instant_url: grant.instant_url, instant_code: grant.instant_code };
      summary.links = [...summary.links.filter((l) => l.file !== name), instant];
      onLink(instant);
    }
    const form = new FormData();
    for (const [field, value] of Object.entries(grant.fields)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), name);
    let posted: Response;
    try {
      posted = await doFetch(grant.url, { method: 'POST', body: form });
    } catch (error) {
      throw new TransientError(error instanceof Error ? error.message : String(error));
    }
    if (!posted.ok) {
      const xml = await posted.text();
      const code = /<Code>([^<]*)<\/Code>/.exec(xml)?.[1] ?? `HTTP ${posted.status}`;
      // An expired grant is fixed by asking again; other refusals will not change.
      if (posted.status >= 500 || /expired/i.test(xml)) throw new TransientError(code);
      throw new PermanentError(code);
    }
    const photo = await call(endpoints.photoUploadComplete, { ...robotKey, key: grant.key });
    return { ...photo, ...(instant ? { instant } : {}) };
  };

  /** What to do about a refused run, in the console's words (which page, which field). */
  const adviceFor = (reason: string): string | undefined =>
    adviceForRefusal(reason, { eventName, ownEventName });

  const inFlight = new Set<string>();
  const processFile = async (file: string): Promise<void> => {
    if (inFlight.has(file) || done(journal[file]) || signal.aborted) return;
    inFlight.add(file);
    try {
      const bytes = await readFile(file);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (sentHashes().has(sha256)) {
        journal[file] = { sha256, attendees, at: new Date().toISOString() };
        await saveJournal();
        summary.skipped += 1;
        log(`skipped ${path.basename(file)} (same content already uploaded)`);
        return;
      }
      for (let attempt = 1; ; attempt += 1) {
        try {
          const photo = await uploadOnce(file, bytes);
          journal[file] = {
            sha256,
            photoId: photo.id,
            uid: photo.uid,
            ...(photo.instant
              ? { instantUrl: photo.instant.instant_url, instantCode: photo.instant.instant_code }
              : {}),
            attendees: [...new Set([...(journal[file]?.attendees ?? []), ...attendees])],
            at: new Date().toISOString(),
          };
          await saveJournal();
          const name = path.basename(file);
          // The server says what the bytes did (a server without the field made a photo).
          if (photo.upload_result === 'attached') {
            summary.attached += 1;
            log(`attached ${name} → photo ${photo.uid} (already uploaded; now in more albums)`);
          } else if (photo.upload_result === 'already_uploaded') {
            summary.skipped += 1;
            log(`skipped ${name} (the server has it already) → photo ${photo.uid}`);
          } else {
            summary.uploaded += 1;
            log(`uploaded ${name} → photo ${photo.uid}`);
          }
          return;
        } catch (error) {
          if (error instanceof RunRefusedError) {
            // Not this file's fault: nothing is journaled, and the run stops.
            if (!summary.stopped) {
              summary.stopped = error.message;
              log(`stopped: the server refused the run (${error.message})`);
              stop.abort();
              summary.advice = adviceFor(error.message);
            }
            stop.abort();
            return;
          }
          if (error instanceof PermanentError) {
            journal[file] = { sha256, refused: error.message, at: new Date().toISOString() };
            await saveJournal();
            summary.refused += 1;
            summary.notSent.push({ file: path.basename(file), reason: error.message });
            log(`refused ${path.basename(file)}: ${error.message}`);
            return;
          }
          if (attempt >= maxAttempts || signal.aborted) {
            summary.failed += 1;
            summary.notSent.push({
              file: path.basename(file),
              reason: signal.aborted
                ? 'stopped before it was sent'
                : `gave up after ${attempt} attempts: ${(error as Error).message}`,
            });
            log(
              `failed ${path.basename(file)} after ${attempt} attempts: ${(error as Error).message}`,
            );
            return;
          }
          const wait = Math.min(backoffMs * 2 ** (attempt - 1), 60_000);
          log(
            `retrying ${path.basename(file)} in ${Math.round(wait / 100) / 10} s: ${(error as Error).message}`,
          );
          await sleep(wait, signal);
        }
      }
    } finally {
      inFlight.delete(file);
    }
  };

  /** The photo files still to send; those the journal holds as sent are counted as such. */
  const candidates = async (): Promise<string[]> => {
    const found = [...files];
    for (const folder of folders) {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        if (entry.isFile() && !entry.name.startsWith('.') && isPhotoFileName(entry.name)) {
          found.push(path.join(folder, entry.name));
        }
      }
    }
    const fresh: string[] = [];
    for (const f of found.sort()) {
      const entry = journal[f];
      if (!done(entry)) fresh.push(f);
      else if (entry && !entry.refused && !counted.has(f)) {
        counted.add(f);
        summary.skipped += 1;
      }
    }
    return fresh;
  };

  /** Files whose size did not change for `settleMs` (the writer is done). */
  const settled = async (list: string[]): Promise<string[]> => {
    const sizes = new Map<string, number>();
    for (const f of list) sizes.set(f, (await stat(f).catch(() => null))?.size ?? -1);
    await sleep(settleMs, signal);
    const ready: string[] = [];
    for (const f of list) {
      const now = (await stat(f).catch(() => null))?.size ?? -1;
      if (now > 0 && now === sizes.get(f)) ready.push(f);
    }
    return ready;
  };

  const drain = async (list: string[]) => {
    const queue = [...list];
    const workers = Array.from({ length: options.concurrency ?? 2 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await processFile(next);
    });
    await Promise.all(workers);
  };

  try {
    return await watchAndDrain();
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }

  async function watchAndDrain(): Promise<RobotUploadSummary> {
    await drain(options.watch ? await settled(await candidates()) : await candidates());
    if (!options.watch || signal.aborted) return summary;

    log(`watching ${folders.join(', ')} for new photos (Ctrl-C to stop)`);
    let wake: (() => void) | null = null;
    const watchers: FSWatcher[] = folders.map((folder) =>
      watch(folder, () => {
        wake?.();
      }),
    );
    try {
      while (!signal.aborted) {
        // fs.watch can miss events on some file systems: rescan every 2 s as well.
        await Promise.race([new Promise<void>((r) => (wake = r)), sleep(2000, signal)]);
        wake = null;
        const fresh = await candidates();
        if (fresh.length) await drain(await settled(fresh));
      }
    } finally {
      for (const w of watchers) w.close();
    }
    return summary;
  }
};
