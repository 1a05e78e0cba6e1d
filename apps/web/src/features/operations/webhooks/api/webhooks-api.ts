import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  webhookCreate,
  webhookDelete,
  webhookDeliveries,
  webhookList,
  webhookReplay,
  webhookSetEnabled,
  type WebhookEventType,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export const webhookQueryKeys = {
  list: ['webhooks'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};

/** The organisation's endpoints (secrets never included). */
export const useWebhooks = () =>
  useQuery({
    queryKey: webhookQueryKeys.list,
    queryFn: async ({ signal }) => (await callApi(webhookList, {}, { signal })).endpoints,
  });

/** An endpoint's delivery log, newest first; null: none open. */
export const useWebhookDeliveries = (id: number | null) =>
  useQuery({
    queryKey: webhookQueryKeys.deliveries(id ?? 0),
    enabled: id !== null,
    queryFn: async ({ signal }) =>
      (await callApi(webhookDeliveries, { id: id! }, { signal })).deliveries,
  });

const useInvalidating = <T, R>(call: (input: T) => Promise<R>) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: webhookQueryKeys.list }),
  });
};

export const useCreateWebhook = () =>
  useInvalidating((input: { url: string; event_types: WebhookEventType[] }) =>
    callApi(webhookCreate, input),
  );

export const useSetWebhookEnabled = () =>
  useInvalidating((input: { id: number; enabled: 0 | 1 }) => callApi(webhookSetEnabled, input));

export const useDeleteWebhook = () =>
  useInvalidating((id: number) => callApi(webhookDelete, { id }));

export const useReplayWebhook = () =>
  useInvalidating((deliveryId: number) => callApi(webhookReplay, { delivery_id: deliveryId }));
