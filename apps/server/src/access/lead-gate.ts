import type { EventRecord } from '../repositories/events/event.repository.ts';
import type { Principal } from './principal.ts';

/** Key types whose album calls the lead gate guards: the guest links of the event. */
const GATED_KEYS: ReadonlySet<string> = new Set(['public', 'private']);

/**
 * The lead gate's reach: the event whose lead (or display) token this caller must show, or null
 * when the gate does not ask. It asks the public and private keys of an event that collects
 * leads; operators, event-owner, attendee and robot keys are never asked.
 */
/** What a guest's album call shows the lead gate: a lead's token, or a screen's display token. */
export interface LeadGatePass {
  lead_token?: string | undefined;
  display?: string | undefined;
}

/**
 * The lead gate itself (LeadService.requireLead), given to the services whose guest calls it
 * guards (the guest photo list, the live stream, album downloads): quiet when it holds, else
 * `lead_required`, changing nothing.
 */
export type LeadGate = (principal: Principal, pass: LeadGatePass) => Promise<void>;

export const leadGatedEvent = (principal: Principal): EventRecord | null => {
  if (principal.kind !== 'key' || !principal.event) return null;
  if (!GATED_KEYS.has(principal.keyType) || principal.event.row.collect_leads !== 1) return null;
  return principal.event;
};
