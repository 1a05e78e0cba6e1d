import { afterEach, describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { albumPhoto } from '../../../test/render-albums.tsx';
import { installFakeApi } from '../../../test/fake-api.ts';
import { favouritesStorageKey, useFavourites } from './use-favourites.ts';

const PUBLIC = { keyType: 'public', keyValue: 'pub-secret-key' } as const;
const ATTENDEE = { keyType: 'attendee', keyValue: 'ATT123' } as const;

afterEach(() => window.localStorage.clear());

describe('favourites', () => {
  it('survive a remount (a reload) from the device’s storage, per event', () => {
    const first = renderHook(() => useFavourites(PUBLIC, 'summer-gala'));
    act(() => first.result.current.toggle(albumPhoto(7)));
    act(() => first.result.current.toggle(albumPhoto(9)));
    expect(first.result.current.ids).toEqual([9, 7]);
    first.unmount();

    const again = renderHook(() => useFavourites(PUBLIC, 'summer-gala'));
    expect(again.result.current.isFavourite(albumPhoto(7))).toBe(true);
    expect(again.result.current.isFavourite(albumPhoto(8))).toBe(false);
    act(() => again.result.current.toggle(albumPhoto(7)));
    expect(again.result.current.ids).toEqual([9]);
    // Another event keeps its own.
    expect(renderHook(() => useFavourites(PUBLIC, 'winter-ball')).result.current.ids).toEqual([]);
  });

  it('never writes a key into the storage’s names', () => {
    expect(favouritesStorageKey(PUBLIC, null)).not.toContain(PUBLIC.keyValue);
    expect(favouritesStorageKey(PUBLIC, null)).toBe(favouritesStorageKey(PUBLIC, null));
  });

  it('keeps an attendee’s favourites with the album: the device’s own are sent up, and a toggle too', async () => {
    window.localStorage.setItem(favouritesStorageKey(ATTENDEE, null), JSON.stringify([7]));
    const api = installFakeApi({
      '/attendee/favourites/retrieve': { ok: { photo_ids: [5] } },
      '/attendee/favourites/update': [{ ok: { photo_ids: [7, 5] } }, { ok: { photo_ids: [5] } }],
    });
    const { result } = renderHook(() => useFavourites(ATTENDEE, null));
    await waitFor(() => expect(result.current.ids).toEqual([7, 5]));
    expect(api.callsTo('/attendee/favourites/update')[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: 'ATT123',
      photo_id_array: [7],
      favourite: 1,
    });
    act(() => result.current.toggle(albumPhoto(7)));
    expect(result.current.ids).toEqual([5]);
    await waitFor(() => expect(api.callsTo('/attendee/favourites/update')).toHaveLength(2));
    expect(api.callsTo('/attendee/favourites/update')[1]?.body).toMatchObject({
      photo_id_array: [7],
      favourite: 0,
    });
  });

  it('on a kiosk keeps them for the session only: nothing on the device, the guest’s album on the server', async () => {
    const KIOSK_GUEST = { keyType: 'attendee', keyValue: 'KIOSK9' } as const;
    const api = installFakeApi({
      '/attendee/favourites/retrieve': { ok: { photo_ids: [] } },
      '/attendee/favourites/update': { ok: { photo_ids: [4] } },
    });
    const first = renderHook(() => useFavourites(KIOSK_GUEST, 'gala', { device: false }));
    await waitFor(() => expect(api.callsTo('/attendee/favourites/retrieve')).toHaveLength(1));
    act(() => first.result.current.toggle(albumPhoto(4)));
    expect(first.result.current.ids).toEqual([4]);
    await waitFor(() => expect(api.callsTo('/attendee/favourites/update')).toHaveLength(1));
    expect(window.localStorage.length).toBe(0);
    first.unmount();
    // The album opened again in the same session (a photo deleted at the kiosk): still there.
    const again = renderHook(() => useFavourites(KIOSK_GUEST, 'gala', { device: false }));
    expect(again.result.current.isFavourite(albumPhoto(4))).toBe(true);
    // The all-photos kiosk (no album of the guest's own): the page's memory alone.
    const shared = { keyType: 'public', keyValue: 'kiosk-pub' } as const;
    const page = renderHook(() => useFavourites(shared, 'gala', { device: false }));
    act(() => page.result.current.toggle(albumPhoto(6)));
    expect(page.result.current.ids).toEqual([6]);
    expect(window.localStorage.length).toBe(0);
  });
});
