import { useQuery } from '@tanstack/react-query';
import {
  createEvent,
  deleteEvent,
  EVENT_LIMITS,
  eventBasicList,
  eventFullData,
  secureProps,
  updateEvent,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';
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

/** The whole event by code; the call answers an array and the first item is the event. */
export const useEventFullData = (code: string | null) =>
  useQuery({
    queryKey: eventQueryKeys.fullData(code ?? ''),
    enabled: code !== null,
    // The editor always starts from the stored event, never from an earlier copy, and a
    // background refetch must never replace what the user is typing.
    gcTime: 0,
    staleTime: Infinity,
    refetchOnReconnect: false,
    queryFn: async ({ signal }): Promise<FlashbulbEvent> => {
      const [event] = await callApi(eventFullData, { event_name: code ?? '' }, { signal });
      if (!event) throw new ApiError('event_not_found', { status: 404 });
      return event;
    },
  });

export const saveNewEvent = (body: CreateEventBody) => callApi(createEvent, body);
export const saveEventUpdate = (body: UpdateEventBody) => callApi(updateEvent, body);
export const removeEvent = (eventId: number) => callApi(deleteEvent, { event_id: eventId });
export const fetchSecureProps = (eventName: string) =>
  callApi(secureProps, { event_name: eventName });
