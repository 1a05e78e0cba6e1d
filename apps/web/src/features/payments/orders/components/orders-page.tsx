import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_CURRENCY,
  formatAttendeeId,
  formatMoney,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { formatEventTime, type EventClock } from '@flashbulb/shared/rules/event-time';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { downloadText } from '../../../../lib/download-text.ts';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { useErrorText } from '../../../../lib/error-text.ts';
import { orderQueryKeys, refund, useOrderList, type OrderRow } from '../api/orders-api.ts';
import { ordersCsv } from '../utils/orders-csv.ts';
import { CARD_TABLE } from '../../../../components/card-table.ts';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

interface RefundTarget {
  paymentId: string;
  amount: number;
  currency: string;
}

const STATUS_COLOR: Record<string, string> = {
  paid: 'green',
  refunded: 'grape',
  pending: 'yellow',
  open: 'yellow',
  failed: 'red',
  expired: 'gray',
  cancelled: 'gray',
};

/**
 * The orders of one event (owner console): every order with its payments and
 * their status, the paid totals per day and per button, a refund per paid payment (the server
 * locks again what it unlocked) and a CSV export whose cells cannot run as spreadsheet formulas.
 * Amounts arrive in the minor unit of their currency (each order its own; the totals in the
 * organisation's) and are shown through the shared money formatter (€12.50, ¥1,250).
 */
export default function OrdersPage() {
  return <RouteEventGate texts="orders" page={EventOrders} />;
}

