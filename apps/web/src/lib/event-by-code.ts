import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { eventFullData, type FlashbulbEvent } from '@flashbulb/shared';
import { ApiError, callApi } from './api-client.ts';

/**
 * The cache entry of one event for the console pages of that event (`/events/:code/…`): one key
 * for all of them, so that moving from one page of an event to another shows the event at once.
 */
export const eventByCodeQueryKey = (code: string) => ['event-by-code', code] as const;

/** The whole event by code; the call answers an array and the first item is the event. */
export const fetchEventByCode = async (
  code: string,
  signal: AbortSignal,
): Promise<FlashbulbEvent> => {
  const [event] = await callApi(eventFullData, { event_name: code }, { signal });
  if (!event) throw new ApiError('event_not_found', { status: 404 });
  return event;
};

/**
 * The event of a console page, by code. Stale at once (the default), so every page that mounts
 * reads it again behind the copy it shows: a change made on another page or by another user
 * arrives without a reload.
 */
export const useEventByCode = (code: string) =>
  useQuery({
    queryKey: eventByCodeQueryKey(code),
    queryFn: ({ signal }) => fetchEventByCode(code, signal),
  });

/** The event of the console page on screen, by the route's `:eventCode` (codes are upper case). */
export const useRouteEvent = () => {
  const { eventCode = '' } = useParams();
  return useEventByCode(eventCode.toUpperCase());
};
