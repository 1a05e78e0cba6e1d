import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebhookDelivery, WebhookEndpoint } from '@flashbulb/shared';
import { installConsoleApi, OWNER } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const endpoint = (id: number, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  organisation_id: 3,
  event_id: null,
  url: `https://hooks.example.com/${id}`,
  event_types: ['photo.ready', 'lead.created'],
  enabled: 1,
  disabled_reason: null,
  secret_hint: 'abcd',
  created_date: '2026-11-01T12:00:00.000Z',
  ...over,
});

const delivery: WebhookDelivery = {
  id: 41,
  event_id: 'evt_1',
  event_type: 'photo.ready',
  status: 'failed',
  attempts: 6,
  last_status_code: 500,
  last_error: 'the endpoint answered 500',
  created_date: '2026-11-01T12:00:00.000Z',
  sent_date: null,
  next_attempt_date: null,
};

describe('console Webhooks page', { timeout: 40_000 }, () => {
  it('adds an endpoint and shows its secret once; enables, reads the log and replays', async () => {
    let enabledNow = false;
    const api = installConsoleApi({
      routes: {
        // Disabled until the page enables it (the list is read again after each change).
        [`${OWNER}/webhooks/list`]: (): FakeReply => ({
          ok: {
            endpoints: [
              enabledNow
                ? endpoint(1)
                : endpoint(1, {
                    enabled: 0,
                    disabled_reason: 'Disabled after 10 failed deliveries in a row',
                  }),
            ],
          },
        }),
        [`${OWNER}/webhooks/create`]: (): FakeReply => ({
          ok: { endpoint: endpoint(2), secret: 'whsec_shown_once_123' },
        }),
        [`${OWNER}/webhooks/set-enabled`]: (): FakeReply => {
          enabledNow = true;
          return { ok: { endpoint: endpoint(1) } };
        },
        [`${OWNER}/webhooks/deliveries`]: { ok: { deliveries: [delivery] } },
        [`${OWNER}/webhooks/replay`]: { ok: { delivery: { ...delivery, id: 42 } } },
      },
    });
    renderApp('/webhooks');
    const table = await screen.findByRole(
      'table',
      { name: 'Webhook endpoints' },
      { timeout: 20_000 },
    );
    expect(within(table).getByText('Disabled after 10 failed deliveries in a row')).toBeTruthy();

    await userEvent.type(
      screen.getByLabelText('Address (https://…)'),
      'https://crm.example.com/in',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'print.finished' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_shown_once_123');
    expect(api.callsTo(`${OWNER}/webhooks/create`)[0]?.body).toEqual({
      url: 'https://crm.example.com/in',
      event_types: [
        'photo.ready',
        'attendee.created',
        'lead.created',
        'payment.paid',
        'payment.refunded',
      ],
    });

    await userEvent.click(within(table).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(api.callsTo(`${OWNER}/webhooks/set-enabled`)).toHaveLength(1));
    expect(api.callsTo(`${OWNER}/webhooks/set-enabled`)[0]?.body).toEqual({ id: 1, enabled: 1 });

    await waitFor(() =>
      expect(within(table).getByRole('button', { name: 'Disable' })).toBeTruthy(),
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Delivery log' }));
    const log = await screen.findByRole('table', { name: 'Deliveries' });
    expect(within(log).getByText('the endpoint answered 500', { exact: false })).toBeTruthy();
    await userEvent.click(within(log).getByRole('button', { name: 'Replay' }));
    await waitFor(() => expect(api.callsTo(`${OWNER}/webhooks/replay`)).toHaveLength(1));
    expect(api.callsTo(`${OWNER}/webhooks/replay`)[0]?.body).toEqual({ delivery_id: 41 });
  });
});
