// The test run's schedule (schedule.ts, serial-lock.ts, file-durations.ts): the order the
// sequencer gives Vitest's queue, the journeys' turn lock, the refresh of the durations table.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { durationsOf, mergeDurations, projectsOfPath } from './file-durations.ts';
import { estimateDurations, fileKey, scheduleOrder, type ScheduledFile } from './schedule.ts';
import { JOURNEYS_AT_ONCE, journeysAtOnce } from './journeys.ts';
import { acquireTurn, startLockServer } from './serial-lock.ts';
import { WEB_HAPPY_DOM_FILES } from './web-dom.ts';
import { webFilesWithModuleMocks } from './web-isolation.ts';

const file = (
  project: string,
  path: string,
  extra: Partial<ScheduledFile> = {},
): ScheduledFile => ({
  project,
  path,
  ...extra,
});
const paths = (files: readonly ScheduledFile[]): string[] => files.map((f) => f.path);
const table = (entries: [ScheduledFile, number][]): Record<string, number> =>
  Object.fromEntries(entries.map(([f, ms]) => [fileKey(f.project, f.path), ms]));

/**
 * Vitest's pool as the queue meets it: the worker free first takes the head; a journey waits
 * for the one before it (the turn lock). Answers when each file ran, with the real durations
 * (which may differ from the table's).
 */
const runQueue = (
  order: readonly ScheduledFile[],
  workers: number,
  duration: (f: ScheduledFile) => number,
): { file: ScheduledFile; start: number; end: number }[] => {
  const freeAt = Array.from({ length: workers }, () => 0);
  let journeyEnds = 0;
  return order.map((f) => {
    const free = Math.min(...freeAt);
    const start = f.project === 'e2e' ? Math.max(free, journeyEnds) : free;
    const end = start + duration(f);
    if (f.project === 'e2e') journeyEnds = end;
    freeAt[freeAt.indexOf(free)] = end;
    return { file: f, start, end };
  });
};

