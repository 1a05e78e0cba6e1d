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
import { openCheckoutPage } from '../utils/checkout-place.ts';

// Leaving for the provider's page is a navigation jsdom cannot make: recorded instead.
vi.mock('../utils/checkout-place.ts', async (original) => ({
  ...(await original<typeof import('../utils/checkout-place.ts')>()),
  openCheckoutPage: vi.fn(),
}));

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const CREATE = '/payment/create-qr-payment';
const STATUS = '/payment/check-qr-status';
const DISABLE = '/payment/disable-qr-link';
const ATT = PAID_ATTENDEE;
const attendee = paidAttendee;
const withOriginal = paidPhoto;

const buttons = (amount: number | null) => pricedButtons(amount);
const payment = {
  payment_id: 'pay_abc',
  checkout_url: 'http://localhost/pay/test/pay_abc',
  amount: 450,
  currency: 'USD',
  status: 'pending',
};
const statusReply = (status: string) => ({
  ok: { payment_id: 'pay_abc', status, amount: 450, currency: 'USD' },
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(openCheckoutPage).mockClear();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

/** A phone: a narrow screen (the checkout pays on the phone itself). */
const onPhone = () => vi.stubGlobal('innerWidth', 390);

describe('paid attendee album', { timeout: 30_000 }, () => {
  it('offers the priced buttons, shows the phone QR, and opens the originals once paid — no reload', async () => {
    // The server's word decides: retrieve and list answer unlocked only after a poll said paid.
    // Pending until the test has seen the QR code (polls come every 50 ms in tests).
    let paid = false;
    let mayPay = false;
    let polls = 0;
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(paid ? 1 : 0) }),
      [LIST]: () => ({ ok: photoPage([paid ? withOriginal : albumPhoto(1)]) }),
      [BUTTONS]: { ok: buttons(450) },
      [CREATE]: { ok: payment },
      [STATUS]: () => {
        if (mayPay) polls += 1;
        paid = polls >= 2;
        return statusReply(paid ? 'paid' : 'pending');
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    const buy = await within(panel).findByRole('button', { name: 'All my photos — $4.50' });
    await userEvent.click(buy);
    expect(
      await within(panel).findByRole('img', { name: 'QR code of the payment page' }),
    ).toBeTruthy();
    expect(
      within(panel).getByRole('link', { name: 'Or pay on this device' }).getAttribute('href'),
    ).toBe(payment.checkout_url);
    expect(api.callsTo(CREATE)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: ATT,
      attendee_uid: ATT,
      pricing_button_index: 0,
    });
    mayPay = true;
    // Polled until the server says paid; then the album is read again and the panel goes.
    await waitFor(
      () => expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
      {
        timeout: 10_000,
      },
    );
    expect(api.callsTo(STATUS).length).toBeGreaterThanOrEqual(2);
    await userEvent.click(await screen.findByRole('button', { name: /^photo-1\.jpg,/ }));
    const link = within(await screen.findByRole('dialog')).getByRole('link', {
      name: 'Download original',
    });
    expect(link.getAttribute('href')).toBe('/media/photos/1/original?s=x');
  });

  it('shows the digital message, explains combo required, and after paying offers the operator’s upsell', async () => {
    let paid = false;
    let polls = 0;
    const selling = () => ({
      ...buttons(null),
      digital_message: 'Full resolution <no watermark>',
      upsell_message: paid ? 'Loved them? Add prints!' : null,
      buttons: [
        { index: 0, button_text: 'Digitals', digitals: true, prints: false, amount: 300 },
        {
          index: 1,
          button_text: 'Prints',
          digitals: false,
          prints: true,
          amount: 200,
          requires_digital: !paid,
        },
      ],
    });
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(paid ? 1 : 0) }),
      [LIST]: () => ({ ok: photoPage([paid ? withOriginal : albumPhoto(1)]) }),
      [BUTTONS]: () => ({ ok: selling() }),
      [CREATE]: { ok: payment },
      [STATUS]: () => {
        polls += 1;
        paid = polls >= 2;
        return statusReply(paid ? 'paid' : 'pending');
      },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    // The operator's text, as text.
    expect(await within(panel).findByText('Full resolution <no watermark>')).toBeTruthy();
    expect(
      within(panel).getByText(
        'Prints are sold with the digital photos: buy the digital photos first.',
      ),
    ).toBeTruthy();
    expect(
      within(panel).getByRole<HTMLButtonElement>('button', { name: 'Prints — $2.00' }).disabled,
    ).toBe(true);
    await userEvent.click(within(panel).getByRole('button', { name: 'Digitals — $3.00' }));
    // Paid: the album opens, and the upsell offers the prints with the operator's message.
    const upsell = await screen.findByRole(
      'region',
      { name: 'More from your photos' },
      { timeout: 10_000 },
    );
    expect(within(upsell).getByText('Loved them? Add prints!')).toBeTruthy();
    expect(within(upsell).queryByRole('button', { name: /Digitals/ })).toBeNull();
    await userEvent.click(within(upsell).getByRole('button', { name: 'Prints — $2.00' }));
    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(2));
    expect(api.callsTo(CREATE)[1]?.body).toMatchObject({ pricing_button_index: 1 });
  });

  it.each([
    ['EUR', 450, 'All my photos — €4.50'],
    ['JPY', 450, 'All my photos — ¥450'],
  ])(
    "prices in the organisation's currency (%s), formatted by Intl",
    async (currency, amount, name) => {
      installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: { ok: { ...buttons(amount), currency } },
      });
      renderAlbums(`?attId=${ATT}`);
      const panel = await screen.findByRole('region', { name: 'Get your photos' });
      expect(await within(panel).findByRole('button', { name })).toBeTruthy();
    },
  );

  it.each([
    ['failed', 'The card was declined. Nothing was charged.'],
    ['expired', 'This payment expired. Nothing was charged.'],
    ['cancelled', 'Payment cancelled. Nothing was charged.'],
  ])(
    'on a phone the guest pays on the checkout page (no QR); a %s payment says so and leads back to the album',
    async (status, text) => {
      onPhone();
      installFakeApi({
        [RETRIEVE]: { ok: attendee(0) },
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: { ok: buttons(null) },
        [CREATE]: { ok: payment },
        [STATUS]: statusReply(status),
      });
      renderAlbums(`?attId=${ATT}`);
      const panel = await screen.findByRole('region', { name: 'Get your photos' });
      await userEvent.click(await within(panel).findByRole('button', { name: 'All my photos' }));
      // Off to the provider's page at once (the page also offers to go there again).
      await waitFor(() => expect(openCheckoutPage).toHaveBeenCalledTimes(1));
      expect(vi.mocked(openCheckoutPage).mock.calls[0]?.[0]).toContain('/pay/test/pay_abc');
      expect(within(panel).queryByRole('img', { name: 'QR code of the payment page' })).toBeNull();
      expect(within(panel).getByRole('link', { name: 'Pay $4.50' })).toBeTruthy();
      expect(
        (await within(panel).findByText(text, {}, { timeout: 10_000 })).getAttribute('role'),
      ).toBe('status');
      await userEvent.click(within(panel).getByRole('button', { name: 'Back to the album' }));
      expect(await within(panel).findByRole('button', { name: 'All my photos' })).toBeTruthy();
    },
  );

  it('back from the checkout page the album goes on with the payment it started, and opens once paid', async () => {
    onPhone();
    window.sessionStorage.setItem(
      `fb-checkout:attendee:${ATT}`,
      JSON.stringify({ payment_id: 'pay_abc', checkout_url: payment.checkout_url, amount: 450 }),
    );
    let paid = false;
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(paid ? 1 : 0) }),
      [LIST]: () => ({ ok: photoPage([paid ? withOriginal : albumPhoto(1)]) }),
      [BUTTONS]: { ok: buttons(450) },
      [STATUS]: () => {
        paid = true;
        return statusReply('paid');
      },
    });
    renderAlbums(`?attId=${ATT}`);
    // The server said paid: the album reloads unlocked and the panel goes.
    await waitFor(() => expect(api.callsTo(STATUS).length).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    expect(api.callsTo(STATUS)[0]?.body).toMatchObject({ payment_id: 'pay_abc' });
    await waitFor(
      () => expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
      { timeout: 10_000 },
    );
    expect(api.callsTo(CREATE)).toHaveLength(0);
    expect(window.sessionStorage.getItem(`fb-checkout:attendee:${ATT}`)).toBeNull();
  });

  it('a large screen shows the QR code; cancelling closes the payment’s link and leads back', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: buttons(450) },
      [CREATE]: { ok: payment },
      [STATUS]: statusReply('pending'),
      [DISABLE]: { ok: { payment_id: 'pay_abc', status: 'cancelled' } },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
    );
    await within(panel).findByRole('img', { name: 'QR code of the payment page' });
    expect(openCheckoutPage).not.toHaveBeenCalled();
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel payment' }));
    expect(await within(panel).findByText('Payment cancelled. Nothing was charged.')).toBeTruthy();
    expect(api.callsTo(DISABLE)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: ATT,
      payment_id: 'pay_abc',
    });
    await userEvent.click(within(panel).getByRole('button', { name: 'Back to the album' }));
    expect(
      await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
    ).toBeTruthy();
  });

  it('prices the photos the guest chose and buys exactly those', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1), albumPhoto(2), albumPhoto(3)]) },
      // The server prices the count it is given: $3.50 a photo.
      [BUTTONS]: (raw: unknown) => {
        const body = raw as { photo_count?: number };
        return {
          ok: { ...buttons((body.photo_count ?? 3) * 350), photo_count: body.photo_count ?? 3 },
        };
      },
      [CREATE]: { ok: payment },
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    expect(
      await within(panel).findByRole('button', { name: 'All my photos — $10.50' }),
    ).toBeTruthy();
    await userEvent.click(within(panel).getByRole('button', { name: 'Choose photos' }));
    // Nothing chosen yet: no price, nothing to buy.
    const none = within(panel).getByRole('button', { name: 'All my photos' });
    expect((none as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /^photo-1\.jpg,/ }));
    await userEvent.click(screen.getByRole('button', { name: /^photo-3\.jpg,/ }));
    expect(within(panel).getByRole('status').textContent).toBe('2 photos chosen');
    const buy = await within(panel).findByRole('button', { name: 'All my photos — $7.00' });
    expect(api.callsTo(BUTTONS).at(-1)?.body).toMatchObject({ photo_count: 2 });
    await userEvent.click(buy);
    await within(panel).findByRole('img', { name: 'QR code of the payment page' });
    const sent = api.callsTo(CREATE)[0]?.body as { photo_uids?: string[] };
    expect([...(sent.photo_uids ?? [])].sort()).toEqual(
      [albumPhoto(1).uid, albumPhoto(3).uid].sort(),
    );
  });

  it('a locked album offers no “Download all” (its zip would be refused); an unlocked one does', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: buttons(450) },
    });
    const locked = renderAlbums(`?attId=${ATT}`);
    await screen.findByRole('region', { name: 'Get your photos' });
    expect(screen.queryByRole('button', { name: 'Download all' })).toBeNull();
    locked.unmount();
    installFakeApi({
      [RETRIEVE]: { ok: attendee(1) },
      [LIST]: { ok: photoPage([withOriginal]) },
    });
    renderAlbums(`?attId=${ATT}`);
    expect(await screen.findByRole('button', { name: 'Download all' })).toBeTruthy();
  });

  it('shows nothing for a free event', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: { ...buttons(100), is_free: 1, buttons: [] } },
    });
    renderAlbums(`?attId=${ATT}`);
    await waitFor(() => expect(api.callsTo(BUTTONS).length).toBeGreaterThan(0));
    await screen.findByRole('button', { name: /^photo-1\.jpg,/ });
    expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull();
  });
});

