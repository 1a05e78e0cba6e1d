import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardReader, PaymentConnection } from '@flashbulb/shared';
import { eventOwner, installConsoleApi, OWNER } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const LIST = `${OWNER}/payments/connections`;
const SAVE = `${OWNER}/payments/connection/save`;
const TEST = `${OWNER}/payments/connection/test`;
const DELETE = `${OWNER}/payments/connection/delete`;
const READERS = `${OWNER}/payments/readers`;
const CHECK = `${OWNER}/payments/reader/check`;
const REMOVE = `${OWNER}/payments/reader/delete`;
const SECRET = 'sk_test_51ConsoleSecretNeverShown1234';

const unconnected = (provider: PaymentConnection['provider']): PaymentConnection => ({
  provider,
  connected: 0,
  last_four: '',
  shop: '',
  tested_date: null,
  test_ok: null,
  test_error: null,
});
const reader = (overrides: Partial<CardReader> = {}): CardReader => ({
  id: 5,
  name: 'Front desk <b>reader</b>',
  location_id: 'L1',
  location_name: 'Main Hall',
  device_code_id: 'code-5',
  device_id: '',
  paired: 0,
  ...overrides,
});

describe(
  'console Payments page: provider connections and card readers',
  { timeout: 40_000 },
  () => {
    it('connects Stripe (the secret goes once, is never shown), tests it with the provider’s words, disconnects', async () => {
      let stripe = unconnected('stripe');
      const api = installConsoleApi({
        routes: {
          [LIST]: (): FakeReply => ({
            ok: { connections: [unconnected('square'), stripe, unconnected('shopify')] },
          }),
          [READERS]: { ok: { readers: [] } },
          [SAVE]: (): FakeReply => {
            stripe = { ...stripe, connected: 1, last_four: '1234' };
            return { ok: stripe };
          },
          [TEST]: (): FakeReply => {
            stripe = {
              ...stripe,
              tested_date: '2026-11-24T01:00:00.000Z',
              test_ok: 0,
              test_error: 'Stripe 401 invalid_request_error: Invalid API Key provided: [redacted]',
            };
            return { ok: stripe };
          },
          [DELETE]: (): FakeReply => {
            stripe = unconnected('stripe');
            return { ok: stripe };
          },
        },
      });
      renderApp('/payments');
      const card = await screen.findByTestId('connection-stripe');
      expect(within(card).getByTestId('connection-state').textContent).toBe('Not connected');
      await userEvent.type(within(card).getByLabelText('Stripe secret key'), SECRET);
      await userEvent.click(within(card).getByRole('button', { name: 'Connect' }));
      await waitFor(() =>
        expect(within(card).getByTestId('connection-state').textContent).toBe('Connected'),
      );
      expect(api.callsTo(SAVE)[0]?.body).toEqual({
        organisation_id: 3,
        provider: 'stripe',
        secret: SECRET,
      });
      expect(within(card).getByTestId('connection-summary').textContent).toBe('Key ending in 1234');
      // The field is emptied: the secret is nowhere on the page any more.
      expect(document.body.innerHTML).not.toContain(SECRET);

      await userEvent.click(within(card).getByRole('button', { name: 'Test credentials' }));
      const result = await within(card).findByTestId('test-result');
      expect(result.textContent).toContain('Invalid API Key provided: [redacted]');
      expect(api.callsTo(TEST)[0]?.body).toEqual({ organisation_id: 3, provider: 'stripe' });

      await userEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
      await waitFor(() =>
        expect(within(card).getByTestId('connection-state').textContent).toBe('Not connected'),
      );
      expect(within(card).queryByRole('button', { name: 'Test credentials' })).toBeNull();
    });

    it('Shopify asks for the shop domain too; our field error is shown at the field', async () => {
      const api = installConsoleApi({
        routes: {
          [LIST]: {
            ok: {
              connections: [unconnected('square'), unconnected('stripe'), unconnected('shopify')],
            },
          },
          [READERS]: { ok: { readers: [] } },
          [SAVE]: { nok: 'shopify_shop_invalid', status: 400, field: 'shop' },
        },
      });
      renderApp('/payments');
      const card = await screen.findByTestId('connection-shopify');
      await userEvent.type(within(card).getByLabelText('Shop domain'), 'not a shop');
      await userEvent.type(within(card).getByLabelText('Admin API access token'), 'shpat_x1234');
      await userEvent.click(within(card).getByRole('button', { name: 'Connect' }));
      await within(card).findByText(/Enter the shop’s myshopify.com domain/);
      expect(api.callsTo(SAVE)[0]?.body).toEqual({
        organisation_id: 3,
        provider: 'shopify',
        secret: 'shpat_x1234',
        shop: 'not a shop',
      });
    });

    it('lists readers with their state; re-checks an unpaired one; a paired one shows its kiosk link; remove', async () => {
      let readers = [reader(), reader({ id: 6, name: 'Tent', device_id: 'DEV-9', paired: 1 })];
      let checks = 0;
      const api = installConsoleApi({
        routes: {
          [LIST]: {
            ok: {
              connections: [unconnected('square'), unconnected('stripe'), unconnected('shopify')],
            },
          },
          [READERS]: (): FakeReply => ({ ok: { readers } }),
          [CHECK]: (): FakeReply => {
            checks += 1;
            if (checks === 1) return { ok: { reader: reader(), error_message: null } };
            readers = [reader({ device_id: 'DEV-5', paired: 1 }), readers[1]!];
            return { ok: { reader: readers[0], error_message: null } };
          },
          [REMOVE]: (): FakeReply => {
            readers = readers.filter((r) => r.id !== 6);
            return { ok: { deleted: 1 } };
          },
        },
      });
      renderApp('/payments');
      const rows = await screen.findAllByTestId('reader-row');
      expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe(
        'Front desk <b>reader</b>',
      );
      expect(rows[0]!.querySelector('b')).toBeNull();
      expect(within(rows[0]!).getByText('Still unpaired')).toBeTruthy();
      expect(within(rows[1]!).getByText('Paired')).toBeTruthy();
      expect(within(rows[1]!).getByTestId('reader-kiosk-link').textContent).toContain(
        'sqDeviceId=DEV-9',
      );
      await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Check again' }));
      expect((await within(rows[0]!).findByTestId('reader-note')).textContent).toMatch(
        /still unpaired/,
      );
      expect(api.callsTo(CHECK)[0]?.body).toEqual({ organisation_id: 3, id: 5 });
      await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Check again' }));
      await waitFor(() =>
        expect(screen.getAllByTestId('reader-row')[0]!.textContent).toContain('sqDeviceId=DEV-5'),
      );
      await userEvent.click(
        within(screen.getAllByTestId('reader-row')[1]!).getByRole('button', { name: 'Remove' }),
      );
      await waitFor(() => expect(screen.getAllByTestId('reader-row')).toHaveLength(1));
      expect(api.callsTo(REMOVE)[0]?.body).toEqual({ organisation_id: 3, id: 6 });
    });

    it('an event owner is told by the server that payments are not theirs to manage', async () => {
      installConsoleApi({
        user: eventOwner,
        routes: {
          [LIST]: { nok: 'forbidden', status: 403 },
          [READERS]: { nok: 'forbidden', status: 403 },
        },
      });
      renderApp('/payments');
      expect((await screen.findByTestId('connections-error')).textContent).toBe(
        'You are not allowed to do this',
      );
      expect(screen.queryByTestId('connection-stripe')).toBeNull();
    });
  },
);
