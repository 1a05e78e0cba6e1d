import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { printQueued } from '../../../../test/print-fixtures.ts';

/**
 * The print image list on album pages outside a kiosk (albums §4): hidden when not an owner album
 * and printFromAllAlbums is 1, or when not an owner album and the event has more than one pool;
 * otherwise shown — only on the organiser's kiosk link: the private album (`pvId`) carrying the
 * event's display token (`display`); a guest's private-album link and the owner's eId page may
 * not print.
 */

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';
const PRINT = '/photo/print-with-queue';
const tiles = () => screen.queryAllByRole('button', { name: /^photo-\d+\.jpg,/ });

const open = async (search: string, event: ReturnType<typeof storedEvent>) => {
  const api = installFakeApi({
    [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
    [EVENT]: { ok: [event] },
    [PRINT]: printQueued('Lobby', [3]),
  });
  window.history.replaceState(null, '', `/${search}`);
  const view = renderAlbums(search);
  await waitFor(() => expect(tiles()).toHaveLength(2));
  // the event's answer is on the page (its title) before anything is said about the list
  expect(await screen.findByRole('heading', { name: /Summer Gala/ })).toBeTruthy();
  return { api, view };
};
const printing = (overrides: Parameters<typeof storedEvent>[0] = {}) =>
  storedEvent({
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Lobby'],
    print_from_all_albums: 0,
    max_print_photos_count: 20,
    ...overrides,
  });
const region = () => screen.queryByRole('region', { name: 'Print list' });

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('print image list on the album page (albums §4)', () => {
  it('a guest’s private-album link (no display token) never has it: the server refuses its prints', async () => {
    await open('?pvId=priv-key', printing());
    expect(region()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Print: photo-1.jpg' })).toBeNull();
  });

  it('the kiosk’s private album, one pool: shown; the chosen photos are printed with the key and display token', async () => {
    const { api } = await open('?pvId=priv-key&display=disp-token', printing());
    const list = await screen.findByRole('region', { name: 'Print list' });
    await userEvent.click(screen.getByRole('button', { name: 'Print: photo-2.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Print: photo-1.jpg' }));
    await userEvent.click(within(list).getByRole('button', { name: 'Print 2 photos' }));
    expect(await screen.findByText('2 photos sent to the printer (Lobby).')).toBeTruthy();
    const [call] = api.callsTo(PRINT);
    expect(call?.body).toMatchObject({
      key_type: 'private',
      key_value: 'priv-key',
      display: 'disp-token',
      printable_photo_uid_array: [albumPhoto(2).uid, albumPhoto(1).uid],
      printer_pool_name: 'Lobby',
    });
  });

  it('private album: hidden when printFromAllAlbums is 1 (event or link) or with several pools', async () => {
    const a = await open(
      '?pvId=priv-key&display=disp-token',
      printing({ print_from_all_albums: 1 }),
    );
    expect(region()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Print: photo-1.jpg' })).toBeNull();
    a.view.unmount();
    const b = await open('?pvId=priv-key&display=disp-token&printFromAllAlbums=1', printing());
    expect(region()).toBeNull();
    b.view.unmount();
    const c = await open(
      '?pvId=priv-key&display=disp-token',
      printing({ printer_pool_name_list: ['Lobby', 'Bar'] }),
    );
    expect(region()).toBeNull();
    c.view.unmount();
    // printer off: nothing to print on
    const d = await open(
      '?pvId=priv-key&display=disp-token',
      printing({ is_photo_printer_active: 0 }),
    );
    expect(region()).toBeNull();
    d.view.unmount();
  });

  it('the owner album (eId) never has it: the event-owner key (roaming photographers) may not print', async () => {
    await open(
      '?eId=owner-key',
      printing({ printer_pool_name_list: ['Lobby', 'Bar'], print_from_all_albums: 1 }),
    );
    expect(region()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Print: photo-1.jpg' })).toBeNull();
  });

  it('a public album never has it (its key may not print)', async () => {
    await open('?pId=pub-key', printing());
    expect(region()).toBeNull();
  });
});