describe('the order of the test files', () => {
  it('runs a project longest first by the table, a file the table lacks in the middle', () => {
    const short = file('server-pglite', 'a/short.test.ts');
    const long = file('server-pglite', 'b/long.test.ts');
    const middle = file('server-pglite', 'c/middle.test.ts');
    const unknown = file('server-pglite', 'd/new.test.ts');
    const durations = table([
      [short, 1_000],
      [long, 40_000],
      [middle, 9_000],
    ]);
    const order = scheduleOrder([short, unknown, middle, long], {
      workers: 2,
      serialProjects: new Set(),
      table: durations,
    });
    expect(paths(order)).toEqual([
      'b/long.test.ts',
      'c/middle.test.ts',
      'd/new.test.ts',
      'a/short.test.ts',
    ]);
    expect(estimateDurations([unknown], durations).get(unknown)).toBe(9_000);
  });

  it('keeps the figure of a file that moved to another project until the table is refreshed', () => {
    // The table as it was before the move: the file under `web`, beside two shorter ones.
    const durations = {
      'web:editor.test.tsx': 50_000,
      'web:other.test.tsx': 1_000,
      'web:third.test.tsx': 2_000,
    };
    const moved = file('web-happy-dom', 'editor.test.tsx');
    expect(estimateDurations([moved], durations).get(moved)).toBe(50_000);
    // Its own entry, once there, wins.
    expect(
      estimateDurations([moved], {
        ...durations,
        [fileKey(moved.project, moved.path)]: 30_000,
      }).get(moved),
    ).toBe(30_000);
  });

  it('puts a file that failed last time first, and uses the last duration when the table has none', () => {
    const long = file('web', 'long.test.tsx');
    const failed = file('web', 'failed.test.tsx', { failed: true });
    const measuredHere = file('web', 'here.test.tsx', { lastDuration: 90_000 });
    const order = scheduleOrder([long, measuredHere, failed], {
      workers: 2,
      serialProjects: new Set(),
      table: table([
        [long, 60_000],
        [failed, 10],
      ]),
    });
    expect(paths(order)).toEqual(['failed.test.tsx', 'here.test.tsx', 'long.test.tsx']);
  });

  it('keeps each project in one block, the project with the most work first', () => {
    const web = [file('web', 'w1.test.tsx'), file('web', 'w2.test.tsx')];
    const server = [file('server-pglite', 's1.test.ts'), file('server-pglite', 's2.test.ts')];
    const order = scheduleOrder([web[0], server[0], web[1], server[1]] as ScheduledFile[], {
      workers: 2,
      serialProjects: new Set(),
      // The longest single file is a web file, but the server has more work in all.
      table: table([
        [web[0] as ScheduledFile, 50_000],
        [web[1] as ScheduledFile, 1_000],
        [server[0] as ScheduledFile, 30_000],
        [server[1] as ScheduledFile, 30_000],
      ]),
    });
    expect(order.map((f) => f.project)).toEqual(['server-pglite', 'server-pglite', 'web', 'web']);
  });

  it('starts the journeys at once and keeps exactly one running beside the rest', () => {
    const journeys = [30_000, 20_000, 10_000].map(
      (ms, i) => [file('e2e', `j${i}.e2e.test.ts`), ms] as const,
    );
    const rest = [9_000, 8_000, 7_000, 6_000, 5_000, 4_000, 3_000, 2_000, 1_000, 500, 400, 300].map(
      (ms, i) => [file('server-pglite', `s${i}.test.ts`), ms] as const,
    );
    const all = [...rest, ...journeys];
    const durations = table(all.map(([f, ms]) => [f, ms]));
    const order = scheduleOrder(
      all.map(([f]) => f),
      { workers: 2, serialProjects: new Set(['e2e']), table: durations },
    );
    expect(order).toHaveLength(all.length);
    expect(order[0]?.project).toBe('e2e');

    const ran = runQueue(order, 2, (f) => durations[fileKey(f.project, f.path)] ?? 0);
    const journeysRan = ran.filter((r) => r.file.project === 'e2e');
    // Back to back: each journey starts when the one before ends, never beside it.
    expect(journeysRan.map((r) => r.start)).toEqual([0, 30_000, 50_000]);
    // Meanwhile the other worker took the rest, longest first.
    const restRan = ran.filter((r) => r.file.project !== 'e2e');
    expect(restRan[0]?.start).toBe(0);
    expect(paths(restRan.map((r) => r.file))).toEqual(paths(rest.map(([f]) => f)));
    // Both workers busy until the last file: the run ends at half the work, give or take a file.
    const end = Math.max(...ran.map((r) => r.end));
    const work = all.reduce((sum, [, ms]) => sum + ms, 0);
    expect(end).toBeLessThanOrEqual(work / 2 + 10_000);
  });

  it('places a journey late rather than early when it is expected to run slower beside the rest', () => {
    const journeys = [file('e2e', 'j0.e2e.test.ts'), file('e2e', 'j1.e2e.test.ts')];
    const rest = Array.from({ length: 20 }, (_, i) =>
      file('web', `w${String(i).padStart(2, '0')}.test.tsx`),
    );
    const durations = table([
      [journeys[0] as ScheduledFile, 10_000],
      [journeys[1] as ScheduledFile, 10_000],
      ...rest.map((f) => [f, 1_000] as [ScheduledFile, number]),
    ]);
    const options = { workers: 2, serialProjects: new Set(['e2e']), table: durations };
    const plain = scheduleOrder([...journeys, ...rest], options);
    const slowed = scheduleOrder([...journeys, ...rest], { ...options, serialSlowdown: 1.5 });
    // The second journey comes after the files the other worker takes in 10 s, or in 15 s.
    expect(plain.indexOf(journeys[1] as ScheduledFile)).toBe(11);
    expect(slowed.indexOf(journeys[1] as ScheduledFile)).toBe(16);
    // Taking 1.4 times the table, the journeys still never overlap in the slowed plan.
    const ran = runQueue(slowed, 2, (f) => (f.project === 'e2e' ? 14_000 : 1_000));
    const [first, second] = ran.filter((r) => r.file.project === 'e2e');
    expect(second?.start).toBeGreaterThanOrEqual(first?.end ?? Infinity);
  });

  it('runs the journeys one after another when nothing else is selected or there is one worker', () => {
    const journeys = [file('e2e', 'a.e2e.test.ts'), file('e2e', 'b.e2e.test.ts')];
    const unit = file('server-unit', 'x.unit.test.ts');
    const durations = table([
      [journeys[0] as ScheduledFile, 5_000],
      [journeys[1] as ScheduledFile, 9_000],
    ]);
    const serialProjects = new Set(['e2e']);
    expect(
      paths(scheduleOrder(journeys, { workers: 2, serialProjects, table: durations })),
    ).toEqual(['b.e2e.test.ts', 'a.e2e.test.ts']);
    expect(
      paths(scheduleOrder([unit, ...journeys], { workers: 1, serialProjects, table: durations })),
    ).toEqual(['b.e2e.test.ts', 'a.e2e.test.ts', 'x.unit.test.ts']);
  });
});

