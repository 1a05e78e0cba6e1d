import type { z } from 'zod';

/**
 * The check a form that sets a password adds to its schema (`.superRefine`): `confirm` must equal
 * the new password in `field`, else the error `passwords_do_not_match` lands on `confirm`.
 */
export const confirmationMatches =
  <K extends string>(field: K) =>
  (values: Record<K | 'confirm', unknown>, ctx: z.RefinementCtx): void => {
    if (values[field] !== values.confirm)
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'passwords_do_not_match' });
  };
