import { useQuery } from '@tanstack/react-query';
import { endpoints, eventFullData, type FlashbulbEvent } from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';

export const insightQueryKeys = {
  event: (code: string) => ['insight', 'event', code] as const,
  ofEvent: (eventId: number) => ['insight', 'of-event', eventId] as const,
  ofOrganisation: (organisationId: number | null) =>
    ['insight', 'of-organisation', organisationId] as const,
};

/** The event of the page, by code (the call answers an array; the first item is the event). */
export const useInsightEvent = (code: string) =>
  useQuery({
    queryKey: insightQueryKeys.event(code),
    queryFn: async ({ signal }): Promise<FlashbulbEvent> => {
      const [event] = await callApi(eventFullData, { event_name: code }, { signal });
      if (!event) throw new ApiError('event_not_found', { status: 404 });
      return event;
    },
  });

/** How the event is doing: counted by the server when asked, so read again every minute. */
export const useEventInsight = (eventId: number | undefined) =>
  useQuery({
    queryKey: insightQueryKeys.ofEvent(eventId ?? 0),
    enabled: eventId !== undefined,
    refetchInterval: 60_000,
    queryFn: ({ signal }) =>
      callApi(endpoints.eventInsight, { event_id: eventId ?? 0 }, { signal }),
  });

/** Every event of the organisation (null: the caller's own). */
export const useOrganisationInsight = (organisationId: number | null, enabled = true) =>
  useQuery({
    queryKey: insightQueryKeys.ofOrganisation(organisationId),
    enabled,
    refetchInterval: 60_000,
    queryFn: ({ signal }) =>
      callApi(
        endpoints.organisationInsight,
        organisationId === null ? {} : { organisation_id: organisationId },
        { signal },
      ),
  });

/** The organisations a super user may look at (others see their own only). */
export const useInsightOrganisations = (enabled: boolean) =>
  useQuery({
    queryKey: ['insight', 'organisations'] as const,
    enabled,
    queryFn: async ({ signal }) =>
      (await callApi(endpoints.listOrganisations, {}, { signal })).organisations,
  });
