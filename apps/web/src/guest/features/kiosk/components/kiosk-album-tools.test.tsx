import { afterEach, describe, expect, it } from 'vitest';
import { HEALTH_PATH } from '@flashbulb/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { openStaffControls, STAFF_PIN_PATH } from '../../../../test/kiosk-staff.ts';
import { printQueued } from '../../../../test/print-fixtures.ts';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const EVENT = '/event/full-data/retrieve';
const DELETE = '/photo/kiosk-delete';
const PRINT = '/photo/print-with-queue';
const STORY = '/photo/print-story';
const ATT = 'ABCDEFGHJKMNPQRS';

const attendee = {
  uid: ATT,
  display_uid: 'ABCD-EFGH-JKMN-PQRS',
  organisation_id: 3,
  email: null,
  is_prepaid: 0,
  unlocked: 1,
  expires_date: null,
  events: [{ name: 'ABCD', full_name: 'Summer party', empty_album_text: '', logo_full_path: null }],
  photo_count: 2,
};

/** The kiosk link as the entry page redirects to it (the screen reads the real location). */
const openKiosk = (extra = '') => {
  const search = `?kType=evSB2&privateId=kiosk-key&attId=${ATT}&kioskMode=true${extra}`;
  window.history.replaceState(null, '', `/${search}`);
  return renderAlbums(search);
};

const tileButton = (id: number, action: string) =>
  screen.getByRole('button', { name: `${action}: photo-${id}.jpg` });
const tiles = () => screen.queryAllByRole('button', { name: /^photo-\d+\.jpg,/ });

afterEach(() => {
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
});

describe('kiosk photo delete, wired (albums §4, §6)', () => {
  it('Keep deletes nothing; Delete calls /photo/kiosk-delete with the kiosk key and reloads the album', async () => {
    let deleted = false;
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: () => ({ ok: photoPage(deleted ? [albumPhoto(1)] : [albumPhoto(2), albumPhoto(1)]) }),
      [EVENT]: { ok: [storedEvent()] },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
      // The kiosk's health check answers: the kiosk is online however long the test takes.
      [HEALTH_PATH]: { ok: {} },
      [DELETE]: () => {
        deleted = true;
        return { ok: { deleted: 1 } };
      },
    });
    openKiosk('&allowKioskPhotoDelete=true');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    // Delete is staff's: not on a guest's tiles until the staff controls are open.
    expect(screen.queryByRole('button', { name: 'Delete: photo-2.jpg' })).toBeNull();
    await openStaffControls();
    await userEvent.click(tileButton(2, 'Delete'));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('photo-2.jpg');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.callsTo(DELETE)).toHaveLength(0);

    await userEvent.click(tileButton(2, 'Delete'));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(api.callsTo(DELETE).map((call) => call.body)).toEqual([
      {
        key_type: 'private',
        key_value: 'kiosk-key',
        attendee_uid: ATT,
        photo_uid: albumPhoto(2).uid,
      },
    ]);
    expect(await screen.findByText('photo-2.jpg was deleted.')).toBeTruthy();
  });

  it('is not offered without the flag in the link or local storage; the local flag offers it', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    const view = openKiosk();
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await openStaffControls();
    expect(screen.queryByRole('button', { name: 'Delete: photo-1.jpg' })).toBeNull();
    view.unmount();
    window.localStorage.setItem('allowKioskPhotoDelete', 'true');
    openKiosk();
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await openStaffControls();
    await waitFor(() => expect(tileButton(1, 'Delete')).toBeTruthy());
  });

  it('the server’s refusal (event flag off) is shown and the photo stays', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [DELETE]: { nok: 'kiosk_photo_delete_off', status: 403 },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
      [HEALTH_PATH]: { ok: {} },
    });
    openKiosk('&allowKioskPhotoDelete=true');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await openStaffControls();
    await userEvent.click(tileButton(1, 'Delete'));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Deleting photos at the kiosk is not allowed for this event',
    );
    expect(tiles()).toHaveLength(1);
  });

  it('offline, the delete waits (banner with the count) and goes through when the network is back', async () => {
    let reply: FakeReply = { networkError: true };
    let deleted = false;
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: () => ({ ok: photoPage(deleted ? [albumPhoto(1)] : [albumPhoto(2), albumPhoto(1)]) }),
      [DELETE]: () => {
        if (!('networkError' in reply)) deleted = true;
        return reply;
      },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    openKiosk('&allowKioskPhotoDelete=true');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    await openStaffControls();
    await userEvent.click(tileButton(2, 'Delete'));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    const banner = await screen.findByText(/This kiosk is offline/);
    expect(banner.textContent).toContain('1 action is waiting to be sent.');
    expect(tiles()).toHaveLength(2);
    reply = { ok: { deleted: 1 } };
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(api.callsTo(DELETE).length).toBe(2);
  });
});

