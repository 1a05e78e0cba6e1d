import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const insightQueryKeys = {
  ofEvent: (eventId: number) => ['insight', 'of-event', eventId] as const,
  ofOrganisation: (organisationId: number | null) =>
    ['insight', 'of-organisation', organisationId] as const,
};

/** How the event is doing: counted by the server when asked, so read again every minute. */
export const useEventInsight = (eventId: number) =>
  useQuery({
    queryKey: insightQueryKeys.ofEvent(eventId),
    refetchInterval: 60_000,
    queryFn: ({ signal }) => callApi(endpoints.eventInsight, { event_id: eventId }, { signal }),
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
