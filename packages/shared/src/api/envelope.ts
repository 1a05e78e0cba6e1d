import { z } from 'zod';

/** The error half of every reply (DESIGN.md §2). */
export const apiErrorSchema = z.object({
  type: z.enum(['global', 'field']),
  message_key: z.string().describe('Stable key from the error catalogue'),
  message: z.string().describe('English text for the key'),
  field: z.string().optional().describe('The offending field, for type "field"'),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const nokEnvelopeSchema = z.object({
  status: z.literal('nok'),
  error: apiErrorSchema,
});

export const okEnvelope = <R extends z.ZodType>(result: R) =>
  z.object({ status: z.literal('ok'), result });

export type OkEnvelope<R> = { status: 'ok'; result: R };
export type NokEnvelope = z.infer<typeof nokEnvelopeSchema>;
export type Envelope<R> = OkEnvelope<R> | NokEnvelope;
