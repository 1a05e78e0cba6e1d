import { createContext, use, useCallback } from 'react';
import type { EventClock } from '@flashbulb/shared/rules/event-time';
import { displayDate, displayDateWithZone } from './photo-image.ts';

/**
 * The clock of the event an album shows (its IANA zone or fixed offset): every photo time on the
 * album's grid, viewer and slide show reads in it. Null where no event is known (UTC then).
 */
export const EventClockContext = createContext<EventClock | null>(null);

/** Formats a photo's time in the album's event time (`displayDate`). */
export const usePhotoTime = (): ((iso: string) => string) => {
  const clock = use(EventClockContext);
  return useCallback((iso: string) => displayDate(iso, clock), [clock]);
};

/** The same with the zone's name, for the viewer's info panel. */
export const usePhotoTimeWithZone = (): ((iso: string) => string) => {
  const clock = use(EventClockContext);
  return useCallback((iso: string) => displayDateWithZone(iso, clock), [clock]);
};
