import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BUYER_ALBUM_URL,
  chooseTwoPhotosWithEmail,
  expectTwoPhotoPurchase,
  PAID_ATTENDEE,
  paidAttendee,
  paidPhoto,
  pricedButtons,
  purchaseStatus,
} from '../../../../test/checkout-fixtures.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';

const loaded: string[] = [];
vi.mock('../utils/load-script.ts', () => ({
  loadScript: vi.fn((src: string) => {
    loaded.push(src);
    return Promise.resolve();
  }),
}));

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const QR = '/payment/create-qr-payment';
const SETTINGS = '/payment/paypal/settings';
const CREATE = '/payment/paypal/create-order';
const CAPTURE = '/payment/paypal/capture-order';
const ATT = PAID_ATTENDEE;
const attendee = paidAttendee;
const withOriginal = paidPhoto;
const SCRIPT = 'https://paypal.test/sdk/js?client-id=abc&currency=USD&intent=capture';

const buttons = pricedButtons(450);

/**
 * A stand-in for PayPal's SDK namespace (`paypal.Buttons`): its rendered button plays the buyer
 * finishing PayPal's card form, which calls createOrder, then onApprove with the order id.
 */
interface ButtonsOptions {
  fundingSource: string;
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
  onError?: (error: unknown) => void;
}
const installPayPal = () => {
  const made: ButtonsOptions[] = [];
  (window as { paypal?: unknown }).paypal = {
    FUNDING: { CARD: 'card', PAYPAL: 'paypal' },
    Buttons: (options: ButtonsOptions) => {
      made.push(options);
      let node: HTMLElement | null = null;
      return {
        isEligible: () => options.fundingSource === 'card',
        render: (host: HTMLElement) => {
          node = document.createElement('button');
          node.textContent = 'PayPal card form: pay';
          node.addEventListener('click', () => {
            options
              .createOrder()
              .then((orderID) => options.onApprove({ orderID }))
              .catch((error: unknown) => options.onError?.(error));
          });
          host.appendChild(node);
          return Promise.resolve();
        },
        close: () => {
          node?.remove();
          return Promise.resolve();
        },
      };
    },
  };
  return made;
};

/** PayPal's create-order through our server: each order numbered (`pay_1`, `ORDER1`, …), pending. */
const createdOrders = (amount: number) => {
  let orders = 0;
  return () => {
    orders += 1;
    return {
      ok: {
        payment_id: `pay_${orders}`,
        order_id: `ORDER${orders}`,
        amount,
        currency: 'USD',
        status: 'pending',
      },
    };
  };
};

/**
 * Taps a pricing button; PayPal's card step opens for that amount, with PayPal's script (and only
 * it) loaded and its buttons made for card funding. Answers the card form's pay button.
 */
const expectCardStep = async (
  panel: HTMLElement,
  made: ButtonsOptions[],
  button: string,
  amount: string,
) => {
  await userEvent.click(await within(panel).findByRole('button', { name: button }));
  expect(await within(panel).findByRole('heading', { name: `Pay ${amount} by card` })).toBeTruthy();
  const pay = await within(panel).findByRole('button', { name: 'PayPal card form: pay' });
  expect([...new Set(loaded)]).toEqual([SCRIPT]);
  expect(made.at(-1)?.fundingSource).toBe('card');
  return pay;
};

/** The card step says the card was declined (and that nothing was charged). */
const expectDeclined = async (panel: HTMLElement) =>
  expect((await within(panel).findByRole('alert')).textContent).toBe(
    'Your card was declined. Nothing was charged; try another card.',
  );

afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { paypal?: unknown }).paypal;
  loaded.length = 0;
});

describe('PayPal card checkout on the album page', { timeout: 30_000 }, () => {
  it('loads PayPal’s script for card funding only; a declined capture unlocks nothing; the server’s paid capture opens the album', async () => {
    const made = installPayPal();
    let paid = false;
    const captures: string[] = ['failed', 'paid'];
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(paid ? 1 : 0) }),
      [LIST]: () => ({ ok: photoPage([paid ? withOriginal : albumPhoto(1)]) }),
      [BUTTONS]: { ok: buttons },
      [SETTINGS]: {
        ok: { enabled: 1, client_id: 'abc', environment: 'sandbox', script_url: SCRIPT },
      },
      [CREATE]: createdOrders(450),
      [CAPTURE]: (raw: unknown) => {
        const status = captures.shift()!;
        paid = status === 'paid';
        return { ok: { payment_id: (raw as { payment_id: string }).payment_id, status } };
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    // Not loaded before the guest chose to pay.
    expect(loaded).toEqual([]);
    const pay = await expectCardStep(panel, made, 'All my photos — $4.50', '$4.50');
    // No QR payment was started for the card.
    expect(api.callsTo(QR)).toEqual([]);

    await userEvent.click(pay);
    await expectDeclined(panel);
    expect(api.callsTo(CREATE)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: ATT,
      attendee_uid: ATT,
      pricing_button_index: 0,
    });
    expect(api.callsTo(CAPTURE)[0]?.body).toMatchObject({ key_value: ATT, payment_id: 'pay_1' });
    expect(screen.getByRole('region', { name: 'Get your photos' })).toBeTruthy();

    // Another card: a new order, captured paid by the server → the album opens without a reload.
    await userEvent.click(within(panel).getByRole('button', { name: 'PayPal card form: pay' }));
    await waitFor(
      () => expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
      { timeout: 10_000 },
    );
    expect(api.callsTo(CAPTURE).map((c) => (c.body as { payment_id: string }).payment_id)).toEqual([
      'pay_1',
      'pay_2',
    ]);
  });

  it('without PayPal for the album the buttons start the phone payment and no script loads', async () => {
    installPayPal();
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: buttons },
      [SETTINGS]: {
        ok: { enabled: 0, client_id: '', environment: 'sandbox', script_url: '' },
      },
      [QR]: {
        ok: {
          payment_id: 'pay_q',
          checkout_url: 'http://localhost/pay/test/pay_q',
          amount: 450,
          currency: 'USD',
          status: 'pending',
        },
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    await waitFor(() => expect(api.callsTo(SETTINGS).length).toBeGreaterThan(0));
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
    );
    expect(await within(panel).findByRole('link', { name: 'Or pay on this device' })).toBeTruthy();
    expect(loaded).toEqual([]);
  });

  it('an album offering only PayPal has no phone payment to fall back to', async () => {
    installPayPal();
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: { ...buttons, methods: ['paypal'] } },
      [SETTINGS]: {
        ok: { enabled: 1, client_id: 'abc', environment: 'sandbox', script_url: SCRIPT },
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
    );
    await within(panel).findByRole('button', { name: 'PayPal card form: pay' });
    expect(within(panel).queryByRole('button', { name: 'Pay with a phone instead' })).toBeNull();
  });

  it('a script that does not load says so and offers the phone payment', async () => {
    const { loadScript } = await import('../utils/load-script.ts');
    vi.mocked(loadScript).mockImplementationOnce(() => Promise.reject(new Error('blocked')));
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: buttons },
      [SETTINGS]: {
        ok: { enabled: 1, client_id: 'abc', environment: 'sandbox', script_url: SCRIPT },
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
    );
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'Card payment is not available right now. You can pay with a phone instead.',
    );
    expect(within(panel).getByRole('button', { name: 'Pay with a phone instead' })).toBeTruthy();
  });
});

