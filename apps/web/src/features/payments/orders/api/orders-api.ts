import { useQuery } from '@tanstack/react-query';
import { endpoints, eventFullData, type FlashbulbEvent, type ResultOf } from '@flashbulb/shared';
import { ApiError, callApi } from '../../../../lib/api-client.ts';

export type OrderListResult = ResultOf<typeof endpoints.orderList>;
export type OrderRow = OrderListResult['orders'][number];

export const orderQueryKeys = {
  event: (code: string) => ['orders', 'event', code] as const,
  list: (eventId: number) => ['orders', eventId, 'list'] as const,
};

/** The event of the page, by code (the call answers an array; the first item is the event). */
export const useOrdersEvent = (code: string) =>
  useQuery({
    queryKey: orderQueryKeys.event(code),
    queryFn: async ({ signal }): Promise<FlashbulbEvent> => {
      const [event] = await callApi(eventFullData, { event_name: code }, { signal });
      if (!event) throw new ApiError('event_not_found', { status: 404 });
      return event;
    },
  });

/** The event's orders with their payments and the paid totals (amounts in integer cents). */
export const useOrderList = (eventId: number | undefined) =>
  useQuery({
    queryKey: orderQueryKeys.list(eventId ?? 0),
    enabled: eventId !== undefined,
    queryFn: ({ signal }) => callApi(endpoints.orderList, { event_id: eventId ?? 0 }, { signal }),
  });

/** Refunds a paid payment; the server locks again what it unlocked. */
export const refund = (eventId: number, paymentId: string) =>
  callApi(endpoints.refundPayment, { event_id: eventId, payment_id: paymentId });
