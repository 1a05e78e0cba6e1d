/** The console Leads page of one event (by its code), e.g. `/events/ABCD/leads`. */
export const leadsPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/leads`;
