import { clientAddress } from '../lib/request-context.ts';
import { TEN_MINUTES_MS, type GuestLimits, type UsageBudgets } from './guest-limits.ts';

/**
 * Every attendee id a caller presents (an attendee key, or an `attendee_uid` a guest or kiosk call
 * names) is looked up under budgets counted in the database, so they hold across processes: all
 * lookups per client address, and failed ones (no such id, or a booth-chosen id without its
 * private id) per address and per event where the call names one. Enumerating albums takes
 * failures; after the budget they are refused (429 `too_many_requests`) before any lookup.
 */
export class AttendeeLookupLimits {
  constructor(
    private readonly budgets: UsageBudgets,
    private readonly limits: GuestLimits,
  ) {}

  private failureBudgets(address: string, eventId: number | undefined) {
    return [
      { key: `attendee:fail:address:${address}`, limit: this.limits.attendeeFailuresPerAddress },
      ...(eventId !== undefined
        ? [{ key: `attendee:fail:event:${eventId}`, limit: this.limits.attendeeFailuresPerEvent }]
        : []),
    ];
  }

  /** Before a lookup: refuses when a budget is used up, and counts the lookup. */
  async before(eventId?: number): Promise<void> {
    const address = clientAddress();
    if (address === null) return;
    await this.budgets.check(this.failureBudgets(address, eventId));
    await this.budgets.spend(
      [{ key: `attendee:lookup:address:${address}`, limit: this.limits.attendeeLookupsPerAddress }],
      1,
      TEN_MINUTES_MS,
    );
  }

  /** After a lookup that found nothing to open: counts the failure. */
  async failed(eventId?: number): Promise<void> {
    const address = clientAddress();
    if (address === null) return;
    await this.budgets.count(this.failureBudgets(address, eventId), 1, TEN_MINUTES_MS);
  }
}
