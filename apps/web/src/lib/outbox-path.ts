/** The console Outbox page of one event (by its code), e.g. `/events/ABCD/outbox`. */
export const outboxPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/outbox`;
