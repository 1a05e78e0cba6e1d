import { z } from 'zod';
import { EVENT_LIMITS } from '../../rules/event-rules.ts';

/**
 * Body fields every print call shares (print-with-queue, unlock-and-print): the photos to print
 * and the copies, both 1..20 with the spec's keys. The event's own max is checked by the service.
 */
export const printPhotoUidsField = (description: string) =>
  z
    .array(z.string().trim().min(1, 'not_found').max(100, 'not_found'), {
      error: 'photos_required',
    })
    .min(1, 'photos_required')
    .max(EVENT_LIMITS.printCountMax, 'per_request_count_error')
    .describe(description);

export const printCopiesField = (description: string) =>
  z
    .number({ error: 'photos_copy_count_error' })
    .int('photos_copy_count_error')
    .min(1, 'photos_copy_count_error')
    .max(EVENT_LIMITS.printCountMax, 'photos_copy_count_error')
    .optional()
    .describe(description);
