/** The console Orders page of one event (by its code), e.g. `/events/ABCD/orders`. */
export const ordersPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/orders`;
