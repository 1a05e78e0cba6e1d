import { z } from 'zod';
import { isValidPrinterPoolName } from '../../rules/text-rules.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { printCopiesField, printPhotoUidsField } from './print-fields.ts';
import { kioskKeyBody } from '../events/events.ts';
import { idSchema } from '../identity/users.ts';

/**
 * Printing (albums spec §7.2, owner console §3, §5): print calls that queue sheets on a
 * printer pool, and the print desk's job list. Limits are the event's (`max_print_*`, ≤ 20); the
 * photo count is a multiple of the event's placeholder count (photos per sheet).
 */

export const PRINT_JOB_STATES = [
  'queued',
  'rendering',
  'sent',
  'printing',
  'printed',
  'failed',
  'cancelled',
] as const;

const photoUids = printPhotoUidsField('Photos to print, in placeholder order');
const printingCount = printCopiesField(
  'Copies of each sheet (default 1; at most the event’s max_print_copies_count)',
);
/** A printer pool's name as a call names it (the event's own pools are checked by the service). */
const printerPoolName = z
  .string({ error: 'printer_pool_name_invalid' })
  .min(1, 'printer_pool_name_invalid')
  .refine(isValidPrinterPoolName, 'printer_pool_name_invalid');
const poolName = printerPoolName
  .optional()
  .describe('One of the event’s printer pools (case-sensitive); default `Default`');
const clientRequestId = z
  .string({ error: 'invalid_request' })
  .trim()
  .min(8, 'invalid_request')
  .max(100, 'invalid_request')
  .optional()
  .describe('Client-chosen id: a retried request with the same id queues nothing more');

const printResult = z.object({
  event_id: z.number().int(),
  printer_pool_name: z.string(),
  print_job_ids: z.array(z.number().int()),
  sheet_count: z.number().int(),
  copies: z.number().int(),
  /** 1 when an earlier request with the same client request id already queued these sheets. */
  replayed: z.union([z.literal(0), z.literal(1)]),
});

const printErrors = [
  'not_found',
  'photos_required',
  'per_request_count_error',
  'photos_copy_count_error',
  'print_count_placeholder_error',
  'printer_pool_name_invalid',
  'printing_not_active',
  'photo_not_printable',
  'invalid_request',
] as const;

