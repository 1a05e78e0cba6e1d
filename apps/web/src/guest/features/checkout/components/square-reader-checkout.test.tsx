import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { PAID_ATTENDEE, paidAttendee } from '../../../../test/checkout-fixtures.ts';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const INITIATE = '/attendee/initiate-square-payment';
const STATUS = '/attendee/check-square-checkout-status';
const CANCEL = '/attendee/cancel-square-checkout';
const EVENT = '/event/full-data/retrieve';
const ATT = PAID_ATTENDEE;
const KIOSK_KEY = 'pv-kiosk-key';
const DISPLAY = 'kiosk-display-token';
const DEVICE = 'device:995CS397A6475287';
const LINK = `?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}&display=${DISPLAY}&sqDeviceId=${encodeURIComponent(DEVICE)}`;

const attendee = paidAttendee;
/**
 * The pricing buttons as the server answers them: `methods` are the album page's ways to pay when
 * asked with the attendee's key, the kiosk's when asked with the kiosk's private key.
 */
const buttons = (body: unknown): FakeReply => ({
  ok: {
    is_free: 0,
    currency: 'USD',
    methods:
      (body as { key_type?: string }).key_type === 'private'
        ? ['qr', 'square', 'terminal', 'shopify']
        : ['qr', 'paypal'],
    photo_count: 1,
    prints_free: 0,
    prints_remaining: 0,
    buttons: [
      { index: 0, button_text: 'All my photos', digitals: true, prints: false, amount: 450 },
    ],
  },
});

/**
 * One sale per initiate call, each with its own id; `statuses` answers the polls in turn, once
 * `gate.open` (until then every poll is pending: polls come every 50 ms in tests).
 */
const sales = (statuses: Record<string, string[]>, gate = { open: true }) => {
  let n = 0;
  return {
    [INITIATE]: (): FakeReply => {
      n += 1;
      return {
        ok: {
          payment_id: `pay_${n}`,
          checkout_id: `chk_${n}`,
          amount: 450,
          currency: 'USD',
          status: 'pending',
        },
      };
    },
    [STATUS]: (raw: unknown): FakeReply => {
      const id = (raw as { payment_id: string }).payment_id;
      if (!gate.open) return { ok: { payment_id: id, status: 'pending', checkout_status: null } };
      const queue = statuses[id] ?? ['pending'];
      const status = queue.length > 1 ? queue.shift()! : queue[0]!;
      return { ok: { payment_id: id, status, checkout_status: null } };
    },
  };
};

/** The kiosk page at its link (the reader's id is read from the address, as on a kiosk). */
const openKiosk = (search: string) => {
  window.history.replaceState(null, '', `/${search}`);
  return renderAlbums(search);
};

afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe(
  'the kiosk’s Square card reader (sqDeviceId in the kiosk link)',
  { timeout: 30_000 },
  () => {
    it('starts the sale on the link’s reader, waits for the card, and says when it was declined or timed out', async () => {
      const gate = { open: false };
      const api = installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: buttons,
        ...sales({ pay_1: ['pending', 'failed'], pay_2: ['expired'] }, gate),
      });
      openKiosk(LINK);
      const reader = await screen.findByRole('region', { name: 'Pay by card on the reader' });
      const user = userEvent.setup();
      await user.click(
        await within(reader).findByRole('button', { name: 'All my photos — $4.50 by card' }),
      );
      const waiting = await within(reader).findByRole('status');
      expect(waiting.textContent).toContain('$4.50');
      expect(waiting.textContent).toContain('Tap, insert or swipe your card on the card reader.');
      // The kiosk sells: its private key with its link's display token (a private key alone is
      // refused), for the prices and for the sale.
      const kioskPrices = api
        .callsTo(BUTTONS)
        .map((call) => call.body as Record<string, unknown>)
        .filter((body) => body.key_type === 'private');
      expect(kioskPrices.length).toBeGreaterThan(0);
      for (const body of kioskPrices)
        expect(body).toMatchObject({ key_value: KIOSK_KEY, display: DISPLAY });
      expect(api.callsTo(INITIATE)[0]?.body).toMatchObject({
        key_type: 'private',
        key_value: KIOSK_KEY,
        display: DISPLAY,
        attendee_uid: ATT,
        pricing_button_index: 0,
        device_id: DEVICE,
      });
      gate.open = true;
      expect((await within(reader).findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
        'The card was declined. Nothing was charged; you can try again.',
      );
      expect(
        api.callsTo(STATUS).every((c) => (c.body as { payment_id: string }).payment_id === 'pay_1'),
      ).toBe(true);

      await user.click(
        within(reader).getByRole('button', { name: 'All my photos — $4.50 by card' }),
      );
      await waitFor(
        () =>
          expect(within(reader).getByRole('alert').textContent).toBe(
            'The card reader timed out. Nothing was charged; you can start again.',
          ),
        { timeout: 10_000 },
      );
      // Still locked: the reader's buttons are offered again; no QR code for a phone beside the
      // reader (the event's "QR code at kiosk checkout" is off).
      expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull();
      expect(api.callsTo(INITIATE)).toHaveLength(2);
    });

    it('cancel cancels the sale at the reader; a paid sale opens the album on the server’s word', async () => {
      let unlocked = false;
      const sale = sales({ pay_1: ['pending'], pay_2: ['pending', 'paid'] });
      const api = installFakeApi({
        [RETRIEVE]: () => ({ ok: attendee(unlocked ? 1 : 0) }),
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: buttons,
        [INITIATE]: sale[INITIATE],
        [STATUS]: (raw: unknown) => {
          const reply = sale[STATUS](raw);
          if ('ok' in reply && (reply.ok as { status: string }).status === 'paid') unlocked = true;
          return reply;
        },
        [CANCEL]: (raw: unknown): FakeReply => ({
          ok: { payment_id: (raw as { payment_id: string }).payment_id, status: 'cancelled' },
        }),
      });
      openKiosk(LINK);
      const reader = await screen.findByRole('region', { name: 'Pay by card on the reader' });
      const user = userEvent.setup();
      await user.click(
        await within(reader).findByRole('button', { name: 'All my photos — $4.50 by card' }),
      );
      await user.click(await within(reader).findByRole('button', { name: 'Cancel' }));
      expect((await within(reader).findByRole('alert')).textContent).toBe(
        'The card payment was cancelled. Nothing was charged.',
      );
      expect(api.callsTo(CANCEL)[0]?.body).toMatchObject({
        key_type: 'private',
        key_value: KIOSK_KEY,
        display: DISPLAY,
        payment_id: 'pay_1',
      });

      await user.click(
        within(reader).getByRole('button', { name: 'All my photos — $4.50 by card' }),
      );
      await waitFor(
        () =>
          expect(screen.queryByRole('region', { name: 'Pay by card on the reader' })).toBeNull(),
        { timeout: 10_000 },
      );
      expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull();
      // The checkout went away with the lock: the guest is told it is paid.
      expect(await screen.findByText('Paid — thank you. Your photos are open.')).toBeTruthy();
    });

    it('with “QR code at kiosk checkout” on, the QR code for a phone is offered beside the reader', async () => {
      installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: buttons,
        [EVENT]: { ok: [storedEvent({ opts: { ...storedEvent().opts, qrAtKioskCheckout: 1 } })] },
      });
      openKiosk(LINK);
      expect(await screen.findByRole('region', { name: 'Pay by card on the reader' })).toBeTruthy();
      expect(await screen.findByRole('region', { name: 'Get your photos' })).toBeTruthy();
    });

    it('an event whose kiosks do not offer the reader shows none, even with sqDeviceId', async () => {
      installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: (body): FakeReply => {
          const reply = buttons(body) as { ok: object };
          return { ok: { ...reply.ok, methods: ['qr'] } };
        },
      });
      openKiosk(LINK);
      await screen.findByRole('region', { name: 'Get your photos' });
      expect(screen.queryByRole('region', { name: 'Pay by card on the reader' })).toBeNull();
    });

    it('a kiosk link without sqDeviceId offers no card reader', async () => {
      installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: buttons,
      });
      openKiosk(`?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}`);
      await screen.findByRole('region', { name: 'Get your photos' });
      expect(screen.queryByRole('region', { name: 'Pay by card on the reader' })).toBeNull();
    });
  },
);

