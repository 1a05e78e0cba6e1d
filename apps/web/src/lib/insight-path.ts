/** The console Insight page of one event (by its code), e.g. `/events/ABCD/insight`. */
export const insightPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/insight`;
