// The whole test suite, as Vitest projects. See docs/testing.md.
//   npm test                          every project
//   npm test -- --project server-pg   one project (repeat --project for more)
import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { journeysAtOnce } from './scripts/vitest/journeys.ts';
import { DurationSequencer } from './scripts/vitest/sequencer.ts';
import { postgresIncludes } from './scripts/vitest/server-engines.ts';
import { WEB_HAPPY_DOM_FILES } from './scripts/vitest/web-dom.ts';
import { webFilesWithModuleMocks } from './scripts/vitest/web-isolation.ts';

const webSetup = 'apps/web/src/test/setup.ts';
const webViteConfig = 'apps/web/vite.config.ts';
const e2eSetup = 'e2e/global-setup.ts';
const dbTemplateSetup = 'apps/server/test/helpers/db-template-setup.ts';
const SERVER_UNIT_TESTS = 'apps/server/test/**/*.unit.test.ts';
const serialSetup = 'scripts/vitest/serial-setup.ts';
/** Journeys beside the other projects instead of after them (see the e2e project). */
const journeysBeside = process.env.FLASHBULB_TEST_JOURNEYS === 'beside';

// API tests boot the app and migrate a database per file: give hooks room on a 2-core machine.
const serverTimeouts = { testTimeout: 60_000, hookTimeout: 120_000 };

/**
 * The one error outside tests that is let pass: React scheduling an update from a timer that fires
 * after a web test file has finished and its jsdom window is gone (`window is not defined` inside
 * react-dom, from a Mantine transition's timeout). A browser has no such moment. It failed a
 * quiet CI run that had no failed test; every other error outside a test still fails the run.
 */
const afterTeardownReactUpdate = (error: { name?: string; message?: string; stack?: string }) =>
  error.name === 'ReferenceError' &&
  error.message === 'window is not defined' &&
  /react-dom/.test(error.stack ?? '');

const webMockFiles = existsSync('apps/web/src') ? webFilesWithModuleMocks('apps/web') : [];

/** The web projects' shared settings. */
const webProject = {
  // Inherit apps/web/vite.config.ts (React plugin, aliases) so tests compile like the app.
  ...(existsSync(webViteConfig) ? { extends: `./${webViteConfig}` } : {}),
  root: 'apps/web',
  // JSX without the React plugin too (the tsconfig says react-jsx).
  oxc: { jsx: { runtime: 'automatic' as const } },
  test: {
    environment: 'jsdom',
    // Paths are relative to the project root (apps/web).
    setupFiles: existsSync(webSetup) ? ['src/test/setup.ts'] : [],
  },
};

