import { useQuery } from '@tanstack/react-query';
import { moderationDecide, moderationLog, moderationQueue } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export interface QueueFilter {
  robotId: number | null;
  tag: string | null;
}

export const moderationKeys = {
  all: (eventId: number) => ['moderation', eventId] as const,
  queue: (eventId: number, filter: QueueFilter) =>
    ['moderation', eventId, 'queue', filter.robotId, filter.tag] as const,
  log: (eventId: number) => ['moderation', eventId, 'log'] as const,
};

/** The waiting photos (oldest first, the first 500), with the booths and tags to filter by. */
export const useModerationQueue = (eventId: number, filter: QueueFilter) =>
  useQuery({
    queryKey: moderationKeys.queue(eventId, filter),
    queryFn: ({ signal }) =>
      callApi(
        moderationQueue,
        {
          event_id: eventId,
          max_size: 500,
          ...(filter.robotId !== null ? { robot_id: filter.robotId } : {}),
          ...(filter.tag !== null ? { tag: filter.tag } : {}),
        },
        { signal },
      ),
  });

export const useModerationLog = (eventId: number) =>
  useQuery({
    queryKey: moderationKeys.log(eventId),
    queryFn: ({ signal }) =>
      callApi(moderationLog, { event_id: eventId, max_size: 200 }, { signal }),
  });

/** Approves or rejects photos of the queue (a reason is required to reject). */
export const decidePhotos = (
  eventId: number,
  ids: number[],
  decision: 'approve' | 'reject',
  reason?: string,
) =>
  callApi(moderationDecide, {
    event_id: eventId,
    photo_id_array: ids,
    decision,
    ...(reason !== undefined ? { reason } : {}),
  });