export const printWithQueue = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/print-with-queue`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'Queue photos of the event for printing on a printer pool: sheets of the event’s placeholder count, each printed `printing_count` times',
  body: z.object({
    event_id: idSchema,
    printable_photo_uid_array: photoUids,
    printing_count: printingCount,
    printer_pool_name: poolName,
    attUid: z.string().max(100).optional().describe('Attendee the prints are for (recorded only)'),
    client_request_id: clientRequestId,
  }),
  result: printResult,
  errors: ['event_not_found', ...printErrors],
});

export const publicPrintWithQueue = defineEndpoint({
  path: '/photo/print-with-queue',
  auth: 'key',
  tag: 'printing',
  summary:
    'The kiosk twin of print-with-queue (the private key with the event’s display token `display`): queue photos the key’s album shows; retries with the same client request id print once',
  body: z.object({
    ...kioskKeyBody,
    printable_photo_uid_array: photoUids,
    printing_count: printingCount,
    printer_pool_name: poolName,
    attUid: z.string().max(100).optional(),
    client_request_id: clientRequestId,
  }),
  result: printResult,
  errors: ['invalid_key', 'unauthorized_user', ...printErrors],
});

const storyErrors = [
  'not_found',
  'photos_required',
  'per_request_count_error',
  'photos_copy_count_error',
  'printer_pool_name_invalid',
  'printing_not_active',
  'photo_not_printable',
  'invalid_request',
  'story_photo_count_error',
  'story_tags_missing',
] as const;

const storyBody = {
  printable_photo_uid_array: printPhotoUidsField(
    'The guest’s chosen photos, in the order of the story template’s placeholders',
  ),
  printing_count: printingCount,
  printer_pool_name: poolName.describe(
    'The kiosk’s stories pool dropdown (one of the event’s pools); default the event’s `storiesPrintPool`, else its first pool',
  ),
  attUid: z.string().max(100).optional(),
  client_request_id: clientRequestId,
};

/**
 * Stories (owner console §3 `storiesPrintPool`, `requiredTagsToGenerateStory`; decided in
 * docs/adr/0009-story-sheets.md): a story is ONE sheet combining the guest's chosen photos on the
 * event's story template, printed on the stories pool.
 */
export const printStory = defineEndpoint({
  path: `${OWNER_PREFIX}/photo/print-story`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'Print a story: one sheet combining the chosen photos on the event’s story template (its first print template with more than one placeholder, else a grid of 2 to 4 photos), on the stories print pool; every photo must carry the event’s required story tags',
  body: z.object({ event_id: idSchema, ...storyBody }),
  result: printResult,
  errors: ['event_not_found', ...storyErrors],
});

export const publicPrintStory = defineEndpoint({
  path: '/photo/print-story',
  auth: 'key',
  tag: 'printing',
  summary:
    'The kiosk twin of print-story (the private key with the event’s display token `display`); retries with the same client request id print once',
  body: z.object({ ...kioskKeyBody, ...storyBody }),
  result: printResult,
  errors: ['invalid_key', 'unauthorized_user', ...storyErrors],
});

export const printJobSchema = z.object({
  id: z.number().int(),
  printer_pool_name: z.string(),
  state: z.enum(PRINT_JOB_STATES),
  photo_uids: z.array(z.string()),
  copies: z.number().int(),
  source: z.string(),
  printer: z.string().nullable(),
  error: z.string().nullable(),
  reprint_reason: z.string().nullable(),
  /** Thumbnails of the sheet's photos, in placeholder order (for the print desk). */
  photo_thumbnails: z.array(z.string()),
  created_date: z.string(),
  updated_date: z.string(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

export const printJobList = defineEndpoint({
  path: `${OWNER_PREFIX}/print-job/list`,
  auth: 'owner',
  tag: 'printing',
  summary: 'The print desk: the event’s print jobs, newest first, with counts per state',
  body: z.object({
    event_id: idSchema,
    printer_pool_name: poolName,
  }),
  result: z.object({
    jobs: z.array(printJobSchema),
    counts: z.record(z.string(), z.number().int()),
    /** The event's pools (its list when pools are on, and `Default`) and which are paused. */
    pools: z.array(z.object({ name: z.string(), paused: z.union([z.literal(0), z.literal(1)]) })),
    /** Sheets printed (copies counted) per printer. */
    printed_per_printer: z.array(z.object({ printer: z.string(), sheets: z.number().int() })),
  }),
  errors: ['event_not_found', 'printer_pool_name_invalid'],
});

const printJobIdField = idSchema.describe('A print job of the event');

export const printJobCancel = defineEndpoint({
  path: `${OWNER_PREFIX}/print-job/cancel`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'The print desk: cancels a sheet not yet printing (queued, rendering or waiting for an agent)',
  body: z.object({ event_id: idSchema, print_job_id: printJobIdField }),
  result: printJobSchema,
  errors: ['event_not_found', 'not_found', 'print_job_not_cancellable'],
});

export const printJobReprint = defineEndpoint({
  path: `${OWNER_PREFIX}/print-job/reprint`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'The print desk: prints a finished sheet again (printed, failed or cancelled) as a new job, logged with its reason',
  body: z.object({
    event_id: idSchema,
    print_job_id: printJobIdField,
    reason: z
      .string({ error: 'reprint_reason_required' })
      .trim()
      .min(1, 'reprint_reason_required')
      .max(200, 'reprint_reason_required'),
    printing_count: printCopiesField('Copies of the reprint (default: the job’s copies)'),
  }),
  result: printJobSchema,
  errors: [
    'event_not_found',
    'not_found',
    'print_job_not_reprintable',
    'reprint_reason_required',
    'photos_copy_count_error',
    'printing_not_active',
  ],
});

export const printPoolPause = defineEndpoint({
  path: `${OWNER_PREFIX}/print-pool/pause`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'The print desk: pauses (`paused` 1) or resumes (0) one of the event’s pools; a paused pool’s sheets wait in the queue',
  body: z.object({
    event_id: idSchema,
    printer_pool_name: printerPoolName,
    paused: z.union([z.literal(0), z.literal(1)], { error: 'invalid_value' }),
  }),
  result: z.object({
    printer_pool_name: z.string(),
    paused: z.union([z.literal(0), z.literal(1)]),
  }),
  errors: ['event_not_found', 'printer_pool_name_invalid', 'invalid_value'],
});

const stationKey = z
  .string({ error: 'invalid_key' })
  .trim()
  .min(20, 'invalid_key')
  .max(200, 'invalid_key')
  .describe('The print station key (`fbps_…`)');

export const printStationCreate = defineEndpoint({
  path: `${OWNER_PREFIX}/print-station/create`,
  auth: 'owner',
  tag: 'printing',
  summary:
    'Creates a print station key for one pool of the event: a print agent with it takes that pool’s sheets (shown once)',
  body: z.object({
    event_id: idSchema,
    printer_pool_name: printerPoolName,
    name: z.string().trim().min(1, 'invalid_value').max(80, 'invalid_value'),
  }),
  result: z.object({ id: z.number().int(), printer_pool_name: z.string(), key: z.string() }),
  errors: ['event_not_found', 'printer_pool_name_invalid', 'invalid_value'],
});

export const printStationList = defineEndpoint({
  path: `${OWNER_PREFIX}/print-station/list`,
  auth: 'owner',
  tag: 'printing',
  summary: 'The event’s print stations with their printers’ last reported state (no keys)',
  body: z.object({ event_id: idSchema }),
  result: z.object({
    stations: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        printer_pool_name: z.string(),
        revoked: z.union([z.literal(0), z.literal(1)]),
        last_seen_date: z.string().nullable(),
        printers: z.array(
          z.object({ name: z.string(), state: z.string(), reasons: z.array(z.string()) }),
        ),
      }),
    ),
  }),
  errors: ['event_not_found'],
});

export const printStationRevoke = defineEndpoint({
  path: `${OWNER_PREFIX}/print-station/revoke`,
  auth: 'owner',
  tag: 'printing',
  summary: 'Revokes a print station key: its agent takes nothing more',
  body: z.object({ event_id: idSchema, id: idSchema }),
  result: z.object({ id: z.number().int() }),
  errors: ['event_not_found', 'not_found'],
});

export const PRINTER_STATES = ['idle', 'processing', 'stopped', 'offline'] as const;
const reportedPrinter = z.object({
  name: z.string().trim().min(1).max(127),
  state: z.enum(PRINTER_STATES),
  reasons: z.array(z.string().max(80)).max(20),
});

export const printAgentLease = defineEndpoint({
  path: '/print-agent/lease',
  auth: 'none',
  tag: 'printing',
  summary:
    'A print agent reports its printers and takes the next sheet of its pool under a lease (60 s; renewed by reporting `printing`). No sheet: `job` is null',
  body: z.object({ station_key: stationKey, printers: z.array(reportedPrinter).max(50) }),
  result: z.object({
    printer_pool_name: z.string(),
    lease_seconds: z.number().int(),
    job: z
      .object({
        id: z.number().int(),
        lease_token: z.string(),
        copies: z.number().int(),
        /** The rendered sheet (JPEG with JFIF/EXIF, 300 dpi), base64. */
        sheet_base64: z.string(),
        media: z.string(),
      })
      .nullable(),
  }),
  errors: ['invalid_key'],
});

export const printAgentReport = defineEndpoint({
  path: '/print-agent/report',
  auth: 'none',
  tag: 'printing',
  summary:
    'A print agent reports a leased sheet: printed on a printer, failed (CUPS aborted it), cancelled (cancelled by hand in CUPS), handed back (`sent`) for another printer of the pool, or still `printing` (renews the lease; a note such as paper out is shown on the desk). `printers` updates the station’s printer states',
  body: z.object({
    station_key: stationKey,
    job_id: idSchema,
    lease_token: z.string().min(1).max(100),
    state: z.enum(['printed', 'failed', 'cancelled', 'sent', 'printing']),
    printer: z.string().max(127).nullable(),
    error: z.string().max(500).nullable(),
    printers: z.array(reportedPrinter).max(50).optional(),
  }),
  result: z.object({ id: z.number().int(), state: z.enum(PRINT_JOB_STATES) }),
  errors: ['invalid_key', 'not_found'],
});
