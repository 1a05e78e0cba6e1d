import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const CREATE = '/payment/create-qr-payment';
const STATUS = '/payment/check-qr-status';
const ATT = 'ABCDEFGHJKMNPQRS';

const attendee = (unlocked: 0 | 1) => ({
  uid: ATT,
  display_uid: 'ABCD-EFGH-JKMN-PQRS',
  organisation_id: 7,
  email: null,
  is_prepaid: 0,
  unlocked,
  expires_date: null,
  events: [{ name: 'AB12', full_name: 'Gala', empty_album_text: 'Soon', logo_full_path: null }],
  photo_count: 1,
});
const buttons = (amount: number | null) => ({
  is_free: 0,
  currency: 'USD',
  methods: ['qr', 'paypal', 'square'],
  photo_count: 1,
  buttons: [{ index: 0, button_text: 'All my photos', digitals: true, prints: false, amount }],
});
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
const withOriginal = albumPhoto(1, {
  urls: { ...albumPhoto(1).urls, original: '/media/photos/1/original?s=x' },
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('paid attendee album', { timeout: 30_000 }, () => {
  it('offers the priced buttons, shows the phone QR, and opens the originals once paid — no reload', async () => {
    // The server's word decides: retrieve and list answer unlocked only after a poll said paid.
    let paid = false;
    let polls = 0;
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(paid ? 1 : 0) }),
      [LIST]: () => ({ ok: photoPage([paid ? withOriginal : albumPhoto(1)]) }),
      [BUTTONS]: { ok: buttons(450) },
      [CREATE]: { ok: payment },
      [STATUS]: () => {
        polls += 1;
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

  it('a declined payment unlocks nothing and lets the guest start again; hidden prices show no amount', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: { ok: buttons(null) },
      [CREATE]: { ok: payment },
      [STATUS]: statusReply('failed'),
    });
    renderAlbums(`?attId=${ATT}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'All my photos' }));
    expect((await within(panel).findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
      'The payment did not go through. Nothing was charged; you can try again.',
    );
    expect(within(panel).getByRole('button', { name: 'All my photos' })).toBeTruthy();
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