export default defineConfig({
  test: {
    // Two cores here and in CI; more workers only thrash.
    maxWorkers: 2,
    // Longest files first by the committed table of measured durations (a fresh clone has no
    // Vitest cache to sort by), the journeys one at a time beside the rest: see
    // scripts/vitest/schedule.ts and docs/testing.md, "The schedule".
    sequence: { sequencer: DurationSequencer },
    onUnhandledError: (error) => !afterTeardownReactUpdate(error),
    projects: [
      {
        test: {
          name: 'shared',
          environment: 'node',
          include: ['packages/shared/test/**/*.test.ts'],
        },
      },
      {
        // Repository tooling: the ESLint rules of eslint.config.js (scripts/eslint/).
        test: {
          name: 'tooling',
          environment: 'node',
          include: ['scripts/**/*.test.ts'],
          // Some read and parse every source file (import circles, settings readers): seconds
          // on a busy two-core machine, not Vitest's default 5.
          testTimeout: 60_000,
        },
      },
      {
        // Unit tests of the server's rules on plain values and in-memory fakes
        // (`<domain>/*.unit.test.ts`): no database, so no template to migrate first; milliseconds.
        test: {
          name: 'server-unit',
          environment: 'node',
          include: [SERVER_UNIT_TESTS],
        },
      },
      {
        test: {
          name: 'server-pglite',
          environment: 'node',
          // Every server file but the unit tests; the engine rule is in
          // scripts/vitest/server-engines.ts.
          include: ['apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SERVER_UNIT_TESTS],
          // One worker process runs file after file without re-importing the server's modules
          // (≈ 2.7 s CPU a file; 19 % of four identity files' CPU). Each file still builds its own
          // app and database; a file that changes process-wide state puts it back (see
          // docs/testing.md, "Cheap set-ups").
          isolate: false,
          env: { FLASHBULB_TEST_DB: 'pglite' },
          // One migrated template per run; each file loads a copy (see the file).
          globalSetup: [dbTemplateSetup],
          ...serverTimeouts,
        },
      },
      {
        test: {
          name: 'server-pg',
          environment: 'node',
          // Only the files whose subject is the database engine (scripts/vitest/server-engines.ts);
          // FLASHBULB_TEST_ALL_ENGINES=1 runs every server file here too.
          include: postgresIncludes(process.env.FLASHBULB_TEST_ALL_ENGINES === '1'),
          // The same files run without isolation in server-pglite; see there.
          isolate: false,
          env: { FLASHBULB_TEST_DB: 'postgres' },
          // Starts a throwaway PostgreSQL cluster and exposes its URL as
          // process.env.FLASHBULB_TEST_PG_URL (and inject('pgUrl')); see the file.
          globalSetup: ['scripts/vitest/pg-global-setup.ts', dbTemplateSetup],
          ...serverTimeouts,
        },
      },
      {
        ...webProject,
        test: {
          ...webProject.test,
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...webMockFiles, ...WEB_HAPPY_DOM_FILES],
          // One worker runs file after file with React, Mantine, the texts and the app imported
          // once: 40 % less CPU than a fresh module registry per file. The set-up file resets
          // what a file could leave behind (src/test/setup.ts).
          isolate: false,
        },
      },
      {
        // The web files that run on happy-dom: cheaper than jsdom where it answers them alike
        // (the list and why the others stay on jsdom: scripts/vitest/web-dom.ts).
        ...webProject,
        test: {
          ...webProject.test,
          name: 'web-happy-dom',
          environment: 'happy-dom',
          include: [...WEB_HAPPY_DOM_FILES],
          // As in `web`.
          isolate: false,
        },
      },
      {
        // The web files that replace a module with vi.mock: each in its own registry.
        ...webProject,
        test: { ...webProject.test, name: 'web-isolated', include: webMockFiles },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          // Builds the web app and seeds the journeys' database in the background, and starts
          // the journeys' turn lock (how many at once: see below).
          globalSetup: existsSync(e2eSetup) ? [e2eSetup] : [],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // `expect.poll` waits for what the page shows; Vitest's 1 s default is shorter than a
          // page reload with its first photos on a busy two-core runner.
          expect: { poll: { timeout: 15_000 } },
          // By default after every other project (group 1), three journeys at a time: a journey
          // leaves most of a core idle while it waits for its page, its server's jobs and its
          // timers (scripts/vitest/journeys.ts has the figures). The turn lock
          // (scripts/vitest/serial-lock.ts) gives as many turns as there are workers, and the
          // first only after the web build and the seed. FLASHBULB_TEST_JOURNEYS=beside runs them
          // in group 0 beside the rest instead, one at a time: the sequencer puts the next journey
          // at the head of the queue when the previous one should end, and the lock holds one that
          // comes early. Measured slower on a fresh clone (docs/testing.md, "The schedule").
          setupFiles: [serialSetup],
          ...(journeysBeside ? {} : { maxWorkers: journeysAtOnce(), sequence: { groupOrder: 1 } }),
          // Each worker runs its files one after another without re-importing modules: each
          // journey's server runs in the test's process (e2e/support/server.ts), so the server's
          // modules load once per worker, not once per file, when journeys follow each other.
          // The server's code already runs many apps in one process without isolation
          // (server-pglite).
          isolate: false,
        },
      },
    ],
  },
});
