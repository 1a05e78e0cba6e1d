import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const PAY = '/payment/test-provider/pay';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('test provider checkout page', () => {
  it('posts the card for the payment in the link and shows that it is paid', async () => {
    const api = installFakeApi({ [PAY]: { ok: { payment_id: 'pay_abc', status: 'paid' } } });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Paid. Your photos are unlocked: go back to your album.',
    );
    expect(api.calls.filter((c) => c.path === PAY).map((c) => c.body)).toEqual([
      { payment_id: 'pay_abc', card_number: '4242 4242 4242 4242' },
    ]);
  });

  it('says a declined card charged nothing', async () => {
    installFakeApi({ [PAY]: { ok: { payment_id: 'pay_abc', status: 'failed' } } });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Card number'), '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The card was declined. Nothing was charged.',
    );
  });

  it('marks a number that is not a test card and lets the guest try again', async () => {
    installFakeApi({
      [PAY]: [{ nok: 'card_invalid' }, { ok: { payment_id: 'pay_abc', status: 'paid' } }],
    });
    renderApp('/pay/test/pay_abc');
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Card number');
    await user.type(input, '1234');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(
      await screen.findByText(
        'Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined',
      ),
    ).toBeTruthy();
    await user.clear(input);
    await user.type(input, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByRole('status')).toBeTruthy();
  });
});
