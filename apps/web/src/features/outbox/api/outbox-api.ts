import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  eventFullData,
  outboxList,
  outboxResend,
  type FlashbulbEvent,
  type OutboxMessage,
} from '@flashbulb/shared';
import { ApiError, callApi } from '../../../lib/api-client.ts';

export type OutboxChannelFilter = 'all' | 'mail' | 'sms';

export const outboxQueryKeys = {
  event: (code: string) => ['outbox', 'event', code] as const,
  list: (eventId: number, channel: OutboxChannelFilter) => ['outbox', eventId, channel] as const,
  lists: (eventId: number) => ['outbox', eventId] as const,
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

/** The event's messages, newest first (at most 200). */
export const useOutboxList = (eventId: number | undefined, channel: OutboxChannelFilter) =>
  useQuery({
    queryKey: outboxQueryKeys.list(eventId ?? 0, channel),
    enabled: eventId !== undefined,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      callApi(
        outboxList,
        { event_id: eventId!, ...(channel === 'all' ? {} : { channel }), limit: 200 },
        { signal },
      ),
  });

export const resendMessage = async (eventId: number, messageId: number): Promise<OutboxMessage> =>
  (await callApi(outboxResend, { event_id: eventId, message_id: messageId })).message;
