// Which database engines each server test file runs on (vitest.config.ts reads this; see
// docs/testing.md, "Engines").
//
// The rule: every file in apps/server/test runs on PGlite (project `server-pglite`, the embedded
// engine `npm start` uses). A file whose subject is the database itself — migrations, paging,
// jobs on pg-boss, crash safety, scale-out, database maintenance, locks, the throttle and rate
// limit store, engine-specific SQL — runs on PostgreSQL too (project `server-pg`): it is listed
// here. A new file gets PGlite; add it here when the engine can change its outcome. The rest of
// the suite goes through the same repositories on both engines' SQL, and running it twice took
// half of every run.
//
// FLASHBULB_TEST_ALL_ENGINES=1 runs every file on PostgreSQL too (the whole suite on both engines,
// e.g. before merging a change to a repository or the schema).

/** Server test files (under apps/server/test) that run on PostgreSQL as well as on PGlite. */
export const BOTH_ENGINES: readonly string[] = [
  // Migrations and the engine's own start-up.
  'platform/database.test.ts',
  'messaging/outbox-migration.test.ts',
  'platform/cli.test.ts',
  // The container boots with its worker (job queue, handlers) on each engine.
  'platform/container.test.ts',
  // Database maintenance, the data-dir lock, crash safety.
  'operations/database-maintenance.test.ts',
  'platform/data-dir-lock.test.ts',
  // Backups (a snapshot of every table, a restore in one transaction) and the integrity check.
  'operations/backup.test.ts',
  'operations/integrity.test.ts',
  'platform/crash-safety.test.ts',
  // Jobs (pg-boss), the outbox, several processes on one database, restarts mid-job.
  'platform/jobs-registry.test.ts',
  'platform/jobs-scale-out.test.ts',
  'messaging/outbox.test.ts',
  'photos/ingest.test.ts',
  'photos/stuck.test.ts',
  // Two completions of one upload at once: one enqueue (a conditional update across connections).
  'photos/upload-completion-race.test.ts',
  // Keyset paging over the photo list (SQL written by hand).
  'photos/list-paging.test.ts',
  // Moderation: approval's conditional update (CASE on the row as locked), the release job,
  // rejection's delete with owed storage in one transaction, the queue's jsonb tag filter.
  'photos/moderation.test.ts',
  // The throttle (sign-in lockout) and the HTTP rate-limit store (raw SQL).
  'identity/lockout.test.ts',
  'platform/http.test.ts',
  // Quotas counted in rate_limit_hits (raw SQL, atomic takes across processes).
  'operations/quotas.test.ts',
  // Insight: counts added up by raw SQL over many tables (casts, distinct over text, epoch slots).
  'operations/insight.test.ts',
  // Face vectors and their similarity search (pgvector SQL).
  'faces/index.test.ts',
  // Guest budgets counted in the database (raw SQL), held across two processes on one database.
  'messaging/guest-relay.test.ts',
  'attendees/attendee-enumeration.test.ts',
  // Prints bought at a kiosk: two kiosks spending the last print at once (a conditional update).
  'printing/paid-prints.test.ts',
];

export const SERVER_TEST_DIR = 'apps/server/test';

/** The `include` globs of the `server-pg` project. */
export const postgresIncludes = (allEngines: boolean): string[] =>
  allEngines
    ? [`${SERVER_TEST_DIR}/**/*.test.ts`]
    : BOTH_ENGINES.map((file) => `${SERVER_TEST_DIR}/${file}`);
