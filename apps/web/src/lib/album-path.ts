/** The console album of one event (by its code), e.g. `/events/ABCD/album`; add `#…` for a filter. */
export const albumPathFor = (eventCode: string, hash = ''): string =>
  `/events/${encodeURIComponent(eventCode)}/album${hash ? `#${hash.replace(/^#/, '')}` : ''}`;
