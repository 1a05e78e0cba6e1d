import { useQuery } from '@tanstack/react-query';
import {
  eventFullData,
  leadDelete,
  leadExport,
  leadList,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';

/** The event of the page, by code. */
export const useLeadsEvent = (code: string) =>
  useQuery({
    queryKey: ['leads', 'event', code],
    queryFn: async ({ signal }): Promise<FlashbulbEvent> => {
      const [event] = await callApi(eventFullData, { event_name: code }, { signal });
      if (!event) throw new ApiError('event_not_found', { status: 404 });
      return event;
    },
  });

export const leadsQueryKey = (eventId: number) => ['leads', eventId] as const;

/** The event's leads, newest first (the server checks the caller manages the event). */
export const useLeads = (eventId: number) =>
  useQuery({
    queryKey: leadsQueryKey(eventId),
    queryFn: ({ signal }) => callApi(leadList, { event_id: eventId }, { signal }),
  });

/** The formula-safe CSV the server builds. */
export const exportLeads = (eventId: number) => callApi(leadExport, { event_id: eventId });

/** Deletes leads on the guests' request. */
export const deleteLeads = (eventId: number, ids: number[]) =>
  callApi(leadDelete, { event_id: eventId, lead_id_array: ids });
