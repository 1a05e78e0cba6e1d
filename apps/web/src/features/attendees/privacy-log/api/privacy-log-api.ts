import { useInfiniteQuery } from '@tanstack/react-query';
import { privacyRequestList } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/** The privacy log, newest first, a page at a time (the server scopes it to the caller). */
export const usePrivacyLog = () =>
  useInfiniteQuery({
    queryKey: ['privacy-log'],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi(privacyRequestList, pageParam ? { before_id: pageParam } : {}, { signal }),
    getNextPageParam: (last) => last.next_before_id ?? undefined,
  });
