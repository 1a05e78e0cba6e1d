import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { keptPicture, pictureKey } from '../../../shared/kiosk/kiosk-pictures.ts';
import { attendeeAlbum } from '../../../../test/guest-fixtures.ts';

// The camera's frame: jsdom draws nothing, so the picture taken is these bytes.
vi.mock('../../../shared/api/face-lookup.ts', async (original) => ({
  ...(await original<typeof import('../../../shared/api/face-lookup.ts')>()),
  toSelfieJpeg: () =>
    Promise.resolve(new Blob(['jpeg-bytes-of-the-guest'], { type: 'image/jpeg' })),
}));

const ATT = 'ABCD-EFGH-JKMN-PQRS';
const CREATE = '/event/create-attendee-custom-photo';
const COMPLETE = '/event/custom-photo/complete';
const STORAGE = 'https://storage.test/upload';
const OUTBOX_KEY = 'flashbulb-kiosk-outbox:kiosk-key';
const PROFILE_LIST = '/attendee/profile-photo/list/retrieve';
const PROFILE_DELETE = '/attendee/profile-photo/delete';

/** A camera that gives a stream whose video has a size once its metadata is in. */
const fakeCamera = () => {
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: { getUserMedia: () => Promise.resolve({ getTracks: () => [] }) },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  URL.createObjectURL = vi.fn(() => 'blob:picture');
  URL.revokeObjectURL = vi.fn();
};

const takePicture = async () => {
  await userEvent.click(await screen.findByRole('button', { name: 'Take a photo' }));
  const video = await screen.findByLabelText('Camera preview');
  Object.defineProperty(video, 'videoWidth', { value: 640 });
  Object.defineProperty(video, 'videoHeight', { value: 480 });
  fireEvent.loadedMetadata(video);
  const shoot = await screen.findByRole('button', { name: /^(Take the photo|Shoot|Smile)/i });
  await waitFor(() => expect((shoot as HTMLButtonElement).disabled).toBe(false));
  await userEvent.click(shoot);
  // 3-2-1 (the booth's own countdown, a second each), then the picture.
  await userEvent.click(
    await screen.findByRole('button', { name: 'Add to my album' }, { timeout: 6000 }),
  );
};

beforeEach(fakeCamera);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('kiosk camera pictures in the outbox', () => {
  it('offline, the picture is kept in IndexedDB, survives a reload and is uploaded exactly once under one client request id', async () => {
    let online = false;
    const network = (reply: FakeReply) => (): FakeReply =>
      online ? reply : { networkError: true };
    const api = installFakeApi({
      '/attendee/retrieve': { ok: attendeeAlbum() },
      '/photo/list/retrieve': { ok: photoPage([albumPhoto(1)]) },
      '/event/full-data/retrieve': { ok: [storedEvent()] },
      '/health': () => (online ? { ok: {} } : { networkError: true }),
      [CREATE]: network({
        ok: {
          url: STORAGE,
          fields: { key: 'kioskMedia/k1.jpg' },
          key: 'kioskMedia/k1.jpg',
          max_bytes: 1_500_000,
        },
      }),
      [STORAGE]: network({ ok: {} }),
      [COMPLETE]: network({ ok: { photo_uid: 'P1', attendee_uid: 'ABCDEFGHJKMNPQRS' } }),
      [PROFILE_LIST]: network({ ok: { profile_photos: [] } }),
    });
    const first = renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await takePicture();
    expect(await screen.findByText('1 action is waiting to be sent.')).toBeTruthy();
    // Kept: the action in local storage, the picture itself in IndexedDB under the kiosk's key.
    const stored = JSON.parse(window.localStorage.getItem(OUTBOX_KEY) ?? '[]') as {
      id: string;
      kind: string;
      payload: { picture: string };
    }[];
    expect(stored.map((action) => action.kind)).toEqual(['camera-photo']);
    const key = stored[0]!.payload.picture;
    expect(key.startsWith(pictureKey('kiosk-key', ''))).toBe(true);
    const kept = await keptPicture(key);
    expect(kept?.type).toBe('image/jpeg');
    expect(kept?.size).toBe('jpeg-bytes-of-the-guest'.length);

    // The kiosk reloads while offline; the network comes back; the new page sends the picture.
    first.unmount();
    const before = { create: api.callsTo(CREATE).length, storage: api.callsTo(STORAGE).length };
    online = true;
    renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await waitFor(() => expect(api.callsTo(COMPLETE)).toHaveLength(1));
    expect(api.callsTo(CREATE)).toHaveLength(before.create + 1);
    expect(api.callsTo(STORAGE)).toHaveLength(before.storage + 1);
    expect(api.callsTo(COMPLETE)[0]?.body).toMatchObject({ key: 'kioskMedia/k1.jpg' });
    // Every grant request, before and after the reload, carries the one client request id the
    // kiosk gave the picture (its kept action's id): the server answers it with the same key.
    const ids = api
      .callsTo(CREATE)
      .map((call) => (call.body as { client_request_id?: string }).client_request_id);
    expect(before.create).toBeGreaterThan(0);
    expect(ids).toEqual(ids.map(() => stored[0]!.id));
    expect(stored[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    // Sent: gone from local storage and from IndexedDB.
    await waitFor(() => expect(window.localStorage.getItem(OUTBOX_KEY)).toBeNull());
    await waitFor(async () => expect(await keptPicture(key)).toBeNull());
    expect(api.callsTo(COMPLETE)).toHaveLength(1);
  });

  it('lists the guest’s profile photos under the camera and deletes one with the kiosk key', async () => {
    const profile = (id: number) => ({
      id,
      file_name: `profile-${id}.jpg`,
      width: 640,
      height: 640,
      url: `https://storage.test/profile-${id}.jpg?signed`,
      created_date: '2026-11-27T10:00:00.000Z',
    });
    const api = installFakeApi({
      '/attendee/retrieve': { ok: attendeeAlbum() },
      '/photo/list/retrieve': { ok: photoPage([albumPhoto(1)]) },
      '/event/full-data/retrieve': { ok: [storedEvent()] },
      '/health': { ok: {} },
      [PROFILE_LIST]: { ok: { profile_photos: [profile(2), profile(1)] } },
      [PROFILE_DELETE]: { ok: { id: 2 } },
    });
    renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await userEvent.click(await screen.findByRole('button', { name: 'Take a photo' }));
    const list = await screen.findByRole('region', { name: 'Your profile photos' });
    expect(
      (await within(list).findByRole('img', { name: 'Profile photo 1' })).getAttribute('src'),
    ).toBe('https://storage.test/profile-2.jpg?signed');
    expect(api.callsTo(PROFILE_LIST)[0]?.body).toMatchObject({
      key_type: 'private',
      key_value: 'kiosk-key',
      attendee_uid: ATT,
    });
    await userEvent.click(within(list).getByRole('button', { name: 'Delete profile photo 1' }));
    await waitFor(() => expect(within(list).getAllByRole('img')).toHaveLength(1));
    expect(within(list).getByRole('img').getAttribute('src')).toBe(
      'https://storage.test/profile-1.jpg?signed',
    );
    expect(api.callsTo(PROFILE_DELETE)[0]?.body).toMatchObject({
      key_type: 'private',
      key_value: 'kiosk-key',
      attendee_uid: ATT,
      id: 2,
    });
  });
});
