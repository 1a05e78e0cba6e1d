// Vitest's `sequence.sequencer` (vitest.config.ts): the files longest first by the committed
// table of measured durations, the browser journeys one at a time beside the rest. The order is
// made by scheduleOrder (schedule.ts); the refresh of the table by file-durations.mjs. See
// docs/testing.md, "The schedule".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import {
  DURATIONS_FILE,
  scheduleOrder,
  type DurationTable,
  type ScheduledFile,
} from './schedule.ts';

/**
 * Projects whose files take turns (the lock of serial-lock.ts): one at a time beside the other
 * projects; alone in their group, the longest first.
 */
export const SERIAL_PROJECTS: ReadonlySet<string> = new Set(['e2e']);

/**
 * A journey beside a server or web file runs slower than alone, where the table's figures were
 * taken. Placing the next one too early leaves a worker waiting for the turn; too late only lets
 * the other worker take one more file first. Played through on the whole suite's table (two
 * workers, 3 s for a worker that changes project), with the journeys really taking 0.8 to 1.8
 * times their figures: 1.75 ends within 4 % of the best factor for each case, while 1.25 ended
 * 90-140 s later (workers waiting for the turn) once journeys took 1.5 times their figures.
 */
const SERIAL_SLOWDOWN = 1.75;

/** The table's durations; an absent or unreadable table leaves every file at the middle value. */
export const readDurationTable = (root: string): DurationTable => {
  try {
    const parsed = JSON.parse(readFileSync(path.join(root, DURATIONS_FILE), 'utf8')) as {
      durations?: Record<string, number>;
    };
    return parsed.durations ?? {};
  } catch {
    return {};
  }
};

interface Spec extends ScheduledFile {
  readonly spec: TestSpecification;
}

export class DurationSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root } = this.ctx.config;
    const table = readDurationTable(root);
    // Projects of a lower `sequence.groupOrder` run (to the end) before those of a higher one.
    const groups = new Map<number, Spec[]>();
    for (const spec of files) {
      const relativePath = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${relativePath}`);
      const order = spec.project.config.sequence.groupOrder;
      groups.set(order, [
        ...(groups.get(order) ?? []),
        {
          spec,
          project: spec.project.name,
          path: relativePath,
          ...(cached ? { failed: cached.failed, lastDuration: cached.duration } : {}),
        },
      ]);
    }
    const sorted = [...groups.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, group]) =>
        scheduleOrder(group, {
          workers: group[0]?.spec.project.config.maxWorkers ?? this.ctx.config.maxWorkers,
          serialProjects: SERIAL_PROJECTS,
          table,
          serialSlowdown: SERIAL_SLOWDOWN,
        }),
      )
      .map((file) => file.spec);
    return Promise.resolve(sorted);
  }
}
