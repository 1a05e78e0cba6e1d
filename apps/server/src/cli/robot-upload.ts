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
  eventName: string;
  robotKey: string;
  /** Attendee id every photo of this run belongs to (wristband, badge or card). */
  attendeeUid?: string;
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
  signal?: AbortSignal;
}

interface JournalEntry {
  sha256: string;
  photoId?: number;
  uid?: string;
  refused?: string;
  at: string;
}
type Journal = Record<string, JournalEntry>;

export interface RobotUploadSummary {
  uploaded: number;
  skipped: number;
  refused: number;
  failed: number;
}

class PermanentError extends Error {}
class TransientError extends Error {}

const JOURNAL_NAME = '.flashbulb-uploads.json';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export const runRobotUpload = async (options: RobotUploadOptions): Promise<RobotUploadSummary> => {
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const maxAttempts = options.maxAttempts ?? 8;
  const backoffMs = options.backoffMs ?? 1000;
  const settleMs = options.settleMs ?? 1000;
  const summary: RobotUploadSummary = { uploaded: 0, skipped: 0, refused: 0, failed: 0 };

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
  const sentHashes = () => new Set(Object.values(journal).map((e) => e.sha256));

  const client = createContractClient({ baseUrl: options.server, fetch: doFetch });
  const robotKey = { key_type: 'robot', key_value: options.robotKey } as const;
  /** A contract call; a refusal that will not change is permanent, anything else is retried. */
  const call = async <E extends Endpoint>(endpoint: E, body: BodyOf<E>): Promise<ResultOf<E>> => {
    try {
      return await client.call(endpoint, body);
    } catch (error) {
      if (!isContractError(error)) throw error;
      const reason = error.kind === 'nok' ? error.messageKey : error.message;
      const final = error.kind === 'nok' && error.status !== 429 && (error.status ?? 500) < 500;
      throw final ? new PermanentError(reason) : new TransientError(reason);
    }
  };

  const uploadOnce = async (file: string, bytes: Buffer): Promise<{ id: number; uid: string }> => {
    const name = path.basename(file);
    const contentType = MEDIA_CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';
    const grant = await call(endpoints.photoUploadAccess, {
      ...robotKey,
      event_name: options.eventName,
      file_name: name,
      content_type: contentType,
      ...(options.attendeeUid ? { attendee_uid: options.attendeeUid } : {}),
    });
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
    return call(endpoints.photoUploadComplete, { ...robotKey, key: grant.key });
  };

  const inFlight = new Set<string>();
  const processFile = async (file: string): Promise<void> => {
    if (inFlight.has(file) || journal[file]) return;
    inFlight.add(file);
    try {
      const bytes = await readFile(file);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (sentHashes().has(sha256)) {
        journal[file] = { sha256, at: new Date().toISOString() };
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
            at: new Date().toISOString(),
          };
          await saveJournal();
          summary.uploaded += 1;
          log(`uploaded ${path.basename(file)} → photo ${photo.uid}`);
          return;
        } catch (error) {
          if (error instanceof PermanentError) {
            journal[file] = { sha256, refused: error.message, at: new Date().toISOString() };
            await saveJournal();
            summary.refused += 1;
            log(`refused ${path.basename(file)}: ${error.message}`);
            return;
          }
          if (attempt >= maxAttempts || options.signal?.aborted) {
            summary.failed += 1;
            log(
              `failed ${path.basename(file)} after ${attempt} attempts: ${(error as Error).message}`,
            );
            return;
          }
          const wait = Math.min(backoffMs * 2 ** (attempt - 1), 60_000);
          log(
            `retrying ${path.basename(file)} in ${Math.round(wait / 100) / 10} s: ${(error as Error).message}`,
          );
          await sleep(wait, options.signal);
        }
      }
    } finally {
      inFlight.delete(file);
    }
  };

  const candidates = async (): Promise<string[]> => {
    const found = [...files];
    for (const folder of folders) {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        if (entry.isFile() && !entry.name.startsWith('.') && isPhotoFileName(entry.name)) {
          found.push(path.join(folder, entry.name));
        }
      }
    }
    return found.sort().filter((f) => !journal[f]);
  };

  /** Files whose size did not change for `settleMs` (the writer is done). */
  const settled = async (list: string[]): Promise<string[]> => {
    const sizes = new Map<string, number>();
    for (const f of list) sizes.set(f, (await stat(f).catch(() => null))?.size ?? -1);
    await sleep(settleMs, options.signal);
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

  await drain(options.watch ? await settled(await candidates()) : await candidates());
  if (!options.watch) return summary;

  log(`watching ${folders.join(', ')} for new photos (Ctrl-C to stop)`);
  let wake: (() => void) | null = null;
  const watchers: FSWatcher[] = folders.map((folder) =>
    watch(folder, () => {
      wake?.();
    }),
  );
  try {
    while (!options.signal?.aborted) {
      // fs.watch can miss events on some file systems: rescan every 2 s as well.
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(2000, options.signal)]);
      wake = null;
      const fresh = await candidates();
      if (fresh.length) await drain(await settled(fresh));
    }
  } finally {
    for (const w of watchers) w.close();
  }
  return summary;
};
