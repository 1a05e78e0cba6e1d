import { useQuery } from '@tanstack/react-query';
import { fetchSetupStatus } from '../api/auth-api.ts';

export const SETUP_STATUS_QUERY_KEY = ['setup-status'] as const;

/** Whether the installation still needs its first administrator. */
export const useSetupStatus = (enabled: boolean) =>
  useQuery({
    queryKey: SETUP_STATUS_QUERY_KEY,
    queryFn: ({ signal }) => fetchSetupStatus(signal),
    enabled,
    staleTime: Infinity,
  });
