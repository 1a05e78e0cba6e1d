import { z } from 'zod';

/**
 * The lead gate on the guest album calls (issue 15 item 6; owner-console §3 `collect_leads`):
 * when the event collects leads, the public and private keys' photo list and album download are
 * refused with `lead_required` unless the body carries the `lead_token` the lead call answered
 * (a lead of this event that still exists). Kiosk, live-stream and slide-show screens are opened
 * by the organiser's own links (`kioskMode`, `mode=stream|slideshow`) and say so with `display`.
 */
export const leadGateBody = {
  lead_token: z
    .string({ error: 'lead_required' })
    .trim()
    .max(200, 'lead_required')
    .optional()
    .describe('The token /lead/create answered; needed while the event collects leads'),
  display: z
    .literal(1, { error: 'invalid_value' })
    .optional()
    .describe(
      'Set by kiosk, live-stream and slide-show screens (the organiser’s display links): no lead is asked there',
    ),
};
