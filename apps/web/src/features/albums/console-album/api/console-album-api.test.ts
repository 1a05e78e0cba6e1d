import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { resetSessionStoreForTests, setAccessToken } from '../../../../lib/session-store.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { makePhoto } from '../../../../test/console-album-kit.tsx';
import {
  albumQueryKeys,
  flattenPages,
  refreshFirstPage,
  type PhotoPages,
} from './console-album-api.ts';

const LIST = '/flashbulb-owner/photo/list/retrieve';

afterEach(() => resetSessionStoreForTests());

describe('album list cache', () => {
  it('merges a fresh page 1: new photos on top, processed ones replaced, older strangers left for their page', async () => {
    setAccessToken('token');
    const p = (id: number, status: 'ready' | 'processing' = 'ready') => makePhoto(id, { status });
    const api = installFakeApi({
      [LIST]: {
        ok: { photos: [p(6), p(5), p(4), p(3), p(1)], total_count: 6, page_number: 1, max_size: 5 },
      },
    });
    const client = new QueryClient();
    const key = albumQueryKeys.list(7, 'fn=x');
    client.setQueryData<PhotoPages>(key, {
      pages: [
        { photos: [p(4, 'processing'), p(3)], totalCount: 3, page: 1, fields: { file_name: 'x' } },
      ],
      pageParams: [{ page: 1, fields: null }],
    });

    await refreshFirstPage(client, 7, 'fn=x');

    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      event_id: 7,
      page_number: 1,
      file_name: 'x',
    });
    const photos = flattenPages(client.getQueryData<PhotoPages>(key));
    expect(photos.map((photo) => [photo.id, photo.status])).toEqual([
      [6, 'ready'],
      [5, 'ready'],
      [4, 'ready'],
      [3, 'ready'],
    ]);
    expect(client.getQueryData<PhotoPages>(key)?.pages[0]?.totalCount).toBe(6);
  });

  it('lists each photo once when a later page repeats one that moved', () => {
    const p = (id: number) => makePhoto(id);
    expect(
      flattenPages({
        pages: [
          { photos: [p(5), p(4)], totalCount: 5, page: 1, fields: {} },
          { photos: [p(4), p(3)], totalCount: null, page: 2, fields: {} },
        ],
      }).map((photo) => photo.id),
    ).toEqual([5, 4, 3]);
  });
});
