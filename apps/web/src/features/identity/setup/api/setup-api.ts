import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  createApiKey,
  createOrganisation,
  createRobot,
  createUser,
  listUsers,
  regenerateRobotKey,
  resetUserMfa,
  updateUser,
  type ParsedBodyOf,
  type User,
  deleteApiKey,
  EVENT_LIMITS,
  eventBasicList,
  listApiKeys,
  listOrganisations,
  photoCountInfo,
  renameOrganisation,
  robotActivityList,
  robotList,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const setupQueryKeys = {
  organisations: ['setup', 'organisations'] as const,
  robots: ['setup', 'robots'] as const,
  apiKeys: ['setup', 'api-keys'] as const,
  users: ['setup', 'users'] as const,
};

export const useOrganisations = () =>
  useQuery({
    queryKey: setupQueryKeys.organisations,
    queryFn: ({ signal }) => callApi(listOrganisations, {}, { signal }),
    select: (result) => result.organisations,
  });

/**
 * The organisation a new robot or user goes to: the organisations to choose from, and the one
 * chosen (the user's own until another is picked, else the first).
 */
export const useOrganisationChoice = (user: User) => {
  const organisations = useOrganisations();
  const [picked, setPicked] = useState<string | null>(null);
  const choices = (organisations.data ?? []).map((o) => ({ value: String(o.id), label: o.name }));
  const organisationId = picked ?? user.organisation_id?.toString() ?? choices[0]?.value ?? null;
  return { organisations, choices, organisationId, setPicked };
};

export const useCreateOrganisation = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callApi(createOrganisation, { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.organisations }),
  });
};

export const useRobots = (enabled = true) =>
  useQuery({
    queryKey: setupQueryKeys.robots,
    enabled,
    queryFn: ({ signal }) => callApi(robotList, {}, { signal }),
    select: (result) => result.robots,
  });

/** What the activity log is filtered by (each optional; times are ISO instants). */
export interface RobotActivityFilters {
  robot_id?: number;
  event_id?: number;
  from?: string;
  to?: string;
}

/** The robot activity log, newest first, a page at a time ("Load more" asks for the next). */
export const useRobotActivity = (filters: RobotActivityFilters) =>
  useInfiniteQuery({
    queryKey: ['setup', 'robot-activity', filters] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi(
        robotActivityList,
        { ...filters, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const useCreateRobot = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { organisation_id: number; name: string }) => callApi(createRobot, input),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.robots }),
  });
};

export const useApiKeys = () =>
  useQuery({
    queryKey: setupQueryKeys.apiKeys,
    queryFn: ({ signal }) => callApi(listApiKeys, {}, { signal }),
    select: (result) => result.api_keys,
  });

export const useCreateApiKey = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callApi(createApiKey, { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.apiKeys }),
  });
};

export const useDeleteApiKey = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(deleteApiKey, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.apiKeys }),
  });
};

/** The event list (same call and cache entry as the events page). */
export const useSetupEventList = () =>
  useQuery({
    queryKey: ['events', 'basic-list'] as const,
    queryFn: ({ signal }) =>
      callApi(
        eventBasicList,
        { max_size: EVENT_LIMITS.eventListPageSize, page_number: 1 },
        { signal },
      ),
  });

export const usePhotoTotal = (eventId: number | null) =>
  useQuery({
    queryKey: ['setup', 'photo-total', eventId] as const,
    enabled: eventId !== null,
    queryFn: ({ signal }) => callApi(photoCountInfo, { event_id: eventId! }, { signal }),
    select: (result) => result.total,
  });

export const useRenameOrganisation = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; name: string; currency?: string }) =>
      callApi(renameOrganisation, input),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.organisations }),
  });
};

export const useUsers = () =>
  useQuery({
    queryKey: setupQueryKeys.users,
    queryFn: ({ signal }) => callApi(listUsers, {}, { signal }),
    select: (result) => result.users,
  });

/** The server mails the temporary password through the outbox (no password given here). */
export const useInviteUser = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<ParsedBodyOf<typeof createUser>, 'temporary_password'>) =>
      callApi(createUser, input),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.users }),
  });
};

export const useUpdateUser = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ParsedBodyOf<typeof updateUser>) => callApi(updateUser, input),
    onSettled: () => client.invalidateQueries({ queryKey: setupQueryKeys.users }),
  });
};

export const useResetUserMfa = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(resetUserMfa, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.users }),
  });
};

export const useRegenerateRobotKey = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(regenerateRobotKey, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: setupQueryKeys.robots }),
  });
};
