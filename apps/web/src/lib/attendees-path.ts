/** The console Attendees page of one event (by its code), e.g. `/events/ABCD/attendees`. */
export const attendeesPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/attendees`;
