/** The console moderation queue of one event (by its code), e.g. `/events/ABCD/moderation`. */
export const moderationPathFor = (eventCode: string): string =>
  `/events/${encodeURIComponent(eventCode)}/moderation`;
