import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { groupCardDigits, returnPathOf } from './test-checkout-page.tsx';

const PAY = '/payment/test-provider/pay';
const CHECKOUT = '/payment/test-provider/checkout';

const summary = (status = 'pending', currency = 'USD', amount = 1550) => ({
  ok: {
    payment_id: 'pay_abc',
    status,
    amount,
    currency,
    description: 'All my photos',
    merchant: 'Summer <b>Gala</b>',
  },
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('test provider checkout page', () => {
  it('shows what is charged, posts the card for the payment in the link and shows that it is paid', async () => {
    const api = installFakeApi({
      [CHECKOUT]: summary(),
      [PAY]: { ok: { payment_id: 'pay_abc', status: 'paid' } },
    });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Card number');
    expect(screen.getByTestId('checkout-amount').textContent).toBe('$15.50');
    expect(screen.getByText('All my photos')).toBeTruthy();
    // The event's name is text, never markup.
    expect(screen.getByText('Summer <b>Gala</b>')).toBeTruthy();
    expect(screen.getByText('Test mode')).toBeTruthy();
    await user.type(input, '4242424242424242');
    // Grouped in fours as typed.
    expect((input as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay $15.50' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Paid. Your photos are unlocked: go back to your album.',
    );
    for (const call of api.callsTo(CHECKOUT)) expect(call.body).toEqual({ payment_id: 'pay_abc' });
    expect(api.callsTo(PAY).map((c) => c.body)).toEqual([
      { payment_id: 'pay_abc', card_number: '4242 4242 4242 4242' },
    ]);
  });

  it.each([
    ['EUR', 1550, '€15.50'],
    ['JPY', 1550, '¥1,550'],
  ])('charges in the order’s currency (%s)', async (currency, amount, shown) => {
    installFakeApi({ [CHECKOUT]: summary('pending', currency, amount) });
    renderApp('/pay/test/pay_abc');
    await screen.findByLabelText('Card number');
    expect(screen.getByTestId('checkout-amount').textContent).toBe(shown);
    expect(screen.getByRole('button', { name: `Pay ${shown}` })).toBeTruthy();
  });

  it('says a declined card charged nothing', async () => {
    installFakeApi({
      [CHECKOUT]: summary(),
      [PAY]: { ok: { payment_id: 'pay_abc', status: 'failed' } },
    });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay $15.50' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The card was declined. Nothing was charged.',
    );
  });

  it('marks a number that is not a test card and lets the guest try again', async () => {
    installFakeApi({
      [CHECKOUT]: summary(),
      [PAY]: [{ nok: 'card_invalid' }, { ok: { payment_id: 'pay_abc', status: 'paid' } }],
    });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Card number');
    await user.type(input, '1234');
    await user.click(screen.getByRole('button', { name: 'Pay $15.50' }));
    expect(
      await screen.findByText(
        'Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined',
      ),
    ).toBeTruthy();
    await user.clear(input);
    await user.type(input, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay $15.50' }));
    expect(await screen.findByRole('status')).toBeTruthy();
  });

  it('a link already paid or closed says so and offers no card form', async () => {
    const api = installFakeApi({ [CHECKOUT]: summary('cancelled') });
    renderApp('/pay/test/pay_abc');
    expect((await screen.findByRole('status')).textContent).toBe(
      'This payment link was closed at the kiosk.',
    );
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(api.callsTo(PAY)).toEqual([]);
  });

  it('an unknown link says it is not valid', async () => {
    installFakeApi({ [CHECKOUT]: { nok: 'not_found', status: 404 } });
    renderApp('/pay/test/pay_nobody');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This payment link is not valid. Ask for a new QR code at the kiosk.',
    );
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });

  it('a guest sent from their album finds the way back to it, paid or declined; no link leads off the site', async () => {
    installFakeApi({
      [CHECKOUT]: summary(),
      [PAY]: { ok: { payment_id: 'pay_abc', status: 'failed' } },
    });
    renderApp(`/pay/test/pay_abc?return=${encodeURIComponent('/?pId=pub-key')}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4000000000000002');
    // Before paying: a way back without paying.
    expect(
      screen.getByRole('link', { name: 'Not now: back to the album' }).getAttribute('href'),
    ).toBe('/?pId=pub-key');
    await user.click(screen.getByRole('button', { name: 'Pay $15.50' }));
    await screen.findByRole('status');
    expect(screen.getByRole('link', { name: 'Back to the album' }).getAttribute('href')).toBe(
      '/?pId=pub-key',
    );
    expect(returnPathOf('https://evil.example/')).toBeNull();
    expect(returnPathOf('//evil.example/')).toBeNull();
    expect(returnPathOf('/\\evil.example/')).toBeNull();
    expect(returnPathOf(null)).toBeNull();
  });

  it('groups card digits in fours and drops everything else', () => {
    expect(groupCardDigits('4242-4242 4242x4242')).toBe('4242 4242 4242 4242');
    expect(groupCardDigits('12345')).toBe('1234 5');
    expect(groupCardDigits('')).toBe('');
    expect(groupCardDigits('1'.repeat(25))).toBe('1111 1111 1111 1111 111');
  });
});
