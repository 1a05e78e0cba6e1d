import { z } from 'zod';
import { EVENT_LIMITS } from '../rules/event-rules.ts';
import { isValidPrinterPoolName } from '../rules/text-rules.ts';
import { defineEndpoint, OWNER_PREFIX } from './endpoint.ts';
import { keyBody } from './events.ts';
import { idSchema } from './users.ts';

/**
 * Printing (issue 12; albums spec §7.2, owner console §3, §5): print calls that queue sheets on a
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

const photoUids = z
  .array(z.string().trim().min(1, 'not_found').max(100, 'not_found'), {
    error: 'photos_required',
  })
  .min(1, 'photos_required')
  .max(EVENT_LIMITS.printCountMax, 'per_request_count_error')
  .describe('Photos to print, in placeholder order');
const printingCount = z
  .number({ error: 'photos_copy_count_error' })
  .int('photos_copy_count_error')
  .min(1, 'photos_copy_count_error')
  .max(EVENT_LIMITS.printCountMax, 'photos_copy_count_error')
  .optional()
  .describe('Copies of each sheet (default 1; at most the event’s max_print_copies_count)');
const poolName = z
  .string({ error: 'printer_pool_name_invalid' })
  .min(1, 'printer_pool_name_invalid')
  .refine(isValidPrinterPoolName, 'printer_pool_name_invalid')
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
    'The kiosk twin of print-with-queue (private or event-owner key): queue photos of the key’s event; retries with the same client request id print once',
  body: z.object({
    ...keyBody,
    printable_photo_uid_array: photoUids,
    printing_count: printingCount,
    printer_pool_name: poolName,
    attUid: z.string().max(100).optional(),
    client_request_id: clientRequestId,
  }),
  result: printResult,
  errors: ['invalid_key', 'unauthorized_user', ...printErrors],
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
  }),
  errors: ['event_not_found', 'printer_pool_name_invalid'],
});
