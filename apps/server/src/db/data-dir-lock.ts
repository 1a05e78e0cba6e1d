import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * One writer per embedded database. PGlite keeps its data in a folder that only one process may
 * open: two processes on one folder each cache their own view, and the second one's writes are
 * invisible to the first (or lost). The process that opens the folder holds `<folder>.lock`, a
 * small JSON file naming it (pid, start time, host) and, once a server listens, its address; the
 * CLI reads that address to talk to the running server through the API instead of opening the
 * folder itself.
 *
 * The lock survives a crash or `kill -9` on disk, so a holder counts only while its process is
 * alive: same host, a process with that pid exists, and it started when the holder did (a pid
 * reused by an unrelated process since then does not count). A lock whose holder is gone is taken
 * over. Creating and taking over are atomic (`link` of a complete file, `rename` of the stale one),
 * so two processes starting at once cannot both win.
 */

export interface LockHolder {
  pid: number;
  host: string;
  /** Process start time in clock ticks since boot (Linux `/proc/<pid>/stat`), null elsewhere. */
  started: string | null;
  /** What holds it: a server or a command-line run. */
  role: 'server' | 'cli';
  /** The running server's address, once it listens. */
  url: string | null;
  /** A random value per acquisition (tells one holder's file from another's). */
  nonce: string;
}

export class DataDirLockedError extends Error {
  readonly holder: LockHolder;
  constructor(folder: string, holder: LockHolder) {
    super(
      `The database folder ${folder} is in use by ${holder.role === 'server' ? 'a running Flashbulb server' : 'a Flashbulb command'} ` +
        `(pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}). Only one process may open the embedded database: ` +
        `stop that process first, or give this one another FLASHBULB_DATA_DIR.`,
    );
    this.name = 'DataDirLockedError';
    this.holder = holder;
  }
}

/** Start time of a process (field 22 of `/proc/<pid>/stat`), or null where there is no /proc. */
export const processStartTime = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
};

const pidExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether the holder's process still runs (a holder on another host is taken as alive). */
export const holderAlive = (holder: LockHolder): boolean => {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  if (!pidExists(holder.pid)) return false;
  if (holder.started === null) return true;
  const started = processStartTime(holder.pid);
  return started === null || started === holder.started;
};

const parseHolder = (text: string): LockHolder | null => {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return null;
    return {
      pid: value.pid,
      host: value.host,
      started: typeof value.started === 'string' ? value.started : null,
      role: value.role === 'cli' ? 'cli' : 'server',
      url: typeof value.url === 'string' ? value.url : null,
      nonce: typeof value.nonce === 'string' ? value.nonce : '',
    };
  } catch {
    return null;
  }
};

export const lockPathOf = (folder: string): string => `${folder}.lock`;

/** The live holder of a folder's lock, or null when nobody (alive) holds it. */
export const readLockHolder = async (folder: string): Promise<LockHolder | null> => {
  let text: string;
  try {
    text = await readFile(lockPathOf(folder), 'utf8');
  } catch {
    return null;
  }
  const holder = parseHolder(text);
  return holder && holderAlive(holder) ? holder : null;
};

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

export class DataDirLock {
  private released = false;
  private constructor(
    readonly folder: string,
    private holder: LockHolder,
  ) {}

  get path(): string {
    return lockPathOf(this.folder);
  }

  /** Takes the folder's lock, or throws `DataDirLockedError` naming the live holder. */
  static async acquire(folder: string, role: LockHolder['role'] = 'server'): Promise<DataDirLock> {
    const lockPath = lockPathOf(folder);
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      started: processStartTime(process.pid),
      role,
      url: null,
      nonce: randomBytes(12).toString('hex'),
    };
    // The file is written whole under a private name, then linked into place: `link` fails when
    // the lock exists, and a reader never sees a half-written lock.
    const temp = `${lockPath}.${holder.nonce}`;
    await writeFile(temp, JSON.stringify(holder), { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          await link(temp, lockPath);
          return new DataDirLock(folder, holder);
        } catch (error) {
          if (errnoOf(error) !== 'EEXIST') throw error;
        }
        let text: string;
        try {
          text = await readFile(lockPath, 'utf8');
        } catch (error) {
          if (errnoOf(error) === 'ENOENT') continue; // released meanwhile: try again
          throw error;
        }
        const current = parseHolder(text);
        if (current && holderAlive(current)) throw new DataDirLockedError(folder, current);
        // A dead holder's lock (or an unreadable one, which no acquisition writes): move it aside
        // atomically. Only one of several processes taking over at once can move a given file.
        const aside = `${lockPath}.stale-${holder.nonce}`;
        try {
          await rename(lockPath, aside);
        } catch (error) {
          if (errnoOf(error) === 'ENOENT') continue; // another process moved it first
          throw error;
        }
        const moved = parseHolder(await readFile(aside, 'utf8').catch(() => ''));
        if (moved && current && moved.nonce !== current.nonce) {
          // Between reading and moving, another process took the lock over: give it back.
          await link(aside, lockPath).catch(() => undefined);
        }
        await unlink(aside).catch(() => undefined);
      }
      throw new Error(`Could not take the lock ${lockPath}`);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /** Records the running server's address in the lock (the CLI reads it). */
  async announce(url: string): Promise<void> {
    if (this.released) return;
    this.holder = { ...this.holder, url };
    const temp = `${this.path}.${this.holder.nonce}.new`;
    await writeFile(temp, JSON.stringify(this.holder), { mode: 0o600 });
    await rename(temp, this.path);
  }

  /** Gives the lock up (only if this process still holds it). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const current = parseHolder(await readFile(this.path, 'utf8').catch(() => ''));
    if (current?.nonce === this.holder.nonce) await unlink(this.path).catch(() => undefined);
  }
}
