// What the payment calls answer in the guest checkout tests: the attendee's paid album, the
// event's priced buttons and a purchase's status, each one way for every checkout file.
import { expect } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { albumPhoto } from './render-albums.tsx';

/** The attendee whose album the checkout files pay for. */
export const PAID_ATTENDEE = 'ABCDEFGHJKMNPQRS';

/** `attendee/retrieve` of that attendee's album of a paid event, locked or unlocked. */
export const paidAttendee = (unlocked: 0 | 1) => ({
  uid: PAID_ATTENDEE,
  display_uid: 'ABCD-EFGH-JKMN-PQRS',
  organisation_id: 7,
  email: null,
  is_prepaid: 0,
  unlocked,
  expires_date: null,
  events: [{ name: 'AB12', full_name: 'Gala', empty_album_text: 'Soon', logo_full_path: null }],
  photo_count: 1,
});

/** The album's first photo once paid: its original may be downloaded. */
export const paidPhoto = albumPhoto(1, {
  urls: { ...albumPhoto(1).urls, original: '/media/photos/1/original?s=x' },
});

/**
 * A pricing-buttons answer with one "All my photos" button at `amount` (null: prices hidden) for
 * `photo_count` photos; `methods` and the rest as the call answers them, `more` overriding.
 */
export const pricedButtons = (
  amount: number | null,
  more: { photo_count?: number; methods?: string[] } & Record<string, unknown> = {},
) => ({
  is_free: 0,
  currency: 'USD',
  methods: ['qr', 'paypal', 'square'],
  photo_count: 1,
  // Read by the album purchase (the attendee album's pricing has no such field).
  max_print_photos: 20,
  prints_free: 0,
  prints_remaining: 0,
  buttons: [{ index: 0, button_text: 'All my photos', digitals: true, prints: false, amount }],
  ...more,
});

/** The buyer's own album a purchase from a public album makes. */
export const BUYER_ALBUM_URL = 'http://localhost/?attId=WXYZ-WXYZ-WXYZ-WXYZ';

/** `album-purchase/status` of a $7.00 purchase; the buyer's album named once `albumReady`. */
export const purchaseStatus = (paymentId: string, status: string, albumReady: boolean) => ({
  ok: {
    payment_id: paymentId,
    status,
    amount: 700,
    currency: 'USD',
    album_uid: albumReady ? 'WXYZ-WXYZ-WXYZ-WXYZ' : null,
    album_url: albumReady ? BUYER_ALBUM_URL : null,
  },
});

/**
 * On a public album's "Buy photos" panel: the guest chooses photos 1 and 2 of the grid and types
 * an e-mail for the receipt and the album link.
 */
export const chooseTwoPhotosWithEmail = async (panel: HTMLElement) => {
  await userEvent.click(await within(panel).findByRole('button', { name: 'Choose photos' }));
  await userEvent.click(screen.getByRole('button', { name: /^photo-1\.jpg,/ }));
  await userEvent.click(screen.getByRole('button', { name: /^photo-2\.jpg,/ }));
  await userEvent.type(within(panel).getByLabelText(/Your e-mail/), 'guest@example.com');
};

/**
 * The purchase those steps send: the public key, the first button, the e-mail and exactly photos
 * 1 and 2 (in any order).
 */
export const expectTwoPhotoPurchase = (body: unknown) => {
  const sent = body as Record<string, unknown>;
  expect(sent).toMatchObject({
    key_type: 'public',
    key_value: 'pub-key',
    pricing_button_index: 0,
    email: 'guest@example.com',
  });
  expect([...(sent.photo_uids as string[])].sort()).toEqual(
    [albumPhoto(1).uid, albumPhoto(2).uid].sort(),
  );
};
