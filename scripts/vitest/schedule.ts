// The order in which `vitest run` hands test files to its two workers (docs/testing.md, "The
// schedule"). Pure functions; the sequencer that applies them is scripts/vitest/sequencer.ts, the
// test scripts/vitest/schedule.test.ts.
//
// Vitest's pool is one first-in-first-out queue: a worker that finishes a file takes the file at
// the head of the queue. Its own sequencer sorts by the durations of the previous run on this
// machine, which a fresh clone does not have, so there it ran the files in no useful order: a
// 48 s file could start last and run alone while the other worker idled. Here the durations come
// from a committed table (file-durations.json, measured on a whole run) and the queue is built
// by playing the run through on paper:
//
//  - every project but the serial ones: one block of files per project (a worker that goes from
//    a file to one of the same project keeps its imports, the projects run without isolation),
//    the longest files of a block first, the blocks with the most work first, so the run ends
//    on short files that fill both workers to the end;
//  - the serial projects (the browser journeys): one file at a time, started at once and kept
//    running beside the rest: whenever the simulated journey ends, the next one goes to the head
//    of the queue. A journey is given more time than its table entry (`serialSlowdown`): it runs
//    slower beside another file than alone, and a journey placed too early waits for the one
//    before it (the lock of serial-lock.ts) with its worker idle, while one placed too late only
//    lets the other worker take one more file first.

/** One test file as the schedule sees it. */
export interface ScheduledFile {
  /** The Vitest project's name. */
  readonly project: string;
  /** The file's path relative to the repository root, with forward slashes. */
  readonly path: string;
  /** Failed in the previous run on this machine (Vitest's cache): such files go first. */
  readonly failed?: boolean;
  /** Its duration in the previous run on this machine (ms), used when the table has none. */
  readonly lastDuration?: number;
}

/** Measured durations in ms, keyed by `fileKey`. */
export type DurationTable = Readonly<Record<string, number>>;

export interface ScheduleOptions {
  /** How many files run at once (Vitest's `maxWorkers`). */
  readonly workers: number;
  /** Projects whose files must never run two at a time. */
  readonly serialProjects: ReadonlySet<string>;
  /** Measured durations (file-durations.json). */
  readonly table: DurationTable;
  /** How much longer a serial file is expected to take beside the rest than its table entry. */
  readonly serialSlowdown?: number;
}

/** The measured durations (refreshed by file-durations.ts), relative to the repository root. */
export const DURATIONS_FILE = 'scripts/vitest/file-durations.json';

/** The table's key of a file: `<project>:<path>`, like Vitest's own cache. */
export const fileKey = (project: string, path: string): string => `${project}:${path}`;

/** The middle value of a list (0 when empty). */
const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * The expected duration of every file: its table entry, else its duration in the previous run
 * on this machine, else the table's entry for the same file in another project (a file moved to
 * another project, e.g. from jsdom to happy-dom, until the table is refreshed), else the middle
 * value of its project's entries in the table (of the whole table when the project has none): a
 * new file is neither put first nor left for last.
 */
export function estimateDurations<T extends ScheduledFile>(
  files: readonly T[],
  table: DurationTable,
): Map<T, number> {
  const byProject = new Map<string, number[]>();
  const byPath = new Map<string, number>();
  for (const [key, ms] of Object.entries(table)) {
    const project = key.slice(0, key.indexOf(':'));
    byProject.set(project, [...(byProject.get(project) ?? []), ms]);
    const path = key.slice(key.indexOf(':') + 1);
    byPath.set(path, Math.max(byPath.get(path) ?? 0, ms));
  }
  const overall = median(Object.values(table));
  const estimates = new Map<T, number>();
  for (const file of files) {
    const known =
      table[fileKey(file.project, file.path)] ?? file.lastDuration ?? byPath.get(file.path);
    const projectMiddle = byProject.has(file.project)
      ? median(byProject.get(file.project) ?? [])
      : overall;
    estimates.set(file, known ?? projectMiddle);
  }
  return estimates;
}

/** Failed first, then longest first; the path breaks ties so the order is the same every run. */
const byPriority =
  <T extends ScheduledFile>(estimate: Map<T, number>) =>
  (a: T, b: T): number =>
    Number(b.failed === true) - Number(a.failed === true) ||
    (estimate.get(b) ?? 0) - (estimate.get(a) ?? 0) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The files in the order the queue should hold them (see the top of this file). Every file
 * comes back exactly once.
 */
export function scheduleOrder<T extends ScheduledFile>(
  files: readonly T[],
  options: ScheduleOptions,
): T[] {
  const estimate = estimateDurations(files, options.table);
  const slowdown = options.serialSlowdown ?? 1;
  const priority = byPriority(estimate);

  const serial = files.filter((f) => options.serialProjects.has(f.project)).sort(priority);
  const blocks = new Map<string, T[]>();
  for (const file of files) {
    if (options.serialProjects.has(file.project)) continue;
    blocks.set(file.project, [...(blocks.get(file.project) ?? []), file]);
  }
  const work = (block: T[]): number => block.reduce((sum, f) => sum + (estimate.get(f) ?? 0), 0);
  const parallel = [...blocks.entries()]
    .sort(([nameA, a], [nameB, b]) => work(b) - work(a) || (nameA < nameB ? -1 : 1))
    .flatMap(([, block]) => block.sort(priority));

  // Play the queue through: the worker that is free first takes the head.
  const freeAt = Array.from({ length: Math.max(1, options.workers) }, () => 0);
  let serialBusyUntil = 0;
  const order: T[] = [];
  while (serial.length > 0 || parallel.length > 0) {
    const now = Math.min(...freeAt);
    const worker = freeAt.indexOf(now);
    const next = serial[0];
    if (next && (serialBusyUntil <= now || parallel.length === 0)) {
      serial.shift();
      // With nothing else left, the worker waits for the running serial file (the lock).
      const start = Math.max(now, serialBusyUntil);
      serialBusyUntil = start + (estimate.get(next) ?? 0) * slowdown;
      freeAt[worker] = serialBusyUntil;
      order.push(next);
    } else {
      const file = parallel.shift() as T;
      freeAt[worker] = now + (estimate.get(file) ?? 0);
      order.push(file);
    }
  }
  return order;
}