describe('stories print pool and the print image list on the kiosk (albums §2.4, §4)', () => {
  const printingEvent = (pools: string[]) =>
    storedEvent({
      is_photo_printer_active: 1,
      is_printer_pool_enabled: 1,
      printer_pool_name_list: pools,
      max_print_photos_count: 20,
    });

  it('several pools: the dropdown (None Selected) and no print list until a pool is chosen; prints there', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: { ok: [printingEvent(['Lobby', 'Bar'])] },
      [PRINT]: printQueued('Bar'),
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    openKiosk();
    // The print pool is staff's choice: no dropdown for the guest.
    await waitFor(() => expect(api.callsTo(EVENT).length).toBeGreaterThan(0));
    expect(screen.queryByLabelText('Print on')).toBeNull();
    await openStaffControls();
    const select = await screen.findByLabelText('Print on');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['None Selected', 'Lobby', 'Bar']);
    // §4: more than one pool and not an owner album → the print image list is hidden.
    expect(screen.queryByRole('region', { name: 'Print list' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Print: photo-1.jpg' })).toBeNull();
    await userEvent.selectOptions(select, 'Bar');
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(1, 'Print'));
    await userEvent.click(within(list).getByRole('button', { name: 'Print 1 photo' }));
    expect(await screen.findByText('1 photo sent to the printer (Bar).')).toBeTruthy();
    const [call] = api.callsTo(PRINT);
    expect(call?.body).toMatchObject({
      key_type: 'private',
      key_value: 'kiosk-key',
      printable_photo_uid_array: [albumPhoto(1).uid],
      printer_pool_name: 'Bar',
      attUid: ATT,
    });
    expect((call?.body as { client_request_id: string }).client_request_id.length).toBeGreaterThan(
      8,
    );
  });

  it('the operator’s confirm message asks before printing; the printing confirmation follows', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: {
        ok: [
          storedEvent({
            is_photo_printer_active: 1,
            max_print_photos_count: 20,
            opts: {
              ...storedEvent().opts,
              printHeaderMessage: 'Summer Gala 2026',
              printFooterMessage: 'Printed with love',
              printConfirmMessage: 'Prints are 4×6 <glossy>. Ready?',
              printingConfirmationText: 'Collect your prints at the desk & enjoy!',
            },
          }),
        ],
      },
      [PRINT]: printQueued('Default'),
      [HEALTH_PATH]: { ok: {} },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    // The print header and footer frame the print list, as they frame the printed sheet.
    expect(within(list).getByText('Summer Gala 2026')).toBeTruthy();
    expect(within(list).getByText('Printed with love')).toBeTruthy();
    await userEvent.click(tileButton(1, 'Print'));
    await userEvent.click(within(list).getByRole('button', { name: 'Print 1 photo' }));
    // Asked first, in the operator's words (shown as text, not markup); nothing printed yet.
    const dialog = screen.getByRole('alertdialog', { name: 'Prints are 4×6 <glossy>. Ready?' });
    expect(api.callsTo(PRINT)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.callsTo(PRINT)).toHaveLength(0);

    await userEvent.click(within(list).getByRole('button', { name: 'Print 1 photo' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Print' }),
    );
    expect(await screen.findByText('1 photo sent to the printer (Default).')).toBeTruthy();
    expect(screen.getByText('Collect your prints at the desk & enjoy!')).toBeTruthy();
    expect(api.callsTo(PRINT)).toHaveLength(1);
  });

  it('a story: offered from 2 photos in the list, sends them as one sheet on the chosen pool', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: { ok: [printingEvent(['Lobby', 'Stories'])] },
      [STORY]: printQueued('Stories', [4]),
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    openKiosk();
    await openStaffControls();
    await userEvent.selectOptions(await screen.findByLabelText('Print on'), 'Stories');
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(2, 'Print'));
    // one photo is no story
    expect(within(list).queryByRole('button', { name: /story/ })).toBeNull();
    await userEvent.click(tileButton(1, 'Print'));
    await userEvent.click(
      within(list).getByRole('button', { name: 'Print as a story (2 photos on one sheet)' }),
    );
    expect(await screen.findByText('Your story was sent to the printer (Stories).')).toBeTruthy();
    expect(api.callsTo(PRINT)).toHaveLength(0);
    const [call] = api.callsTo(STORY);
    expect(call?.body).toMatchObject({
      key_type: 'private',
      key_value: 'kiosk-key',
      printable_photo_uid_array: [albumPhoto(2).uid, albumPhoto(1).uid],
      printer_pool_name: 'Stories',
      attUid: ATT,
    });
    // the list is emptied once sent
    expect(within(list).queryByRole('button', { name: /story/ })).toBeNull();
  });

  it('one pool: no dropdown, the print list is shown; printer off: neither', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [printingEvent(['Lobby'])] },
    });
    const view = openKiosk();
    expect(await screen.findByRole('region', { name: 'Print list' })).toBeTruthy();
    expect(screen.queryByLabelText('Print on')).toBeNull();
    view.unmount();
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [storedEvent({ is_photo_printer_active: 0 })] },
    });
    const api2 = openKiosk();
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Print list' })).toBeNull();
    api2.unmount();
  });
});

