import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';

/**
 * Backups and the storage integrity check (operations; docs/deploy.md "Backups and integrity").
 * Super users only: a backup holds every organisation's data, the check sees every object.
 */

const errors = ['unauthorized_user', 'forbidden'] as const;

export const backupResultSchema = z.object({
  path: z.string().describe('The backup folder on the server'),
  created_date: z.string(),
  duration_ms: z.number(),
  bytes: z.number().describe('Size of the backup folder'),
  objects: z.number(),
  rows: z.number(),
  removed: z.array(z.string()).describe('Older backups removed by `keep`'),
});
export type BackupResult = z.infer<typeof backupResultSchema>;

export const backupCreate = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/backup/create`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'Writes a backup (a consistent database snapshot and every stored object with its SHA-256) into the server’s <data dir>/backups',
  body: z.object({
    keep: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(1, 'invalid_value')
      .max(1000, 'invalid_value')
      .optional()
      .describe('Then remove all but the newest `keep` backups there'),
  }),
  result: backupResultSchema,
  errors: [...errors, 'backup_running'],
});

export const backupSummarySchema = z.object({
  path: z.string(),
  created_date: z.string(),
  duration_ms: z.number(),
  bytes: z.number(),
  objects: z.number(),
  rows: z.number(),
  engine: z.string(),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupList = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/backup/list`,
  auth: 'owner',
  tag: 'operations',
  summary: 'The complete backups in the server’s <data dir>/backups, newest first (at most 50)',
  body: z.object({}),
  result: z.object({ folder: z.string(), backups: z.array(backupSummarySchema) }),
  errors,
});

export const INTEGRITY_PROBLEMS = ['missing', 'untracked', 'checksum_mismatch'] as const;
export type IntegrityProblemKind = (typeof INTEGRITY_PROBLEMS)[number];
export const INTEGRITY_ACTIONS = ['re-derive', 're-attach', 'delete'] as const;
export type IntegrityAction = (typeof INTEGRITY_ACTIONS)[number];

export const integrityProblemSchema = z.object({
  problem: z.enum(INTEGRITY_PROBLEMS),
  key: z.string().describe('The storage key'),
  /** What names it: `photos.original`, `photos.derivative:thumbnail`, `face_selfies`, … */
  owner: z.string().nullable().describe('The table (and role) naming the key; null: untracked'),
  owner_id: z.number().nullable(),
  event_id: z.number().nullable(),
  size: z.number().nullable().describe('Bytes in storage (untracked, mismatch)'),
  actions: z.array(z.enum(INTEGRITY_ACTIONS)).describe('What the console may do about it'),
});
export type IntegrityProblem = z.infer<typeof integrityProblemSchema>;

/** How many problems of each kind a check found (a kept report's summary says the same). */
const problemCounts = {
  missing: z.number(),
  untracked: z.number(),
  checksum_mismatch: z.number(),
} satisfies Record<IntegrityProblemKind, z.ZodNumber>;

export const integrityReportSchema = z.object({
  checked_date: z.string(),
  duration_ms: z.number(),
  objects_in_storage: z.number(),
  objects_named: z.number().describe('Keys named by rows'),
  checksums_verified: z.number(),
  ...problemCounts,
  problems: z.array(integrityProblemSchema).describe('At most 1,000, missing first'),
});
export type IntegrityReport = z.infer<typeof integrityReportSchema>;

export const integrityCheck = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/integrity/check`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'Compares the objects rows name with what storage holds: missing objects, objects no row owns, checksum mismatches',
  body: z.object({}),
  result: integrityReportSchema,
  errors,
});

export const integrityRepair = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/integrity/repair`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'Acts on one problem of the check: re-derive a photo’s missing files, re-attach an untracked original to its photo, or delete an untracked object',
  body: z.object({
    key: z.string({ error: 'invalid_value' }).min(1, 'invalid_value').max(1024, 'invalid_value'),
    action: z.enum(INTEGRITY_ACTIONS, { error: 'invalid_value' }),
  }),
  result: z.object({ done: z.literal(true) }),
  errors: [...errors, 'integrity_object_unknown', 'integrity_action_unavailable'],
});

