import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultEventOpts, type FlashbulbEvent } from '@flashbulb/shared';
import {
  installConsoleApi,
  OWNER,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderEventEditor } from '../../../../test/event-editor.tsx';

const UPDATE = `${OWNER}/event/update`;

const openPaidTab = async (event: FlashbulbEvent, routes: Record<string, FakeReply> = {}) => {
  const api = installConsoleApi({
    user: superUser,
    events: [event],
    routes: { [UPDATE]: { ok: event }, ...routes },
  });
  // The editor alone: these tests are about its Paid tab.
  const dialog = await renderEventEditor(event, superUser);
  const user = userEvent.setup();
  await user.click(within(dialog).getByRole('tab', { name: 'Paid' }));
  return { api, dialog, user };
};

const paidEvent = (opts: Partial<FlashbulbEvent['opts']> = {}) =>
  storedEvent({
    is_free: 0,
    opts: { ...defaultEventOpts(), unitPrice: 2.5, eventMultiplier: 1, ...opts },
  });

describe('paid tab: pricing buttons', () => {
  it('previews prices in the event’s organisation’s currency', async () => {
    const event = paidEvent();
    const { dialog, user } = await openPaidTab(event, {
      [`${OWNER}/organisation/list/retrieve`]: {
        ok: {
          organisations: [
            { id: 99, name: 'Other', currency: 'JPY', created_date: '2026-01-01T00:00:00.000Z' },
            {
              id: event.organisation_id,
              name: 'Euro Events',
              currency: 'EUR',
              created_date: '2026-01-01T00:00:00.000Z',
            },
          ],
        },
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Add pricing button' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('price-preview').textContent).toBe(
        '1 photo: €2.50 · 5 photos: €12.50 · 20 photos: €50.00',
      ),
    );
  });

  it('previews the price for 1, 5 and 20 photos as the formula is typed, and saves the button', async () => {
    // A print multiplier of 2: only a button selling prints costs double.
    const { api, dialog, user } = await openPaidTab(paidEvent({ printMultiplier: 2 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add pricing button' }));
    const preview = () => within(dialog).getByTestId('price-preview').textContent;
    // A new button sells at unit price × photos: $2.50 each.
    expect(preview()).toBe('1 photo: $2.50 · 5 photos: $12.50 · 20 photos: $50.00');

    await user.type(within(dialog).getByLabelText('Button text, button 1'), 'All my photos');
    const formula = within(dialog).getByLabelText('Price formula, button 1');
    await user.clear(formula);
    // Typed braces are key descriptors for user-event: `{{` types one brace.
    await user.type(formula, 'min({{Final_Amount} * 0.9, 30)');
    expect(preview()).toBe('1 photo: $2.25 · 5 photos: $11.25 · 20 photos: $30.00');
    await user.click(within(dialog).getByLabelText('Prints'));
    expect(preview()).toBe('1 photo: $4.50 · 5 photos: $22.50 · 20 photos: $30.00');

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const body = api.callsTo(UPDATE)[0]?.body as { opts: FlashbulbEvent['opts'] };
    expect(body.opts.pricingButtons).toEqual([
      {
        buttonText: 'All my photos',
        priceFormula: 'min({Final_Amount} * 0.9, 30)',
        digitals: true,
        prints: true,
        partialUnlockTags: false,
        printsPool: '',
      },
    ]);
  });

  it('shows VIP prices when the event has a VIP pattern, and follows the unit price', async () => {
    const { dialog, user } = await openPaidTab(
      paidEvent({
        attendeeIdRegex: '^[A-Z0-9]+$',
        attendeeIdVipRegex: '^VIP',
        pricingButtons: [
          {
            buttonText: 'Album',
            priceFormula: '{Final_Amount} / {USER_TYPE}',
            digitals: true,
            prints: false,
            partialUnlockTags: false,
            printsPool: '',
          },
        ],
      }),
    );
    expect(within(dialog).getByTestId('price-preview-vip').textContent).toBe(
      'VIP: 1 photo: $1.25 · 5 photos: $6.25 · 20 photos: $25.00',
    );
    const unitPrice = within(dialog).getByLabelText('Unit price');
    await user.clear(unitPrice);
    await user.type(unitPrice, '3');
    expect(within(dialog).getByTestId('price-preview').textContent).toBe(
      '1 photo: $3.00 · 5 photos: $15.00 · 20 photos: $60.00',
    );
  });

  it('marks a formula that does not parse, divides by zero or goes negative, and does not save it', async () => {
    // A print multiplier of 2: only a button selling prints costs double.
    const { api, dialog, user } = await openPaidTab(paidEvent({ printMultiplier: 2 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add pricing button' }));
    await user.type(within(dialog).getByLabelText('Button text, button 1'), 'Album');
    const formula = within(dialog).getByLabelText('Price formula, button 1');
    const errorOf = () =>
      formula.closest('.mantine-InputWrapper-root')?.querySelector('.mantine-InputWrapper-error')
        ?.textContent;

    await user.clear(formula);
    await user.type(formula, '10 +');
    expect(errorOf()).toMatch(/does not parse/);
    expect(within(dialog).getByTestId('price-preview').textContent).toBe(
      '1 photo: — · 5 photos: — · 20 photos: —',
    );
    await user.clear(formula);
    await user.type(formula, '10 / ({{USER_TYPE} - 1)');
    expect(errorOf()).toBe('This price formula divides by zero');
    await user.clear(formula);
    await user.type(formula, '40 - {{Final_Amount}');
    // $2.50 × 20 = $50: negative for 20 photos only.
    expect(errorOf()).toBe('This price formula comes out negative');
    expect(within(dialog).getByTestId('price-preview').textContent).toBe(
      '1 photo: $37.50 · 5 photos: $27.50 · 20 photos: —',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('This price formula comes out negative')).toBeTruthy();
    expect(api.callsTo(UPDATE)).toHaveLength(0);
  });

  it('removes a button', async () => {
    const { api, dialog, user } = await openPaidTab(
      paidEvent({
        pricingButtons: [
          {
            buttonText: 'A',
            priceFormula: '5',
            digitals: true,
            prints: false,
            partialUnlockTags: false,
            printsPool: '',
          },
        ],
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove button 1' }));
    expect(within(dialog).queryAllByTestId('pricing-button')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const body = api.callsTo(UPDATE)[0]?.body as { opts: FlashbulbEvent['opts'] };
    expect(body.opts.pricingButtons).toEqual([]);
  });
});