describe('favourites at the kiosk, printed in one step', () => {
  it('hearts photos for the session (nothing on the device, the album keeps them), then prints them within the limit', async () => {
    const FAVOURITES = '/attendee/favourites/retrieve';
    const SET_FAVOURITE = '/attendee/favourites/update';
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      // The album and the favourites alone (all three) read the same page.
      [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: {
        ok: [
          storedEvent({
            is_photo_printer_active: 1,
            is_printer_pool_enabled: 1,
            printer_pool_name_list: ['Lobby'],
            max_print_photos_count: 2,
          }),
        ],
      },
      [FAVOURITES]: { ok: { photo_ids: [] } },
      [SET_FAVOURITE]: { ok: { photo_ids: [] } },
      [PRINT]: printQueued('Lobby', [1, 2]),
    });
    openKiosk();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    for (const id of [1, 2, 3])
      await userEvent.click(screen.getByRole('button', { name: `Favourite photo-${id}.jpg` }));
    // With the guest's album on the server, never on the shared screen's storage.
    await waitFor(() => expect(api.callsTo(SET_FAVOURITE)).toHaveLength(3));
    expect(api.callsTo(SET_FAVOURITE)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: ATT,
      favourite: 1,
    });
    expect(window.localStorage.length).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'My favourites (3)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Print my favourites' }));
    // The event prints at most 2 photos at once: the first two are listed, and the guest is told.
    const list = await screen.findByRole('region', { name: 'Print list' });
    expect(
      await screen.findByText('A print takes at most 2 photos: the first 2 are in the list.'),
    ).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Print 2 photos' }));
    expect(await screen.findByText('2 photos sent to the printer (Lobby).')).toBeTruthy();
    expect(api.callsTo(PRINT)[0]?.body).toMatchObject({
      printable_photo_uid_array: [albumPhoto(3).uid, albumPhoto(2).uid],
      attUid: ATT,
    });
  });
});

describe('VIP token at the kiosk (albums §2.4)', () => {
  it('a wrong token is said so; an accepted one makes the album list ask with it', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: (body) =>
        (body as { vip_token?: string }).vip_token === 'wrong'
          ? { nok: 'vip_token_invalid', status: 403 }
          : (body as { vip_token?: string }).vip_token === 'gold'
            ? { ok: photoPage([albumPhoto(3), albumPhoto(1)]) }
            : { ok: photoPage([albumPhoto(1)]) },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
    });
    openKiosk();
    await waitFor(() => expect(tiles()).toHaveLength(1));
    // The VIP code is typed by staff, never offered to the guest.
    expect(screen.queryByLabelText('VIP code')).toBeNull();
    await openStaffControls();
    const input = screen.getByLabelText('VIP code');
    await userEvent.type(input, 'wrong{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This VIP token is not valid for this event',
    );
    expect(tiles()).toHaveLength(1);
    await userEvent.clear(input);
    await userEvent.type(input, 'gold{Enter}');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(
      api
        .callsTo(LIST)
        .map((call) => (call.body as { vip_token?: string }).vip_token)
        .filter(Boolean),
    ).toContain('gold');
  });
});

