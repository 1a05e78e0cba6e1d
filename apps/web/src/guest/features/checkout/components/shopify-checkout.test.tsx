import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { openStaffControls, STAFF_PIN_PATH } from '../../../../test/kiosk-staff.ts';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const STATUS = '/payment/check-qr-status';
const SELF = '/shopify/buy-product-from-kiosk-self-checkout';
const COUNTER = '/shopify/buy-product-from-kiosk';
const DRAFT = '/shopify/admin/create-draft-order';
const COMPLETE = '/shopify/admin/complete-draft-order';
const COMPLETE_SELF = '/shopify/admin/complete-draft-order-self-checkout';
const RECEIPT = '/shopify/send-receipt';
const ATT = 'ABCDEFGHJKMNPQRS';
const KIOSK_KEY = 'pv-kiosk-key';
const DISPLAY = 'kiosk-display-token';
const LINK = `?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}&display=${DISPLAY}`;
const INVOICE = 'https://flashbulb-photos.myshopify.com/1/invoices/abc';
/** A payment as the status check answers it. */
const SALE = { payment_id: 'pay_1', amount: 450, currency: 'USD' };
const KIOSK = { key_type: 'private', key_value: KIOSK_KEY, display: DISPLAY };

const attendee = (unlocked: boolean) => ({
  ok: {
    uid: ATT,
    display_uid: 'ABCD-EFGH-JKMN-PQRS',
    organisation_id: 7,
    email: null,
    is_prepaid: 0,
    unlocked: unlocked ? 1 : 0,
    expires_date: null,
    events: [{ name: 'AB12', full_name: 'Gala', empty_album_text: 'Soon', logo_full_path: null }],
    photo_count: 1,
  },
});
/** The kiosk's ways to pay: Shopify only when the server says the event's shop is set up. */
const buttons =
  (shop: boolean) =>
  (body: unknown): FakeReply => ({
    ok: {
      is_free: 0,
      currency: 'USD',
      methods:
        (body as { key_type?: string }).key_type === 'private'
          ? ['qr', ...(shop ? ['shopify'] : [])]
          : ['qr'],
      photo_count: 1,
      prints_free: 0,
      prints_remaining: 0,
      buttons: [
        { index: 0, button_text: 'All my photos', digitals: true, prints: false, amount: 450 },
      ],
    },
  });
const started = (status: 'pending' | 'paid', orderId = ''): FakeReply => ({
  ok: {
    payment_id: 'pay_1',
    draft_order_id: '1',
    order_id: orderId,
    invoice_url: INVOICE,
    amount: 450,
    currency: 'USD',
    status,
  },
});

const openKiosk = () => {
  window.history.replaceState(null, '', `/${LINK}`);
  return renderAlbums(LINK);
};

afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('Shopify at the kiosk and the counter', { timeout: 60_000 }, () => {
  it('a guest pays by self-checkout: the invoice as a QR code, the receipt by e-mail, the album opens on the server’s word', async () => {
    let unlocked = false;
    let shopifyPaid = false;
    const api = installFakeApi({
      [RETRIEVE]: () => attendee(unlocked),
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons(true),
      [SELF]: started('pending'),
      [RECEIPT]: [
        { nok: 'email_invalid', field: 'email' },
        { ok: { payment_id: 'pay_1', sent: 1 } },
      ],
      [STATUS]: (): FakeReply => {
        // Shopify's word (its orders/paid) opens the album.
        if (shopifyPaid) unlocked = true;
        return { ok: { ...SALE, status: shopifyPaid ? 'paid' : 'pending' } };
      },
    });
    openKiosk();
    const shop = await screen.findByRole('region', { name: 'Pay with Shopify' });
    // The counter's sales are staff's.
    expect(within(shop).queryByRole('group', { name: 'Sell at the counter' })).toBeNull();
    const user = userEvent.setup();
    await user.click(await within(shop).findByRole('button', { name: 'All my photos — $4.50' }));
    expect(
      await within(shop).findByRole('img', { name: 'QR code of the Shopify checkout' }),
    ).toBeTruthy();
    expect(within(shop).getByText(/Scan the code to pay on your phone/)).toBeTruthy();
    expect(api.callsTo(SELF)[0]?.body).toMatchObject({
      ...KIOSK,
      attendee_uid: ATT,
      pricing_button_index: 0,
    });

    const email = within(shop).getByLabelText('E-mail for the receipt');
    // A kiosk is shared: the browser offers no address an earlier visitor typed.
    expect(email.getAttribute('autocomplete')).toBe('off');
    await user.type(email, 'ada@example');
    await user.click(within(shop).getByRole('button', { name: 'Send the receipt' }));
    expect((await within(shop).findByRole('alert')).textContent).toBe(
      'Enter a valid e-mail address',
    );
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(within(shop).getByRole('button', { name: 'Send the receipt' }));
    expect(
      await within(shop).findByText('The receipt is on its way to ada@example.com.'),
    ).toBeTruthy();
    expect(api.callsTo(RECEIPT).at(-1)?.body).toEqual({
      ...KIOSK,
      payment_id: 'pay_1',
      email: 'ada@example.com',
    });
    // Shopify confirms (the guest paid from the invoice): the album opens, the checkout goes away.
    shopifyPaid = true;
    await waitFor(
      () => expect(screen.queryByRole('region', { name: 'Pay with Shopify' })).toBeNull(),
      { timeout: 10_000 },
    );
    expect(
      api.callsTo(STATUS).every((c) => (c.body as { payment_id: string }).payment_id === 'pay_1'),
    ).toBe(true);
  });

  it('staff sell at the counter: a draft completed for Shopify’s checkout after a refusal, then a one-step sale opens the album', async () => {
    let unlocked = false;
    let expired = false;
    const api = installFakeApi({
      [RETRIEVE]: () => attendee(unlocked),
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons(true),
      [STAFF_PIN_PATH]: { ok: { valid: true } },
      [DRAFT]: started('pending'),
      [COMPLETE]: { nok: 'payment_provider_refused' },
      [COMPLETE_SELF]: { ok: { payment_id: 'pay_1', order_id: '77', status: 'pending' } },
      [STATUS]: () => ({
        ok: { ...SALE, status: expired ? 'expired' : 'pending' },
      }),
      [COUNTER]: () => {
        unlocked = true;
        return started('paid', '78');
      },
    });
    openKiosk();
    const user = userEvent.setup();
    await screen.findByRole('region', { name: 'Pay with Shopify' });
    await openStaffControls(user);
    const shop = screen.getByRole('region', { name: 'Pay with Shopify' });
    const counter = () => within(shop).getByRole('group', { name: 'Sell at the counter' });
    await user.type(
      within(counter()).getByLabelText('Buyer’s e-mail (optional)'),
      'ada@example.com',
    );

    await user.click(
      within(counter()).getByRole('button', { name: 'All my photos — $4.50: draft order' }),
    );
    expect(await within(shop).findByText('Draft order for $4.50 ready.')).toBeTruthy();
    expect(api.callsTo(DRAFT)[0]?.body).toMatchObject({
      ...KIOSK,
      attendee_uid: ATT,
      pricing_button_index: 0,
      email: 'ada@example.com',
    });
    // Shopify refuses the counter's completion: said, and the draft stays to finish another way.
    await user.click(within(shop).getByRole('button', { name: 'Paid at the counter' }));
    expect((await within(shop).findByRole('alert')).textContent).toBeTruthy();
    await user.click(within(shop).getByRole('button', { name: 'Guest pays on Shopify' }));
    expect(
      await within(shop).findByRole('img', { name: 'QR code of the Shopify checkout' }),
    ).toBeTruthy();
    expect(api.callsTo(COMPLETE).map((c) => c.body)).toEqual([{ ...KIOSK, payment_id: 'pay_1' }]);
    expect(api.callsTo(COMPLETE_SELF).map((c) => c.body)).toEqual([
      { ...KIOSK, payment_id: 'pay_1' },
    ]);
    // The guest never paid: the sale ends and the buttons are offered again.
    expired = true;
    expect((await within(shop).findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe(
      'The payment did not go through. Nothing was charged; you can start again.',
    );

    // The one-step counter sale: paid at the counter, the album opens.
    await user.click(
      within(counter()).getByRole('button', { name: 'All my photos — $4.50: paid at the counter' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Pay with Shopify' })).toBeNull(),
    );
    expect(api.callsTo(COUNTER)[0]?.body).toMatchObject({
      ...KIOSK,
      attendee_uid: ATT,
      email: 'ada@example.com',
    });
  });

  it('shows no Shopify where the event has no shop', async () => {
    installFakeApi({
      [RETRIEVE]: () => attendee(false),
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons(false),
    });
    openKiosk();
    expect(await screen.findByRole('region', { name: 'Get your photos' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Pay with Shopify' })).toBeNull();
  });
});
