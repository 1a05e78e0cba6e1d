import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createRobot,
  deletePpt,
  endpoints,
  imageProcessList,
  pptList,
  robotList,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** What the editor offers to choose from: organisations, robots, processes and templates. */
export const catalogQueryKeys = {
  organisations: () => ['organisations'] as const,
  robots: (organisationId: number | null) => ['robots', organisationId] as const,
  imageProcesses: (organisationId: number | null) => ['image-processes', organisationId] as const,
  templates: (organisationId: number | null, watermark: boolean) =>
    ['print-templates', organisationId, watermark] as const,
};

export const useOrganisations = (enabled: boolean) =>
  useQuery({
    queryKey: catalogQueryKeys.organisations(),
    enabled,
    queryFn: ({ signal }) => callApi(endpoints.listOrganisations, {}, { signal }),
    select: (result) => result.organisations,
  });

const orgBody = (organisationId: number | null) =>
  organisationId === null ? {} : { organisation_id: organisationId };

export const useRobots = (organisationId: number | null) =>
  useQuery({
    queryKey: catalogQueryKeys.robots(organisationId),
    enabled: organisationId !== null,
    queryFn: ({ signal }) => callApi(robotList, orgBody(organisationId), { signal }),
    select: (result) => result.robots,
  });

/** A robot made from the event: it feeds the event at once (its key is in this reply only). */
export const useCreateEventRobot = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { organisation_id: number; event_id: number; name: string }) =>
      callApi(createRobot, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['robots'] }),
  });
};

export const useImageProcesses = (organisationId: number | null) =>
  useQuery({
    queryKey: catalogQueryKeys.imageProcesses(organisationId),
    enabled: organisationId !== null,
    queryFn: ({ signal }) => callApi(imageProcessList, orgBody(organisationId), { signal }),
    select: (result) => result.image_processes,
  });

/**
 * Print templates (`watermark` false) or watermark templates (albums spec §7.4, list type 2).
 * Only admins and super users load watermark templates (owner-console §6): pass `enabled` false.
 */
export const useTemplates = (organisationId: number | null, watermark: boolean, enabled = true) =>
  useQuery({
    queryKey: catalogQueryKeys.templates(organisationId, watermark),
    enabled: enabled && organisationId !== null,
    queryFn: ({ signal }) =>
      callApi(pptList, { ...orgBody(organisationId), is_watermark: watermark ? 1 : 0 }, { signal }),
  });

export const removeTemplate = (id: number) => callApi(deletePpt, { id });
