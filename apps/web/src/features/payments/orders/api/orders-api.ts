import { useQuery } from '@tanstack/react-query';
import { endpoints, type ResultOf } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

export type OrderListResult = ResultOf<typeof endpoints.orderList>;
export type OrderRow = OrderListResult['orders'][number];

export const orderQueryKeys = {
  list: (eventId: number) => ['orders', eventId, 'list'] as const,
};

/** The event's orders with their payments and the paid totals (amounts in integer cents). */
export const useOrderList = (eventId: number) =>
  useQuery({
    queryKey: orderQueryKeys.list(eventId),
    queryFn: ({ signal }) => callApi(endpoints.orderList, { event_id: eventId }, { signal }),
  });

/** Refunds a paid payment; the server locks again what it unlocked. */
export const refund = (eventId: number, paymentId: string) =>
  callApi(endpoints.refundPayment, { event_id: eventId, payment_id: paymentId });