/**
 * Asks the lock for a turn, then connects once more and waits until that connection is answered:
 * the server has seen the ask by then, so `granted()` false means it was really held back.
 */
const askForTurn = async (lock: { address: string }) => {
  let granted = false;
  const turn = acquireTurn(lock.address).then((release) => {
    granted = true;
    return release;
  });
  await new Promise<void>((resolve) => {
    const probe = createConnection({ port: Number(lock.address.split(':')[1]) }, () => {
      probe.end();
      resolve();
    });
  });
  return { turn, granted: () => granted };
};

describe('the journeys’ turn lock', () => {
  it('gives the turn to one file at a time, in the order they asked', async () => {
    const lock = await startLockServer();
    try {
      const releaseFirst = await acquireTurn(lock.address);
      // The second waits while the first holds the turn.
      const second = await askForTurn(lock);
      expect(second.granted()).toBe(false);
      releaseFirst();
      (await second.turn)();
      expect(second.granted()).toBe(true);
    } finally {
      await lock.close();
    }
  });

  it('gives as many turns at once as it has, the next one when a holder gives its turn back', async () => {
    const lock = await startLockServer(Promise.resolve(), 2);
    try {
      const releaseFirst = await acquireTurn(lock.address);
      const releaseSecond = await acquireTurn(lock.address);
      const third = await askForTurn(lock);
      expect(third.granted()).toBe(false);
      releaseSecond();
      const releaseThird = await third.turn;
      expect(third.granted()).toBe(true);
      releaseFirst();
      releaseThird();
    } finally {
      await lock.close();
    }
  });

  it('passes the turn on when the holder dies without giving it back', async () => {
    const lock = await startLockServer();
    try {
      const [host, port] = lock.address.split(':');
      const holder = createConnection({ host, port: Number(port) });
      await new Promise((resolve) => holder.once('data', resolve));
      const next = acquireTurn(lock.address);
      holder.destroy();
      const release = await next;
      release();
    } finally {
      await lock.close();
    }
  });
});

describe('how many journeys run at once', () => {
  it('runs one beside the other projects, else the chosen number or the default', () => {
    expect(journeysAtOnce({ FLASHBULB_TEST_JOURNEYS: 'beside' })).toBe(1);
    expect(
      journeysAtOnce({ FLASHBULB_TEST_JOURNEYS: 'beside', FLASHBULB_TEST_JOURNEYS_AT_ONCE: '3' }),
    ).toBe(1);
    expect(journeysAtOnce({ FLASHBULB_TEST_JOURNEYS_AT_ONCE: '1' })).toBe(1);
    expect(journeysAtOnce({})).toBe(JOURNEYS_AT_ONCE);
    expect(journeysAtOnce({ FLASHBULB_TEST_JOURNEYS_AT_ONCE: 'two' })).toBe(JOURNEYS_AT_ONCE);
    expect(journeysAtOnce({ FLASHBULB_TEST_JOURNEYS_AT_ONCE: '0' })).toBe(JOURNEYS_AT_ONCE);
  });
});

