import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEALTH_PATH } from '@flashbulb/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../../lib/query-client.ts';
import { PAID_ATTENDEE, paidAttendee, pricedButtons } from '../../../../test/checkout-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { openStaffControls, STAFF_PIN_PATH } from '../../../../test/kiosk-staff.ts';
import { KioskContext, type KioskSession } from '../../../shared/kiosk/kiosk-context.tsx';
import { KioskCheckout } from './kiosk-checkout.tsx';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const BUTTONS = '/payment/pricing-buttons';
const UNLOCK = '/attendee/unlock';
const UNLOCK_PRINT = '/attendee/unlock-and-print';
const CREATE = '/payment/create-qr-payment';
const ATT = PAID_ATTENDEE;
const attendee = paidAttendee;
const KIOSK_KEY = 'pv-kiosk-key';

const buttons = { ok: pricedButtons(450) };

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('kiosk checkout (shop kiosk evSB4 and attendee kiosk pages)', { timeout: 30_000 }, () => {
  it.each(['evSB4', 'evSB2'])(
    '%s: offers the QR checkout and the desk code; a wrong code unlocks nothing, the right one opens the album',
    async (kType) => {
      let unlocked = false;
      const api = installFakeApi({
        [RETRIEVE]: () => ({ ok: attendee(unlocked ? 1 : 0) }),
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [BUTTONS]: buttons,
        [UNLOCK]: (body): FakeReply => {
          if ((body as { unlock_code: string }).unlock_code !== 'K7QX')
            return { nok: 'invalid_unlock_code', status: 400, field: 'unlock_code' };
          unlocked = true;
          return { ok: { attendee_uid: ATT, event_id: 1, unlocked: 1 } };
        },
        [STAFF_PIN_PATH]: { ok: { valid: true } },
        [HEALTH_PATH]: { ok: {} },
      });
      renderAlbums(`?kType=${kType}&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}`);
      const panel = await screen.findByRole('region', { name: 'Get your photos' });
      expect(
        await within(panel).findByRole('button', { name: 'All my photos — $4.50' }),
      ).toBeTruthy();
      // The employee code is staff's: no desk form in the guest's view.
      expect(screen.queryByRole('form', { name: 'Pay at the desk' })).toBeNull();
      expect(screen.queryByLabelText('Employee unlock code')).toBeNull();
      const user = userEvent.setup();
      await openStaffControls(user);
      const desk = screen.getByRole('form', { name: 'Pay at the desk' });
      const code = within(desk).getByLabelText('Employee unlock code');
      // Without print choice only "Unlock" is offered.
      expect(within(desk).queryByRole('button', { name: /print/ })).toBeNull();

      await user.type(code, 'ZZZZ');
      await user.click(within(desk).getByRole('button', { name: 'Unlock' }));
      expect((await within(desk).findByRole('alert')).textContent).toBe(
        'This unlock code is not valid',
      );
      expect(screen.getByRole('region', { name: 'Get your photos' })).toBeTruthy();

      await user.clear(code);
      await user.type(code, 'K7QX');
      await user.click(within(desk).getByRole('button', { name: 'Unlock' }));
      // The album reloads its attendee: unlocked, the checkout goes away.
      await waitFor(() =>
        expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
      );
      expect(api.callsTo(UNLOCK).map((c) => c.body)).toEqual([
        { key_type: 'private', key_value: KIOSK_KEY, attendee_uid: ATT, unlock_code: 'ZZZZ' },
        { key_type: 'private', key_value: KIOSK_KEY, attendee_uid: ATT, unlock_code: 'K7QX' },
      ]);
    },
  );

  it('on a kiosk the desk unlock goes through the outbox: offline it waits, then goes through once', async () => {
    let online = false;
    let unlocked = false;
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(unlocked ? 1 : 0) }),
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons,
      '/event/full-data/retrieve': { networkError: true },
      '/health': () => (online ? { ok: {} } : { networkError: true }),
      [UNLOCK]: (): FakeReply => {
        if (!online) return { networkError: true };
        unlocked = true;
        return { ok: { attendee_uid: ATT, event_id: 1, unlocked: 1 } };
      },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    renderAlbums(`?kType=evSB2&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}`);
    const user = userEvent.setup();
    await openStaffControls(user);
    const desk = await screen.findByRole('form', { name: 'Pay at the desk' });
    await user.type(within(desk).getByLabelText('Employee unlock code'), 'K7QX');
    await user.click(within(desk).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('1 action is waiting to be sent.')).toBeTruthy();
    expect(unlocked).toBe(false);
    online = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
    );
    expect(api.callsTo(UNLOCK).map((c) => c.body)).toEqual([
      { key_type: 'private', key_value: KIOSK_KEY, attendee_uid: ATT, unlock_code: 'K7QX' },
      { key_type: 'private', key_value: KIOSK_KEY, attendee_uid: ATT, unlock_code: 'K7QX' },
    ]);
    expect(screen.queryByText(/waiting to be sent/)).toBeNull();
  });

  it('offers no desk form without the kiosk key; the phone album shows no desk form at all', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee(0) },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [BUTTONS]: buttons,
    });
    const kiosk = renderAlbums(`?kType=evSB4&kioskMode=true&attId=${ATT}`);
    await screen.findByRole('region', { name: 'Get your photos' });
    expect(screen.queryByRole('form', { name: 'Pay at the desk' })).toBeNull();
    kiosk.unmount();
    renderAlbums(`?attId=${ATT}`);
    await screen.findByRole('region', { name: 'Get your photos' });
    expect(screen.queryByRole('form', { name: 'Pay at the desk' })).toBeNull();
  });

  it('evSB4: the guest chooses photos on the kiosk; the QR checkout buys exactly those and the desk prints them', async () => {
    let unlocked = false;
    const api = installFakeApi({
      [RETRIEVE]: () => ({ ok: attendee(unlocked ? 1 : 0) }),
      [LIST]: { ok: photoPage([albumPhoto(1), albumPhoto(2), albumPhoto(3)]) },
      // The server prices the count it is given: $4.50 a photo.
      [BUTTONS]: (raw: unknown) => {
        const count = (raw as { photo_count?: number }).photo_count ?? 3;
        const list = buttons.ok.buttons.map((b) => ({ ...b, amount: count * 450 }));
        return { ok: { ...buttons.ok, photo_count: count, buttons: list } };
      },
      [CREATE]: {
        ok: {
          payment_id: 'pay_kiosk',
          checkout_url: 'https://pay.example/pay/test/pay_kiosk',
          amount: 900,
          currency: 'USD',
          status: 'pending',
        },
      },
      [UNLOCK_PRINT]: (body): FakeReply => {
        unlocked = true;
        const uids = (body as { photo_uid_array: string[] }).photo_uid_array;
        return {
          ok: {
            attendee_uid: ATT,
            event_id: 1,
            unlocked: 1,
            print_request_id: 4,
            photo_count: uids.length,
          },
        };
      },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
      [HEALTH_PATH]: { ok: {} },
    });
    renderAlbums(`?kType=evSB4&kioskMode=true&attId=${ATT}&pvId=${KIOSK_KEY}`);
    const panel = await screen.findByRole('region', { name: 'Get your photos' });
    expect(
      await within(panel).findByRole('button', { name: 'All my photos — $13.50' }),
    ).toBeTruthy();
    const user = userEvent.setup();
    await openStaffControls(user);
    await user.click(within(panel).getByRole('button', { name: 'Choose photos' }));
    const desk = screen.getByRole('form', { name: 'Pay at the desk' });
    // Nothing chosen: nothing to buy or print.
    expect(
      within(panel).getByRole<HTMLButtonElement>('button', { name: 'All my photos' }).disabled,
    ).toBe(true);
    expect(within(desk).queryByRole('button', { name: /print/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /^photo-1\.jpg,/ }));
    await user.click(screen.getByRole('button', { name: /^photo-3\.jpg,/ }));
    // Tapping chooses: no viewer opens on the shared screen.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(panel).getByRole('status').textContent).toBe('2 photos chosen');
    // The whole album keeps its own count while photos are chosen.
    expect(within(panel).getByRole('button', { name: 'The whole album (3 photos)' })).toBeTruthy();
    const chosen = [albumPhoto(1).uid, albumPhoto(3).uid].sort();
    await user.click(await within(panel).findByRole('button', { name: 'All my photos — $9.00' }));
    await within(panel).findByRole('img', { name: 'QR code of the payment page' });
    const sent = api.callsTo(CREATE)[0]?.body as { photo_uids?: string[]; key_type: string };
    expect(sent.key_type).toBe('attendee');
    expect([...(sent.photo_uids ?? [])].sort()).toEqual(chosen);

    // A cash sale instead: the desk unlocks and prints the same chosen photos.
    await user.type(within(desk).getByLabelText('Employee unlock code'), 'K7QX');
    await user.click(within(desk).getByRole('button', { name: 'Unlock and print 2 photos' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Get your photos' })).toBeNull(),
    );
    const printed = api.callsTo(UNLOCK_PRINT)[0]?.body as { photo_uid_array: string[] };
    expect([...printed.photo_uid_array].sort()).toEqual(chosen);
  });

  it('unlock-and-print sends the chosen photos with one request id, kept for a retry after a lost answer', async () => {
    let calls = 0;
    const api = installFakeApi({
      [BUTTONS]: buttons,
      [UNLOCK_PRINT]: (): FakeReply => {
        calls += 1;
        if (calls === 1) return { networkError: true };
        return {
          ok: { attendee_uid: ATT, event_id: 1, unlocked: 1, print_request_id: 9, photo_count: 2 },
        };
      },
    });
    // Staff have opened the kiosk's staff controls (no outbox here: the desk calls directly).
    const staffOpen = { staff: true, kioskKey: KIOSK_KEY, attendeeUid: ATT } as KioskSession;
    render(
      <StrictMode>
        <QueryClientProvider client={createQueryClient()}>
          <KioskContext value={staffOpen}>
            <KioskCheckout attendeeUid={ATT} kioskKey={KIOSK_KEY} printPhotoUids={['p1', 'p2']} />
          </KioskContext>
        </QueryClientProvider>
      </StrictMode>,
    );
    const desk = await screen.findByRole('form', { name: 'Pay at the desk' });
    const user = userEvent.setup();
    await user.type(within(desk).getByLabelText('Employee unlock code'), 'K7QX');
    const print = within(desk).getByRole('button', { name: 'Unlock and print 2 photos' });
    await user.click(print);
    await within(desk).findByRole('alert');
    await user.click(print);
    expect(
      await within(desk).findByText('Unlocked. 2 photos are queued for printing.'),
    ).toBeTruthy();
    const bodies = api.callsTo(UNLOCK_PRINT).map((c) => c.body as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({
      key_type: 'private',
      key_value: KIOSK_KEY,
      attendee_uid: ATT,
      unlock_code: 'K7QX',
      photo_uid_array: ['p1', 'p2'],
    });
    expect(typeof bodies[0]!.client_request_id).toBe('string');
    expect(bodies[1]!.client_request_id).toBe(bodies[0]!.client_request_id);
  });
});
