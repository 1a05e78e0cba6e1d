import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

/** Retrying cannot fix an answered request (a nok reply); only transport failures get retries. */
export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          failureCount < 2 && !(isApiError(error) && error.messageKey !== 'Internal Error'),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
