import { useQuery } from '@tanstack/react-query';
import { leadDelete, leadExport, leadList } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

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
