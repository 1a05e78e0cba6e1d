import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeApi, type FakeReply } from '../../../../test/fake-api.ts';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';
const GRANT = '/photo/guest-upload-access/retrieve';
const COMPLETE = '/photo/guest-upload-complete';

const eventWith = (opts: Record<string, unknown>) =>
  storedEvent({ is_free: 1, opts: { description: 'x', ...opts } as never });

const grant: FakeReply = {
  ok: {
    url: 'http://storage.test/bucket',
    fields: { key: 'tmp/ABCD/u/guest/me.jpg', policy: 'cG9saWN5' },
    key: 'tmp/ABCD/u/guest/me.jpg',
    max_bytes: 25 * 1024 * 1024,
    expires_date: '2030-01-01T00:00:00.000Z',
  },
};
const completed = (held: boolean): FakeReply => ({
  ok: { uid: 'u1', upload_result: 'uploaded', held_for_review: held, in_event_album: true },
});

/**
 * The storage POST at the boundary: each send reports 40 % at once and answers (201, or the next
 * queued status) when released.
 */
const installFakeXhr = (statuses: number[] = []) => {
  const pending: (() => void)[] = [];
  class FakeXhr {
    upload: { onprogress: ((event: ProgressEventInit) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    open() {}
    abort() {}
    send() {
      setTimeout(() =>
        this.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 }),
      );
      pending.push(() => {
        this.status = statuses.shift() ?? 201;
        this.responseText =
          this.status === 201
            ? ''
            : '<Error><Code>AccessDenied</Code><Message>no</Message></Error>';
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { release: () => pending.splice(0).forEach((finish) => finish()) };
};

const photoFile = (name = 'me.jpg', type = 'image/jpeg') =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type });

/**
 * A public album (`photos` in it) of an event that takes guests' photos, its "Add your photos"
 * panel opened; storage answers as `installFakeXhr` says, and the upload's completion says whether
 * the photos are `held` for review.
 */
const openUploadPanel = async ({
  photos = [],
  held = false,
  statuses = [],
  user = userEvent.setup(),
}: {
  photos?: ReturnType<typeof albumPhoto>[];
  held?: boolean;
  statuses?: number[];
  user?: ReturnType<typeof userEvent.setup>;
} = {}) => {
  const storage = installFakeXhr(statuses);
  const api = installFakeApi({
    [LIST]: { ok: photoPage(photos) },
    [EVENT]: { ok: [eventWith({ enablePhotoUpl: 1 })] },
    [GRANT]: grant,
    [COMPLETE]: completed(held),
  });
  renderAlbums('?pId=pub');
  await user.click(await screen.findByRole('button', { name: 'Add your photos' }));
  const panel = await screen.findByRole('region', { name: 'Add your photos' });
  return { api, panel, storage, user };
};

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('“Add your photos” on a guest album', () => {
  it('is offered only while the event takes guests’ photos', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [eventWith({})] },
    });
    renderAlbums('?pId=pub');
    await screen.findByRole('button', { name: /^photo-1\.jpg/ });
    expect(screen.queryByRole('button', { name: 'Add your photos' })).toBeNull();
  });

  it('picks photos with previews, shows each one’s progress, and says when they are added', async () => {
    // The empty album offers it too.
    const { api, panel, storage, user } = await openUploadPanel({
      user: userEvent.setup({ applyAccept: false }),
    });
    expect(within(panel).getByText(/No photos chosen yet/)).toBeTruthy();
    // Not a picture: refused on the phone, nothing sent.
    await user.upload(within(panel).getByLabelText('Take or choose photos'), [
      photoFile('notes.pdf', 'application/pdf'),
    ]);
    expect(within(panel).getByRole('alert').textContent).toContain('notes.pdf');
    await user.upload(within(panel).getByLabelText('Take or choose photos'), photoFile());
    const row = (await within(panel).findByRole('progressbar', { name: 'me.jpg' })).closest('li')!;
    expect(row.querySelector('img')?.getAttribute('src')).toBe('blob:preview');
    expect(await within(row).findByText('Sending 40 %')).toBeTruthy();
    storage.release();
    expect(await within(panel).findByText(/appear in the album in a moment/)).toBeTruthy();
    expect(within(row).getByText('Added')).toBeTruthy();
    expect(api.callsTo(GRANT)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub',
      event_name: 'ABCD',
      file_name: 'me.jpg',
      content_type: 'image/jpeg',
    });
    expect(api.callsTo(COMPLETE)[0]?.body).toMatchObject({ key: 'tmp/ABCD/u/guest/me.jpg' });
  });

  it('says photos wait for review on a moderated event', async () => {
    const { panel, storage, user } = await openUploadPanel({ photos: [albumPhoto(1)], held: true });
    await user.upload(within(panel).getByLabelText('Take or choose photos'), photoFile());
    await within(panel).findByText('Sending 40 %');
    storage.release();
    expect(
      await within(panel).findByText('Thank you! Your photos will appear after review.'),
    ).toBeTruthy();
    expect(within(panel).getByText('Waiting for review')).toBeTruthy();
  });

  it('shows why a photo failed and sends it again on request', async () => {
    const { api, panel, storage, user } = await openUploadPanel({ statuses: [403] });
    await user.upload(within(panel).getByLabelText('Take or choose photos'), photoFile());
    await within(panel).findByText('Sending 40 %');
    storage.release();
    expect((await within(panel).findByRole('alert')).textContent).toContain('AccessDenied');
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    await within(panel).findByText('Sending 40 %');
    storage.release();
    await waitFor(() => expect(within(panel).getByText('Added')).toBeTruthy());
    expect(api.callsTo(GRANT)).toHaveLength(2);
    expect(api.callsTo(COMPLETE)).toHaveLength(1);
  });
});