// ---- restore while the server runs --------------------------------------------------------------

export const backupRestore = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/backup/restore`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'Restores one of the server’s backups (named as `backupList` answers it) while the server runs: verified first, then the server answers 503 `maintenance` to every other call until the database and objects are back, all or nothing',
  body: z.object({
    path: z
      .string({ error: 'invalid_value' })
      .min(1, 'invalid_value')
      .max(4096, 'invalid_value')
      .describe('A backup folder inside the server’s <data dir>/backups (from `backupList`)'),
  }),
  result: z.object({
    objects: z.number().describe('Objects written back'),
    rows: z.number(),
    duration_ms: z.number(),
  }),
  errors: [
    ...errors,
    'backup_not_found',
    'backup_running',
    'backup_busy',
    'backup_corrupt',
    'backup_schema_newer',
    'backup_version_unsupported',
    'backup_secret_mismatch',
  ],
});

// ---- scheduled backups ------------------------------------------------------------------------

export const BACKUP_EVERY_HOURS_MAX = 168;
export const BACKUP_KEEP_MAX = 1000;

/** When the server backs itself up: never, daily at a UTC time, or every N hours. */
export const backupScheduleSchema = z.discriminatedUnion(
  'kind',
  [
    // Strict: a field of another kind (`at` with `off`) is refused, not silently dropped.
    z.strictObject({ kind: z.literal('off') }, { error: 'invalid_value' }),
    z.strictObject(
      {
        kind: z.literal('daily'),
        at: z
          .string({ error: 'invalid_value' })
          .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalid_value')
          .describe('HH:MM, UTC'),
      },
      { error: 'invalid_value' },
    ),
    z.strictObject(
      {
        kind: z.literal('hours'),
        every: z
          .number({ error: 'invalid_value' })
          .int('invalid_value')
          .min(1, 'invalid_value')
          .max(BACKUP_EVERY_HOURS_MAX, 'invalid_value'),
      },
      { error: 'invalid_value' },
    ),
  ],
  { error: 'invalid_value' },
);
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const backupRunSchema = z.object({
  trigger: z.enum(['schedule', 'manual']),
  started_date: z.string(),
  duration_ms: z.number().nullable(),
  bytes: z.number().nullable(),
  path: z.string().nullable(),
  result: z.enum(['ok', 'failed']),
  error: z.string().nullable().describe('The error key of a failed run'),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

export const backupScheduleStateSchema = z.object({
  schedule: backupScheduleSchema,
  keep: z.number().int(),
  last_run: backupRunSchema.nullable(),
  next_run_date: z.string().nullable().describe('null: the schedule is off'),
});
export type BackupScheduleState = z.infer<typeof backupScheduleStateSchema>;

export const backupScheduleGet = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/backup/schedule`,
  auth: 'owner',
  tag: 'operations',
  summary: 'The backup schedule and retention, the last backup the server made and the next run',
  body: z.object({}),
  result: backupScheduleStateSchema,
  errors,
});

export const backupScheduleSet = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/backup/schedule/set`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'Sets when the server backs itself up (off, daily at HH:MM UTC, every N hours) and how many backups it keeps',
  body: z.object({
    schedule: backupScheduleSchema,
    keep: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(1, 'invalid_value')
      .max(BACKUP_KEEP_MAX, 'invalid_value'),
  }),
  result: backupScheduleStateSchema,
  errors,
});

// ---- integrity reports kept -------------------------------------------------------------------

export const integrityReportSummarySchema = z.object({
  id: z.number(),
  trigger: z.enum(['schedule', 'manual']),
  checked_date: z.string(),
  ...problemCounts,
});
export type IntegrityReportSummary = z.infer<typeof integrityReportSummarySchema>;

export const integrityReports = defineEndpoint({
  path: `${OWNER_PREFIX}/operations/integrity/reports`,
  auth: 'owner',
  tag: 'operations',
  summary:
    'The integrity check’s kept reports (nightly and on demand), newest first, and the newest one in full',
  body: z.object({}),
  result: z.object({
    reports: z.array(integrityReportSummarySchema),
    latest: integrityReportSchema.nullable(),
  }),
  errors,
});
