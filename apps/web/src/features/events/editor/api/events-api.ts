import { useQuery } from '@tanstack/react-query';
import {
  createEvent,
  deleteEvent,
  EVENT_LIMITS,
  eventBasicList,
  secureProps,
  updateEvent,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';
import { fetchEventByCode } from '../../../../lib/event-by-code.ts';
import type { CreateEventBody, UpdateEventBody } from '../utils/event-form-values.ts';

export const eventQueryKeys = {
  all: ['events'] as const,
  list: () => ['events', 'basic-list'] as const,
  fullData: (code: string) => ['events', 'full-data', code] as const,
};

/** Owner-console §7: the basic list, page 1 of 5000; visibility is filtered on the page. */
export const useEventList = () =>
  useQuery({
    queryKey: eventQueryKeys.list(),
    queryFn: ({ signal }) =>
      callApi(
        eventBasicList,
        { max_size: EVENT_LIMITS.eventListPageSize, page_number: 1 },
        { signal },
      ),
  });

/**
 * The whole event by code, for the editor. Its own cache entry, not the console pages' one
 * (`useEventByCode`): the editor always starts from the stored event, never from an earlier copy
 * a page left in the cache, and a background refetch must never replace what the user is typing.
 */
export const useEventFullData = (code: string | null) =>
  useQuery({
    queryKey: eventQueryKeys.fullData(code ?? ''),
    enabled: code !== null,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnReconnect: false,
    queryFn: ({ signal }) => fetchEventByCode(code ?? '', signal),
  });

export const saveNewEvent = (body: CreateEventBody) => callApi(createEvent, body);
export const saveEventUpdate = (body: UpdateEventBody) => callApi(updateEvent, body);
export const removeEvent = (eventId: number) => callApi(deleteEvent, { event_id: eventId });
export const fetchSecureProps = (eventName: string) =>
  callApi(secureProps, { event_name: eventName });