function EventOrders({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const list = useOrderList(event.id);
  const [target, setTarget] = useState<RefundTarget | null>(null);
  const [refunding, setRefunding] = useState(false);
  const [refundError, setRefundError] = useState<string | null>(null);

  const data = list.data;
  const currency = data?.currency ?? DEFAULT_CURRENCY;
  const statusText = (status: string) =>
    t(`orders.status.${status}` as 'orders.status.paid', { defaultValue: status });

  const exportCsv = () => {
    if (!data) return;
    const column = (key: string) => t(`orders.column.${key}` as 'orders.column.order');
    downloadText(
      t('orders.csvFile', { code: event.name }),
      ordersCsv(
        data.orders,
        {
          order: column('order'),
          created: column('created'),
          paid: column('paid'),
          attendee: column('attendee'),
          button: column('button'),
          amount: column('amount'),
          currency: column('currency'),
          status: column('status'),
          payment: column('payment'),
          provider: column('provider'),
          paymentStatus: column('paymentStatus'),
        },
        event,
      ),
    );
  };

  const confirmRefund = async () => {
    if (!target) return;
    setRefunding(true);
    setRefundError(null);
    try {
      await refund(event.id, target.paymentId);
      notifications.show({
        color: 'green',
        message: t('orders.refunded', { id: target.paymentId }),
      });
      setTarget(null);
      await client.invalidateQueries({ queryKey: orderQueryKeys.list(event.id) });
    } catch (error) {
      setRefundError(errorText(errorKeyOf(error)));
    } finally {
      setRefunding(false);
    }
  };

  return (
    <Stack gap="md">
      <EventPageHeader
        backLabel={t('orders.backToEvents')}
        title={t('orders.title', { name: event.full_name })}
        actions={
          <Button variant="light" onClick={exportCsv} disabled={!data || data.orders.length === 0}>
            {t('orders.exportCsv')}
          </Button>
        }
      />

      {list.isError && <Alert color="red">{errorText(errorKeyOf(list.error))}</Alert>}
      {!data ? (
        !list.isError && (
          <Group justify="center" p="xl">
            <Loader aria-label={t('app.loading')} />
          </Group>
        )
      ) : (
        <>
          <Text data-testid="orders-total" fw={600}>
            {t('orders.totals', {
              amount: formatMoney(data.totals.paid_amount, currency),
              count: data.totals.paid_count,
            })}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Totals
              caption={t('orders.byDay')}
              head={t('orders.day')}
              rows={data.totals.by_day.map((d) => ({ key: d.day, ...d }))}
              currency={currency}
            />
            <Totals
              caption={t('orders.byButton')}
              head={t('orders.button')}
              rows={data.totals.by_button.map((b) => ({ key: b.button_text, ...b }))}
              currency={currency}
            />
          </SimpleGrid>
          {data.orders.length === 0 ? (
            <Text c="dimmed">{t('orders.none')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={760} className={CARD_TABLE.scroll}>
              <Table className={CARD_TABLE.table} striped aria-label={t('orders.orders')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('orders.column.order')}</Table.Th>
                    <Table.Th>{t('orders.column.created')}</Table.Th>
                    <Table.Th>{t('orders.column.attendee')}</Table.Th>
                    <Table.Th>{t('orders.column.button')}</Table.Th>
                    <Table.Th>{t('orders.column.amount')}</Table.Th>
                    <Table.Th>{t('orders.column.status')}</Table.Th>
                    <Table.Th>{t('orders.column.payments')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.orders.map((order) => (
                    <OrderLine
                      key={order.order_id}
                      order={order}
                      clock={event}
                      statusText={statusText}
                      onRefund={(paymentId) => {
                        setRefundError(null);
                        setTarget({ paymentId, amount: order.amount, currency: order.currency });
                      }}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}

      <Modal
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={t('orders.refund')}
        centered
      >
        {target && (
          <Stack gap="md">
            <Text>
              {t('orders.refundConfirm', {
                amount: formatMoney(target.amount, target.currency),
                id: target.paymentId,
              })}
            </Text>
            {refundError && (
              <Alert color="red" role="alert">
                {refundError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setTarget(null)}>
                {t('common.cancel', { defaultValue: 'Cancel' })}
              </Button>
              <Button color="red" loading={refunding} onClick={() => void confirmRefund()}>
                {t('orders.refund')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function OrderLine({
  order,
  statusText,
  onRefund,
  clock,
}: {
  order: OrderRow;
  /** The event's clock: times read in its local time. */
  clock: EventClock;
  statusText: (status: string) => string;
  onRefund: (paymentId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td data-label={t('orders.column.order')}>{order.order_id}</Table.Td>
      <Table.Td data-label={t('orders.column.created')}>
        {formatEventTime(clock, new Date(order.created_date))}
      </Table.Td>
      <Table.Td data-label={t('orders.column.attendee')}>
        {formatAttendeeId(order.attendee_uid)}
      </Table.Td>
      <Table.Td data-label={t('orders.column.button')}>{order.button_text}</Table.Td>
      <Table.Td data-label={t('orders.column.amount')}>
        {formatMoney(order.amount, order.currency)}
      </Table.Td>
      <Table.Td data-label={t('orders.column.status')}>
        <Badge color={STATUS_COLOR[order.status] ?? 'gray'} variant="light">
          {statusText(order.status)}
        </Badge>
      </Table.Td>
      <Table.Td data-label={t('orders.column.payments')}>
        <Stack gap={4} aria-label={t('orders.paymentsOf', { id: order.order_id })}>
          {order.payments.map((payment) => (
            // Wraps: on a phone the card's half-width cell cannot hold id, provider, status and
            // the Refund button on one line (the button was cut off).
            <Group key={payment.payment_id} gap={6} wrap="wrap" justify="flex-end">
              <Text size="xs" ff="monospace">
                {payment.payment_id}
              </Text>
              <Text size="xs" c="dimmed">
                {payment.provider}
              </Text>
              <Badge size="xs" color={STATUS_COLOR[payment.status] ?? 'gray'} variant="light">
                {statusText(payment.status)}
              </Badge>
              {payment.status === 'paid' && (
                <Button
                  size="compact-xs"
                  color="red"
                  variant="subtle"
                  aria-label={t('orders.refundNamed', { id: payment.payment_id })}
                  onClick={() => onRefund(payment.payment_id)}
                >
                  {t('orders.refund')}
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

function Totals({
  caption,
  head,
  rows,
  currency,
}: {
  caption: string;
  head: string;
  rows: { key: string; amount: number; count: number }[];
  currency: string;
}) {
  const { t } = useTranslation();
  return (
    <Table aria-label={caption} withTableBorder captionSide="top">
      <Table.Caption ta="left" fw={600} c="dark">
        {caption}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{head}</Table.Th>
          <Table.Th>{t('orders.amount')}</Table.Th>
          <Table.Th>{t('orders.count')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Td>{row.key}</Table.Td>
            <Table.Td>{formatMoney(row.amount, currency)}</Table.Td>
            <Table.Td>{row.count}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
