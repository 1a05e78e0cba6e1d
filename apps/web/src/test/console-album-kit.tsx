import { StrictMode, useEffect } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import type { Photo } from '@flashbulb/shared';
import { AppProviders } from '../app/app-providers.tsx';
import { AppRoutes } from '../app/app-routes.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { resetRestoreForTests } from '../lib/session/session-api.ts';
import { resetSessionStoreForTests } from '../lib/session-store.ts';
import { installConsoleApi, OWNER, storedEvent } from './event-fixtures.ts';
import type { FakeReply } from './fake-api.ts';
import { albumPhoto, pageOfPhotos, type PhotoListBody } from './photo-fixtures.ts';

export const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala' });
export const LIST = `${OWNER}/photo/list/retrieve`;
export const COUNTS = `${OWNER}/event/photo-count-info/retrieve`;

/** A ready photo of {@link EVENT} as the owner's list presents it. */
export const makePhoto = (id: number, overrides: Partial<Photo> = {}): Photo =>
  albumPhoto(id, {
    event_id: EVENT.id,
    full_path: `photos/7/uid_uid-${id}_uid/original.jpg`,
    file_name: `photo-${String(id).padStart(3, '0')}.jpg`,
    width: 2000,
    height: 1500,
    size_bytes: 1_234_567,
    robot_id: null,
    created_date: new Date(Date.UTC(2026, 5, 1, 12, 0, 0) + id * 60_000).toISOString(),
    available_date: new Date(Date.UTC(2026, 5, 1, 12, 0, 0) + id * 60_000).toISOString(),
    urls: {
      original: `/storage/photos/${id}/original.jpg`,
      preview: `/storage/photos/${id}/preview.jpg`,
      thumbnail: `/storage/photos/${id}/thumbnail.jpg`,
      live_view_watermark: null,
      photo_watermark: null,
      protector_watermark: null,
      video: null,
    },
    ...overrides,
  });

interface ListBody extends PhotoListBody {
  file_name?: string;
  is_visible?: number;
}

/**
 * A fake server album: the list call pages and filters (file name, visibility) like the real one,
 * newest first; the count call counts; the change calls change the stored photos.
 */
type Routes = Record<string, FakeReply | FakeReply[] | ((body: unknown) => FakeReply)>;

export const installAlbumApi = (
  photos: Photo[],
  extraRoutes: Routes | ((store: Photo[]) => Routes) = {},
) => {
  const store = [...photos].sort((a, b) => b.id - a.id);
  const routes = typeof extraRoutes === 'function' ? extraRoutes(store) : extraRoutes;
  const matching = (body: ListBody) =>
    store.filter(
      (photo) =>
        (body.file_name === undefined || photo.file_name.includes(body.file_name)) &&
        (body.is_visible === undefined || photo.is_visible === body.is_visible),
    );
  const api = installConsoleApi({
    events: [EVENT],
    routes: {
      // Which attendee albums hold a photo: none, unless a test says otherwise.
      [`${OWNER}/attendee/retrieve-by-photo-list`]: (raw): FakeReply => ({
        ok: (raw as { photo_uids: string[] }).photo_uids.map((uid) => ({
          photo_uid: uid,
          attendee_uids: [],
        })),
      }),
      [LIST]: (raw): FakeReply => {
        const body = raw as ListBody;
        return { ok: pageOfPhotos(matching(body), body) };
      },
      [COUNTS]: (): FakeReply => ({
        ok: {
          total: store.length,
          visible: store.filter((p) => p.is_visible === 1).length,
          hidden: store.filter((p) => p.is_visible === 0).length,
          originals: store.length,
          printed: 0,
          processing: store.filter((p) => p.status === 'processing').length,
        },
      }),
      [`${OWNER}/photo/update`]: (raw): FakeReply => {
        const body = raw as { id: number; is_visible: 0 | 1 };
        const index = store.findIndex((p) => p.id === body.id);
        const photo = store[index];
        if (!photo) return { nok: 'not_found', status: 404 };
        store[index] = { ...photo, is_visible: body.is_visible };
        return { ok: store[index] };
      },
      [`${OWNER}/photo/list/update`]: (raw): FakeReply => {
        const body = raw as { id_array: number[]; is_visible: 0 | 1 };
        for (const [index, photo] of store.entries())
          if (body.id_array.includes(photo.id))
            store[index] = { ...photo, is_visible: body.is_visible };
        return { ok: { updated: body.id_array.length } };
      },
      [`${OWNER}/photo/list/delete`]: (raw): FakeReply => {
        const body = raw as { photo_id_array: number[] };
        for (const id of body.photo_id_array) {
          const index = store.findIndex((p) => p.id === id);
          if (index >= 0) store.splice(index, 1);
        }
        return { ok: { deleted: body.photo_id_array.length } };
      },
      ...routes,
    },
  });
  return { ...api, store };
};

let currentLocation = '';
function LocationProbe() {
  const location = useLocation();
  useEffect(() => {
    currentLocation = `${location.pathname}${location.search}${location.hash}`;
  }, [location]);
  return null;
}

/** The whole app at `path` like renderApp, plus the router's current URL for hash assertions. */
export const renderAlbum = (path = '/events/ABCD/album') => {
  resetSessionStoreForTests();
  resetRestoreForTests();
  currentLocation = path;
  const view = render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <LocationProbe />
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
  return { ...view, url: () => currentLocation };
};