describe('PayPal card checkout on the public album of a paid event', { timeout: 30_000 }, () => {
  const EVENT = '/event/full-data/retrieve';
  const PRICING = '/payment/album-purchase/pricing-buttons';
  const PURCHASE = '/payment/album-purchase/create';
  const STATUS = '/payment/album-purchase/status';
  const P_CREATE = '/payment/album-purchase/paypal/create-order';
  const P_CAPTURE = '/payment/album-purchase/paypal/capture-order';
  const pricing = (count: number, card: string) =>
    pricedButtons(count * 350, {
      photo_count: count,
      max_print_photos: 20,
      methods: ['qr', 'paypal'],
      digital_message: '',
      card_script_url: card,
    });

  it('two chosen photos paid in PayPal’s card form: a declined card opens nothing, the server’s paid capture leads to the buyer’s own album', async () => {
    const made = installPayPal();
    const captures = ['failed', 'paid'];
    let paidId: string | null = null;
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: { ok: photoPage([albumPhoto(1), albumPhoto(2), albumPhoto(3)]) },
      [PRICING]: (raw: unknown) => ({
        ok: pricing((raw as { photo_count?: number }).photo_count ?? 3, SCRIPT),
      }),
      [P_CREATE]: createdOrders(700),
      [P_CAPTURE]: (raw: unknown) => {
        const id = (raw as { payment_id: string }).payment_id;
        const status = captures.shift()!;
        if (status === 'paid') paidId = id;
        return { ok: { payment_id: id, status } };
      },
      // The album is named only for the payment the server captured as paid.
      [STATUS]: (raw: unknown) => {
        const id = (raw as { payment_id: string }).payment_id;
        return purchaseStatus(id, id === paidId ? 'paid' : 'failed', id === paidId);
      },
    });
    renderAlbums('?pId=pub-key');
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    await chooseTwoPhotosWithEmail(panel);
    expect(loaded).toEqual([]);
    const pay = await expectCardStep(panel, made, 'All my photos — $7.00', '$7.00');
    // No phone checkout was started for the card.
    expect(api.callsTo(PURCHASE)).toEqual([]);

    await userEvent.click(pay);
    await expectDeclined(panel);
    expectTwoPhotoPurchase(api.callsTo(P_CREATE)[0]?.body);
    expect(api.callsTo(P_CAPTURE)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub-key',
      payment_id: 'pay_1',
    });
    expect(api.callsTo(STATUS)).toEqual([]);

    // Another card: captured paid by the server → the buyer's own album, its link kept.
    await userEvent.click(within(panel).getByRole('button', { name: 'PayPal card form: pay' }));
    expect(
      await within(panel).findByText(
        'Paid — thank you. Your photos are in an album of your own.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Open my album' }).getAttribute('href')).toBe(
      BUYER_ALBUM_URL,
    );
    expect(
      api.callsTo(STATUS).every((c) => (c.body as { payment_id: string }).payment_id === 'pay_2'),
    ).toBe(true);
    expect(window.localStorage.getItem('fb-buyer-album:public:pub-key')).toBe(
      'WXYZ-WXYZ-WXYZ-WXYZ',
    );
  });

  it('without PayPal set up for the album, the buttons go to the phone checkout and no script loads', async () => {
    installPayPal();
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [PRICING]: { ok: pricing(1, '') },
      [PURCHASE]: {
        ok: {
          payment_id: 'pay_q',
          checkout_url: 'http://localhost/pay/test/pay_q',
          amount: 350,
          currency: 'USD',
          status: 'pending',
        },
      },
    });
    renderAlbums('?pId=pub-key');
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $3.50' }),
    );
    await waitFor(() => expect(api.callsTo(PURCHASE)).toHaveLength(1));
    expect(api.callsTo(P_CREATE)).toEqual([]);
    expect(loaded).toEqual([]);
  });
});