describe('the venue’s payment terminal at the kiosk', { timeout: 30_000 }, () => {
  const PAY = '/payment/terminal/pay';
  const CHECK = '/payment/terminal/check-status';
  const TERMINAL_CANCEL = '/payment/terminal/cancel';

  it('starts the sale with the kiosk key, shows each failed status check and asks again until paid', async () => {
    // Each answer holds until the test has read what it shows (polls are 50 ms apart in tests).
    let stage = 0;
    const checks: FakeReply[] = [
      {
        ok: {
          payment_id: 'tp_1',
          status: 'pending',
          error_message: 'Error code - 12 Card removed',
        },
      },
      { networkError: true },
      { ok: { payment_id: 'tp_1', status: 'paid', error_message: null } },
    ];
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons,
      [PAY]: {
        ok: {
          payment_id: 'tp_1',
          request_id: 'r1',
          amount: 450,
          currency: 'USD',
          status: 'pending',
        },
      },
      [CHECK]: () => checks[stage]!,
    });
    // A kiosk link without a paired Square reader: the terminal alone.
    openKiosk(`?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}&display=${DISPLAY}`);
    const terminal = await screen.findByRole('region', { name: 'Pay on the payment terminal' });
    expect(screen.queryByRole('region', { name: 'Pay by card on the reader' })).toBeNull();
    const user = userEvent.setup();
    await user.click(
      await within(terminal).findByRole('button', {
        name: 'All my photos — $4.50 on the terminal',
      }),
    );
    const waiting = await within(terminal).findByRole('status');
    expect(waiting.textContent).toContain('Follow the payment terminal to pay by card.');
    expect(api.callsTo(PAY)[0]?.body).toMatchObject({
      key_type: 'private',
      key_value: KIOSK_KEY,
      display: DISPLAY,
      attendee_uid: ATT,
      pricing_button_index: 0,
    });
    // The terminal's refusal text, then the kiosk's own when no answer came.
    expect(await within(terminal).findByText('Error code - 12 Card removed')).toBeTruthy();
    stage = 1;
    expect(await within(terminal).findByText('Status check failed')).toBeTruthy();
    stage = 2;
    expect(await within(terminal).findByText('Paid. Your photos are opening.')).toBeTruthy();
    expect(api.callsTo(CHECK).map((c) => c.body)).toContainEqual({
      key_type: 'private',
      key_value: KIOSK_KEY,
      display: DISPLAY,
      payment_id: 'tp_1',
    });
    expect(api.callsTo(TERMINAL_CANCEL)).toHaveLength(0);
  });

  it('cancels a waiting sale at the terminal', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons,
      [PAY]: {
        ok: {
          payment_id: 'tp_2',
          request_id: 'r2',
          amount: 450,
          currency: 'USD',
          status: 'pending',
        },
      },
      [CHECK]: { ok: { payment_id: 'tp_2', status: 'pending', error_message: null } },
      [TERMINAL_CANCEL]: { ok: { payment_id: 'tp_2', status: 'cancelled' } },
    });
    openKiosk(`?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}&display=${DISPLAY}`);
    const terminal = await screen.findByRole('region', { name: 'Pay on the payment terminal' });
    const user = userEvent.setup();
    await user.click(
      await within(terminal).findByRole('button', {
        name: 'All my photos — $4.50 on the terminal',
      }),
    );
    await user.click(await within(terminal).findByRole('button', { name: 'Cancel' }));
    expect((await within(terminal).findByRole('alert')).textContent).toBe(
      'The payment was cancelled. Nothing was charged.',
    );
  });
});
