import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { outboxList, outboxResend, type OutboxMessage } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export type OutboxChannelFilter = 'all' | 'mail' | 'sms';

/** An event's id, or null: the messages of no event (super users). */
export type OutboxScope = number | null;

export const outboxQueryKeys = {
  list: (scope: OutboxScope, channel: OutboxChannelFilter) =>
    ['outbox', scope ?? 'none', channel] as const,
  lists: (scope: OutboxScope) => ['outbox', scope ?? 'none'] as const,
};

/** The event's messages (or those of no event), newest first (at most 200). */
export const useOutboxList = (scope: OutboxScope | undefined, channel: OutboxChannelFilter) =>
  useQuery({
    queryKey: outboxQueryKeys.list(scope ?? null, channel),
    enabled: scope !== undefined,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      callApi(
        outboxList,
        {
          ...(scope === null || scope === undefined ? {} : { event_id: scope }),
          ...(channel === 'all' ? {} : { channel }),
          limit: 200,
        },
        { signal },
      ),
  });

export const resendMessage = async (
  scope: OutboxScope,
  messageId: number,
): Promise<OutboxMessage> =>
  (
    await callApi(outboxResend, {
      ...(scope === null ? {} : { event_id: scope }),
      message_id: messageId,
    })
  ).message;
