import { z } from 'zod';

/**
 * The lead gate on the guest album calls (owner-console §3 `collect_leads`):
 * when the event collects leads, the public and private keys' photo list and album download are
 * refused with `lead_required` unless the body carries the `lead_token` the lead call answered
 * (a lead of this event that still exists). Kiosk, live-stream and slide-show screens are opened
 * by the organiser's own links (`kioskMode`, `mode=stream|slideshow`), which carry the event's
 * display token (`display=<token>`, minted by the server, shown only to those who manage the
 * event): only that token skips the gate — a guest's `display=1` is refused like no token.
 */
export const leadGateBody = {
  lead_token: z
    .string({ error: 'lead_required' })
    .trim()
    .max(200, 'lead_required')
    .optional()
    .describe('The token /lead/create answered; needed while the event collects leads'),
  display: z
    .string({ error: 'lead_required' })
    .trim()
    .max(200, 'lead_required')
    .optional()
    .describe(
      'The event’s display token (`display_token` of the event, in the organiser’s kiosk, stream and slide-show links): no lead is asked with it; any other value is no token',
    ),
};