describe('buying from the public album of a paid event', { timeout: 30_000 }, () => {
  const EVENT = '/event/full-data/retrieve';
  const PRICING = '/payment/album-purchase/pricing-buttons';
  const PURCHASE = '/payment/album-purchase/create';
  const PURCHASE_STATUS = '/payment/album-purchase/status';
  const ALBUM_URL = BUYER_ALBUM_URL;

  it('a phone guest chooses two photos, pays on the checkout page and gets the link of an album of their own', async () => {
    onPhone();
    let polls = 0;
    const api = installFakeApi({
      [EVENT]: {
        ok: [
          storedEvent({
            is_free: 0,
            opts: { ...storedEvent().opts, guestAccentColor: '#1c3d8f' },
          }),
        ],
      },
      [LIST]: { ok: photoPage([albumPhoto(1), albumPhoto(2), albumPhoto(3)]) },
      [PRICING]: (raw: unknown) => {
        const count = (raw as { photo_count?: number }).photo_count ?? 3;
        return { ok: { ...buttons(count * 350), photo_count: count } };
      },
      [PURCHASE]: { ok: { ...payment, amount: 700 } },
      // Paid, but the photos are not in the album yet: the page waits for the album's link.
      [PURCHASE_STATUS]: () => {
        polls += 1;
        return purchaseStatus('pay_abc', 'paid', polls >= 2);
      },
    });
    renderAlbums('?pId=pub-key');
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    expect(await within(panel).findByRole('button', { name: 'Every photo (3)' })).toBeTruthy();
    // The checkout's buttons are the event's colour (design/tokens.css reads --fb-accent).
    expect(
      panel.closest<HTMLElement>('[style*="--fb-accent"]')?.style.getPropertyValue('--fb-accent'),
    ).toBe('#1c3d8f');
    await chooseTwoPhotosWithEmail(panel);
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'All my photos — $7.00' }),
    );
    await waitFor(() => expect(openCheckoutPage).toHaveBeenCalledTimes(1));
    expectTwoPhotoPurchase(api.callsTo(PURCHASE)[0]?.body);
    expect(
      await within(panel).findByText(
        'Paid — thank you. Your photos are in an album of your own.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(within(panel).getByRole('link', { name: 'Open my album' }).getAttribute('href')).toBe(
      ALBUM_URL,
    );
    expect(within(panel).getByRole('link', { name: ALBUM_URL })).toBeTruthy();
    // The next purchase on this device joins the same album.
    expect(window.localStorage.getItem('fb-buyer-album:public:pub-key')).toBe(
      'WXYZ-WXYZ-WXYZ-WXYZ',
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Back to the album' }));
    expect(await within(panel).findByRole('button', { name: 'Every photo (3)' })).toBeTruthy();
  });

  it('a phone guest prints their favourites in one step: the prints button, at checkout at once', async () => {
    onPhone();
    const printsButtons = (count: number) => ({
      ...buttons(count * 350),
      photo_count: count,
      buttons: [
        { index: 0, button_text: 'All my photos', digitals: true, prints: false, amount: 350 },
        { index: 1, button_text: 'Prints', digitals: false, prints: true, amount: 500 },
      ],
    });
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: (body) =>
        (body as { photo_id_array?: number[] }).photo_id_array
          ? { ok: photoPage([albumPhoto(3), albumPhoto(1)]) }
          : { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [PRICING]: (raw: unknown) => ({
        ok: printsButtons((raw as { photo_count?: number }).photo_count ?? 3),
      }),
      [PURCHASE]: { ok: { ...payment, amount: 1000 } },
      [PURCHASE_STATUS]: { ok: { ...statusReply('pending').ok, album_uid: null, album_url: null } },
    });
    renderAlbums('?pId=pub-key');
    await userEvent.click(await screen.findByRole('button', { name: 'Favourite photo-3.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Favourite photo-1.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'My favourites (2)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Print my favourites' }));
    // One tap: the purchase of the prints button for exactly the favourites, then its checkout.
    await waitFor(() => expect(openCheckoutPage).toHaveBeenCalledTimes(1));
    expect(api.callsTo(PURCHASE)).toHaveLength(1);
    const sent = api.callsTo(PURCHASE)[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      key_type: 'public',
      key_value: 'pub-key',
      pricing_button_index: 1,
    });
    expect([...(sent.photo_uids as string[])].sort()).toEqual(
      [albumPhoto(1).uid, albumPhoto(3).uid].sort(),
    );
  });

  it('more favourites than the event prints at once: the guest is told and chooses which before paying', async () => {
    onPhone();
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [PRICING]: (raw: unknown) => {
        const count = (raw as { photo_count?: number }).photo_count ?? 3;
        return {
          ok: {
            ...buttons(count * 350),
            photo_count: count,
            max_print_photos: 2,
            buttons: [
              {
                index: 0,
                button_text: 'All my photos',
                digitals: true,
                prints: false,
                amount: 350,
              },
              { index: 1, button_text: 'Prints', digitals: false, prints: true, amount: 500 },
            ],
          },
        };
      },
      [PURCHASE]: { ok: { ...payment, amount: 1000 } },
      [PURCHASE_STATUS]: { ok: { ...statusReply('pending').ok, album_uid: null, album_url: null } },
    });
    renderAlbums('?pId=pub-key');
    for (const n of [3, 2, 1])
      await userEvent.click(
        await screen.findByRole('button', { name: `Favourite photo-${n}.jpg` }),
      );
    await userEvent.click(screen.getByRole('button', { name: 'My favourites (3)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Print my favourites' }));
    // Three favourites, two prints at most: said before any payment starts, the three chosen.
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    expect(
      await within(panel).findByText(
        'Only 2 photos can be printed at once. Tap photos to leave them out, then buy the prints.',
      ),
    ).toBeTruthy();
    expect(within(panel).getByText('3 photos chosen')).toBeTruthy();
    const prints = await within(panel).findByRole<HTMLButtonElement>('button', { name: /^Prints/ });
    expect(prints.disabled).toBe(true);
    expect(api.callsTo(PURCHASE)).toHaveLength(0);
    expect(openCheckoutPage).not.toHaveBeenCalled();
    // One left out: the prints button takes the two, and the note has gone.
    await userEvent.click(screen.getByRole('button', { name: /^photo-2\.jpg,/ }));
    await waitFor(() =>
      expect(
        within(panel).getByRole<HTMLButtonElement>('button', { name: /^Prints/ }).disabled,
      ).toBe(false),
    );
    expect(within(panel).queryByText(/can be printed at once/)).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: /^Prints/ }));
    await waitFor(() => expect(openCheckoutPage).toHaveBeenCalledTimes(1));
    const sent = api.callsTo(PURCHASE)[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ pricing_button_index: 1 });
    expect([...(sent.photo_uids as string[])].sort()).toEqual(
      [albumPhoto(1).uid, albumPhoto(3).uid].sort(),
    );
  });

  it('offers no "Print my favourites" where no button sells prints (the server offers none)', async () => {
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [PRICING]: { ok: buttons(350) },
    });
    renderAlbums('?pId=pub-key');
    await userEvent.click(await screen.findByRole('button', { name: 'Favourite photo-1.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'My favourites (1)' }));
    await screen.findByRole('button', { name: 'Buy my favourites' });
    await waitFor(() => expect(api.callsTo(PRICING).length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: 'Print my favourites' })).toBeNull();
  });

  it('the buyer’s e-mail field offers the event’s e-mail endings (opts.emailEnds)', async () => {
    const event = storedEvent({ is_free: 0 });
    installFakeApi({
      [EVENT]: { ok: [{ ...event, opts: { ...event.opts, emailEnds: ['gala.example'] } }] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [PRICING]: { ok: buttons(350) },
    });
    renderAlbums('?pId=pub-key');
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    const input = within(panel).getByLabelText<HTMLInputElement>(/Your e-mail/);
    await userEvent.type(input, 'kim@');
    await waitFor(() =>
      expect([...(input.list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
        'kim@gala.example',
      ]),
    );
  });

  it('a free event’s public album offers nothing to buy', async () => {
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 1 })] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums('?pId=pub-key');
    await screen.findByRole('button', { name: /^photo-1\.jpg,/ });
    expect(screen.queryByRole('region', { name: 'Buy photos' })).toBeNull();
    expect(api.callsTo(PRICING)).toHaveLength(0);
  });

  it('a paid event’s private link offers no “Download all” (its key gets no originals); a free one does', async () => {
    installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [PRICING]: { ok: buttons(350) },
    });
    const paid = renderAlbums('?pvId=priv-key');
    await screen.findByRole('region', { name: 'Buy photos' });
    expect(screen.queryByRole('button', { name: 'Download all' })).toBeNull();
    paid.unmount();
    installFakeApi({
      [EVENT]: { ok: [storedEvent({ is_free: 1 })] },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums('?pvId=priv-key-2');
    expect(await screen.findByRole('button', { name: 'Download all' })).toBeTruthy();
  });
});
