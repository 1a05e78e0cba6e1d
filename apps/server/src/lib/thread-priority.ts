import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Image work below the event loop. libvips decodes, resizes and encodes on its own worker threads
 * ("libvips worker"); while ingest runs flat out they take every core, and a guest's list request
 * waits for one. On Linux a thread's nice value is its own (and a thread libvips starts later
 * inherits it from the libvips thread that starts it), so raising the nice value of those threads
 * lets requests and database work run first while image work still takes every idle cycle.
 *
 * Only ever raises the value (lowers the priority): no privilege needed. A no-op where
 * `/proc/self/task` does not exist (not Linux) or when `nice` is 0.
 */
export class ImageThreadPriority {
  private lastScan = 0;

  constructor(
    private readonly nice: number,
    /** Threads are rescanned at most this often; libvips reuses its threads. */
    private readonly minIntervalMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Call before image work: threads libvips started since the last call get the nice value. */
  apply(): number {
    if (this.nice <= 0) return 0;
    const at = this.now();
    if (at - this.lastScan < this.minIntervalMs) return 0;
    this.lastScan = at;
    return lowerThreads(/^libvips/, this.nice);
  }
}

/** Raises the nice value of this process's threads whose name matches; answers how many changed. */
export const lowerThreads = (name: RegExp, nice: number): number => {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let changed = 0;
  for (const tid of tids) {
    try {
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8');
      if (!name.test(comm)) continue;
      const id = Number(tid);
      if (getPriority(id) >= nice) continue;
      setPriority(id, nice);
      changed += 1;
    } catch {
      // The thread ended between the listing and the call: nothing to do.
    }
  }
  return changed;
};
