import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client.ts';
import { albumPhoto, pageOfPhotos, type PhotoListBody } from '../../../test/photo-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../../test/fake-api.ts';
import { albumQueryKey } from '../api/guest-album-photos.ts';
import { useAlbumPhotos } from './use-album-photos.ts';

const LIST = '/photo/list/retrieve';
const KEY = { keyType: 'public', keyValue: 'pub-key' } as const;

/** 350 photos, newest (id 350) first; pages like the server: a cursor wins over the number. */
const installAlbum = (total: number) => {
  const all = Array.from({ length: total }, (_, i) => albumPhoto(total - i));
  return installFakeApi({
    [LIST]: (raw): FakeReply => ({
      ok: { ...pageOfPhotos(all, raw as PhotoListBody), stock_images: [] },
    }),
  });
};

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>
);

describe('guest album paging (keyset paging in every grid)', () => {
  it('scrolls on from a loaded page by cursor, and jumps far down by page number', async () => {
    const api = installAlbum(350);
    const { result } = renderHook(() => useAlbumPhotos(KEY), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.count).toBe(350);

    // Rows just past page 1: page 2 starts after page 1's last photo (id 251).
    act(() => result.current.showRange(90, 110));
    await waitFor(() => expect(result.current.photoAt(105)?.id).toBe(245));
    expect(api.callsTo(LIST)[1]?.body).toMatchObject({ page_number: 2, before_id: 251 });

    // A jump to the end with page 3 not loaded before it: random access by number.
    act(() => result.current.showRange(340, 349));
    await waitFor(() => expect(result.current.photoAt(349)?.id).toBe(1));
    const jump = api.callsTo(LIST).at(-1)?.body as PhotoListBody;
    expect(jump.page_number).toBe(4);
    expect(jump.before_id).toBeUndefined();
  });
});

describe('a large album sent with its page (the count stops at a limit)', () => {
  it('shows "at least" the limit, then asks the exact count, frozen at the opening', async () => {
    const api = installAlbum(1500);
    const client = createQueryClient();
    const first = Array.from({ length: 100 }, (_, i) => albumPhoto(1500 - i));
    // As the server's page sends it (seedGuestBoot puts it here).
    client.setQueryData([...albumQueryKey(KEY), 'page', 1], {
      photos: first,
      total_count: 1000,
      total_count_capped: 1,
      page_number: 1,
      max_size: 100,
      stock_images: [],
    });
    const { result } = renderHook(() => useAlbumPhotos(KEY), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      ),
    });
    expect(result.current).toMatchObject({ status: 'ready', count: 1000, countAtLeast: true });
    await waitFor(() => expect(result.current.count).toBe(1500));
    expect(result.current.countAtLeast).toBe(false);
    // One small call, counting up to the newest photo the page opened with.
    expect(api.callsTo(LIST)).toHaveLength(1);
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      show_total_count: 1,
      max_size: 1,
      end_date: first[0]!.created_date,
    });
    expect(api.callsTo(LIST)[0]?.body).not.toHaveProperty('count_limit');
  });

  it('asks no count for an album counted in full', async () => {
    const api = installAlbum(30);
    const { result } = renderHook(() => useAlbumPhotos(KEY), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current).toMatchObject({ count: 30, countAtLeast: false });
    expect(api.callsTo(LIST)).toHaveLength(1);
  });
});
