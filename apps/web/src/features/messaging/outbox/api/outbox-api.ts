import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  eventFullData,
  outboxList,
  outboxResend,
  type FlashbulbEvent,
  type OutboxMessage,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';

export type OutboxChannelFilter = 'all' | 'mail' | 'sms';

/** An event's id, or null: the messages of no event (super users). */
export type OutboxScope = number | null;

export const outboxQueryKeys = {
  event: (code: string) => ['outbox', 'event', code] as const,
  list: (scope: OutboxScope, channel: OutboxChannelFilter) =>
    ['outbox', scope ?? 'none', channel] as const,
  lists: (scope: OutboxScope) => ['outbox', scope ?? 'none'] as const,
};

/** The event of the page, by code. */
export const useOutboxEvent = (code: string) =>
  useQuery({
    queryKey: outboxQueryKeys.event(code),
    queryFn: async ({ signal }): Promise<FlashbulbEvent> => {
      const [event] = await callApi(eventFullData, { event_name: code }, { signal });
      if (!event) throw new ApiError('event_not_found', { status: 404 });
      return event;
    },
  });

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
