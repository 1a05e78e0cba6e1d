import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The data folder (embedded database, generated secret key, stored objects, print files) belongs
 * to the server's user alone. PGlite creates its files 0666 and the folder 0755 under a default
 * umask, so any local account could read every photo and rewrite the database.
 *
 * `restrictNewFileModes` sets the process umask to 0077 before anything is written: every file and
 * folder the process creates afterwards (ours and PGlite's) is closed to group and world.
 * `secureDataDir` creates the folder 0700, closes an existing one that is open (its top folder is
 * enough to keep others out of everything below), and reports what inside is still open so the
 * operator can tighten it.
 */
export const PRIVATE_UMASK = 0o077;

export const restrictNewFileModes = (): void => {
  try {
    process.umask(PRIVATE_UMASK);
  } catch {
    // Worker threads cannot set the umask; the process that started them already did.
  }
};

export interface OpenModeWarning {
  path: string;
  /** The mode found, in octal (e.g. `755`). */
  mode: string;
  /** True when the mode was tightened to 0700 (the top folder only). */
  fixed: boolean;
}

/** How many entries the scan looks at; a large storage tree is reported by its first findings. */
const SCAN_LIMIT = 20_000;
/** How many open entries are named (the rest are counted in the log line by the caller). */
const REPORT_LIMIT = 20;

const octal = (mode: number) => (mode & 0o777).toString(8);

/**
 * Visits every entry below `folder`, depth first, each with its lstat. Links are passed over (what
 * they point at is not the data folder's), and so are folders that cannot be read and entries gone
 * meanwhile. `stop`, asked before each entry, ends the walk.
 */
const walkTree = async (
  folder: string,
  visit: (full: string, info: Stats) => Promise<void> | void,
  stop: () => boolean = () => false,
): Promise<void> => {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (stop()) return;
    if (entry.isSymbolicLink()) continue;
    const full = path.join(folder, entry.name);
    const info = await lstat(full).catch(() => null);
    if (!info) continue;
    await visit(full, info);
    if (entry.isDirectory()) await walkTree(full, visit, stop);
  }
};

export const secureDataDir = async (dir: string): Promise<OpenModeWarning[]> => {
  const warnings: OpenModeWarning[] = [];
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const top = await lstat(dir);
  if (top.mode & 0o077) {
    await chmod(dir, 0o700);
    warnings.push({ path: dir, mode: octal(top.mode), fixed: true });
  }
  let seen = 0;
  await walkTree(
    dir,
    (full, info) => {
      if (info.mode & 0o077) warnings.push({ path: full, mode: octal(info.mode), fixed: false });
    },
    () => seen++ >= SCAN_LIMIT || warnings.length > REPORT_LIMIT,
  );
  return warnings;
};

/**
 * Takes group and world rights off everything under `dir` (PGlite's first start unpacks its
 * initial database with explicit 0666 modes, which no umask prevents; files it creates later
 * follow the umask). Answers how many entries were tightened.
 */
export const closeTree = async (dir: string): Promise<number> => {
  let closed = 0;
  await walkTree(dir, async (full, info) => {
    if (info.mode & 0o077) {
      await chmod(full, info.mode & 0o700);
      closed += 1;
    }
  });
  return closed;
};

/** One log line per finding (the caller's logger; nothing secret is in a path or a mode). */
export const describeOpenModes = (warnings: OpenModeWarning[]): string[] =>
  warnings.map((w) =>
    w.fixed
      ? `data folder ${w.path} was open to other users (mode ${w.mode}); set to 700`
      : `${w.path} is open to other users (mode ${w.mode}); run chmod -R go-rwx on the data folder`,
  );