describe('the kiosk print step at a paid event: prints sold like digitals', () => {
  const PRICING = '/payment/pricing-buttons';
  const PAY = '/payment/create-qr-payment';
  const CHECK = '/payment/check-qr-status';
  const paidPrinting = storedEvent({
    is_free: 0,
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Lobby'],
    max_print_photos_count: 20,
  });
  const pricing = (more: Record<string, unknown>) => ({
    is_free: 0,
    currency: 'USD',
    photo_count: 1,
    methods: ['qr'],
    prints_free: 0,
    prints_remaining: 0,
    buttons: [
      { index: 0, button_text: 'Album', digitals: true, prints: false, amount: 900 },
      { index: 1, button_text: 'Prints', digitals: false, prints: true, amount: 200 },
    ],
    ...more,
  });

  it('says prints are free at this event, and prints', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [paidPrinting] },
      [PRICING]: { ok: pricing({ prints_free: 1 }) },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    expect(await within(list).findByText('Prints are free at this event.')).toBeTruthy();
    await userEvent.click(tileButton(1, 'Print'));
    expect(
      within(list).getByRole<HTMLButtonElement>('button', { name: 'Print 1 photo' }).disabled,
    ).toBe(false);
  });

  it('shows what a print costs, offers buying instead of a refused print, then prints what was paid', async () => {
    let remaining = 0;
    let mayPay = false;
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [paidPrinting] },
      [PRICING]: () => ({ ok: pricing({ prints_remaining: remaining }) }),
      [PRINT]: printQueued('Lobby'),
      [PAY]: {
        ok: {
          payment_id: 'pay_prints',
          checkout_url: 'https://pay.example/pay_prints',
          amount: 200,
          currency: 'USD',
          status: 'pending',
        },
      },
      // Pending until the test has read the QR step (polls come every 50 ms in tests).
      [CHECK]: () => {
        if (!mayPay)
          return {
            ok: { payment_id: 'pay_prints', status: 'pending', amount: 200, currency: 'USD' },
          };
        remaining = 1;
        return { ok: { payment_id: 'pay_prints', status: 'paid', amount: 200, currency: 'USD' } };
      },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(1, 'Print'));
    expect(await within(list).findByText('1 print: $2.00')).toBeTruthy();
    const printButton = within(list).getByRole<HTMLButtonElement>('button', {
      name: 'Print 1 photo',
    });
    expect(printButton.disabled).toBe(true);
    await userEvent.click(within(list).getByRole('button', { name: 'Buy 1 print' }));
    expect(
      await within(list).findByText('Scan the code with your phone to pay for your prints.'),
    ).toBeTruthy();
    expect(api.callsTo(PAY)[0]?.body).toMatchObject({
      key_type: 'private',
      key_value: 'kiosk-key',
      attendee_uid: ATT,
      pricing_button_index: 1,
      photo_uids: [albumPhoto(1).uid],
    });
    mayPay = true;
    expect(
      await within(list).findByText('Paid. Press “Print” to print your photos.', undefined, {
        timeout: 5000,
      }),
    ).toBeTruthy();
    expect(await within(list).findByText('You have 1 paid print left.')).toBeTruthy();
    expect(api.callsTo(PRINT)).toHaveLength(0);
    await waitFor(() => expect(printButton.disabled).toBe(false));
    await userEvent.click(printButton);
    expect(await screen.findByText('1 photo sent to the printer (Lobby).')).toBeTruthy();
    expect(api.callsTo(PRINT)[0]?.body).toMatchObject({ attUid: ATT });
  });

  it('prices prints in the organisation’s currency (JPY in whole yen)', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [paidPrinting] },
      [PRICING]: {
        ok: pricing({
          currency: 'JPY',
          buttons: [
            { index: 0, button_text: 'Prints', digitals: false, prints: true, amount: 300 },
          ],
        }),
      },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(1, 'Print'));
    expect(await within(list).findByText('1 print: ¥300')).toBeTruthy();
  });

  it('says prints are sold at the desk when no pricing button sells them', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [paidPrinting] },
      [PRICING]: { ok: pricing({ buttons: [] }) },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(1, 'Print'));
    expect(await within(list).findByText('Prints are sold at the desk.')).toBeTruthy();
    // Nothing to print here: "Print" is off.
    expect(
      within(list).getByRole<HTMLButtonElement>('button', { name: 'Print 1 photo' }).disabled,
    ).toBe(true);
  });

  it('combo required: before the digital photos are bought it says so instead of selling prints', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendee },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [paidPrinting] },
      [PRICING]: {
        ok: pricing({
          buttons: [
            { index: 0, button_text: 'Album', digitals: true, prints: false, amount: 900 },
            {
              index: 1,
              button_text: 'Prints',
              digitals: false,
              prints: true,
              amount: 200,
              requires_digital: true,
            },
          ],
        }),
      },
    });
    openKiosk();
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(tileButton(1, 'Print'));
    expect(
      await within(list).findByText(
        'Prints are sold with the digital photos: buy the digital photos first.',
      ),
    ).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Buy 1 print' })).toBeNull();
  });
});
