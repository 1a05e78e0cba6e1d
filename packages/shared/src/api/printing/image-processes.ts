import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';

/** Image processes: named processing steps of an organisation, some of which print automatically. */

export const imageProcessSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  organisation_id: z.number().int(),
  kind: z.string().describe('What the step does, e.g. resize, watermark, print'),
  auto_print: z.boolean(),
});

export const imageProcessList = defineEndpoint({
  path: `${OWNER_PREFIX}/image-process/list/retrieve`,
  auth: 'owner',
  tag: 'image processes',
  summary: 'Named processing steps of an organisation',
  body: z.object({ organisation_id: idSchema.optional() }),
  result: z.object({ image_processes: z.array(imageProcessSchema) }),
  errors: ['forbidden'],
});

export const autoPrintProcesses = defineEndpoint({
  path: `${OWNER_PREFIX}/event/auto-print-processes`,
  auth: 'owner',
  tag: 'events',
  summary: 'The event’s image processes that print automatically',
  body: z.object({ event_id: idSchema }),
  result: z.object({ image_processes: z.array(imageProcessSchema) }),
  errors: ['event_not_found'],
});