describe('the journeys’ first turn', () => {
  it('waits for what the journeys need (the web build, the seed)', async () => {
    let prepared = (): void => undefined;
    const ready = new Promise<void>((resolve) => {
      prepared = resolve;
    });
    const lock = await startLockServer(ready);
    try {
      const first = await askForTurn(lock);
      expect(first.granted()).toBe(false);
      prepared();
      (await first.turn)();
      expect(first.granted()).toBe(true);
    } finally {
      await lock.close();
    }
  });

  it('tells every journey why when the preparation failed', async () => {
    const failed = Promise.reject(new Error('npm run build failed (exit 1)'));
    const lock = await startLockServer(failed);
    try {
      await expect(acquireTurn(lock.address)).rejects.toThrow('npm run build failed (exit 1)');
      await expect(acquireTurn(lock.address)).rejects.toThrow('npm run build failed (exit 1)');
    } finally {
      await lock.close();
    }
  });
});

describe('the durations table', () => {
  const root = '/repo';
  const mocked = new Set(['src/mocked.test.tsx']);

  it('tells a file’s projects from its path, both engines for a file on the list', () => {
    expect(projectsOfPath('e2e/albums.e2e.test.ts', mocked)).toEqual(['e2e']);
    expect(projectsOfPath('apps/server/test/albums/a.unit.test.ts', mocked)).toEqual([
      'server-unit',
    ]);
    expect(projectsOfPath('apps/server/test/albums/share.test.ts', mocked)).toEqual([
      'server-pglite',
    ]);
    expect(projectsOfPath('apps/server/test/platform/crash-safety.test.ts', mocked)).toEqual([
      'server-pglite',
      'server-pg',
    ]);
    expect(projectsOfPath('apps/web/src/mocked.test.tsx', mocked)).toEqual(['web-isolated']);
    expect(projectsOfPath('apps/web/src/page.test.tsx', mocked)).toEqual(['web']);
    expect(
      projectsOfPath('apps/web/src/features/events/editor/components/editor-tabs.test.tsx', mocked),
    ).toEqual(['web-happy-dom']);
    expect(projectsOfPath('packages/shared/test/x.test.ts', mocked)).toEqual(['shared']);
    expect(projectsOfPath('scripts/x.test.ts', mocked)).toEqual(['tooling']);
  });

  it('reads Vitest’s cache by key and a JSON report by path', () => {
    const cache = {
      version: '4',
      results: [['web:apps/web/src/a.test.tsx', { duration: 1234, failed: false }]],
    };
    expect([...durationsOf(cache, root, mocked)]).toEqual([['web:apps/web/src/a.test.tsx', 1234]]);
    const report = {
      testResults: [
        { name: '/repo/e2e/albums.e2e.test.ts', startTime: 1_000, endTime: 31_000 },
        // A file on both engines is in the report twice; both get the longer.
        {
          name: '/repo/apps/server/test/platform/crash-safety.test.ts',
          startTime: 0,
          endTime: 40_000,
        },
        {
          name: '/repo/apps/server/test/platform/crash-safety.test.ts',
          startTime: 0,
          endTime: 45_000,
        },
      ],
    };
    expect(Object.fromEntries(durationsOf(report, root, mocked))).toEqual({
      'e2e:e2e/albums.e2e.test.ts': 30_000,
      'server-pglite:apps/server/test/platform/crash-safety.test.ts': 45_000,
      'server-pg:apps/server/test/platform/crash-safety.test.ts': 45_000,
    });
  });

  it('puts the new figures over the old, keeps the rest, drops files that are gone', () => {
    const merged = mergeDurations(
      { 'web:kept.test.tsx': 5_000, 'web:gone.test.tsx': 7_000, 'web:new.test.tsx': 1_000 },
      [new Map([['web:new.test.tsx', 2_345]])],
      (path) => path !== 'gone.test.tsx',
    );
    expect(merged).toEqual({ 'web:kept.test.tsx': 5_000, 'web:new.test.tsx': 2_300 });
  });
});

describe('the web files on happy-dom (web-dom.ts)', () => {
  it('names real web test files, none of which replaces a module (those run in web-isolated)', () => {
    expect(WEB_HAPPY_DOM_FILES.length).toBeGreaterThan(0);
    for (const file of WEB_HAPPY_DOM_FILES) expect(existsSync(`apps/web/${file}`), file).toBe(true);
    const mocked = new Set(webFilesWithModuleMocks('apps/web'));
    expect(WEB_HAPPY_DOM_FILES.filter((file) => mocked.has(file))).toEqual([]);
  });
});
