import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Photo } from '@flashbulb/shared';
import type { FakeReply } from '../../../../test/fake-api.ts';
import {
  installAlbumApi,
  LIST,
  makePhoto,
  renderAlbum,
} from '../../../../test/console-album-kit.tsx';

const GRANT = '/photo/tmp-upload-access/retrieve';
const COMPLETE = '/photo/upload-complete';
const STORAGE_URL = 'http://storage.test/upload';

interface SentForm {
  readonly method: string;
  readonly url: string;
  readonly entries: [string, FormDataEntryValue][];
}

type StorageReply = { status: number; body: string };

/**
 * XMLHttpRequest at the boundary: records each POST, reports upload progress, answers with the
 * next queued reply (201 by default), or holds the answer until `release()` when `hold` is set.
 */
const installFakeXhr = ({
  replies = [],
  hold = false,
}: { replies?: StorageReply[]; hold?: boolean } = {}) => {
  const sent: SentForm[] = [];
  const pending: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  class FakeXhr {
    upload: {
      onprogress:
        ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
    } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = '';
    private url = '';
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    abort() {
      this.onabort?.();
    }
    send(body: FormData) {
      sent.push({ method: this.method, url: this.url, entries: [...body.entries()] });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const finish = () => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 });
        const reply = replies.shift() ?? { status: 201, body: '' };
        this.status = reply.status;
        this.responseText = reply.body;
        inFlight -= 1;
        this.onload?.();
      };
      if (hold) pending.push(finish);
      else setTimeout(finish, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return {
    sent,
    maxInFlight: () => maxInFlight,
    release: () => pending.splice(0).forEach((finish) => finish()),
  };
};

/** Upload calls that issue grants with numbered keys and register completed uploads as photos. */
const uploadRoutes = (store: Photo[] | null) => {
  let next = 0;
  return {
    [GRANT]: (raw: unknown): FakeReply => {
      const body = raw as { file_name: string; content_type: string };
      next += 1;
      return {
        ok: {
          url: STORAGE_URL,
          fields: {
            key: `photos/7/incoming/${next}/${body.file_name}`,
            acl: 'public-read',
            success_action_status: '201',
            'Content-Type': body.content_type,
            policy: 'cG9saWN5',
            'x-amz-signature': 'sig',
          },
          key: `photos/7/incoming/${next}/${body.file_name}`,
          max_bytes: 200 * 1024 * 1024,
          expires_date: '2030-01-01T00:00:00.000Z',
        },
      };
    },
    [COMPLETE]: (raw: unknown): FakeReply => {
      const key = (raw as { key: string }).key;
      const photo = makePhoto(100 + Number(key.split('/')[3]), {
        file_name: key.split('/').at(-1) ?? 'x.jpg',
        status: 'processing',
      });
      store?.unshift(photo);
      // The server's reply: the photo and what the upload did.
      return { ok: { ...photo, upload_result: 'uploaded' } };
    },
  };
};

const jpeg = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name, { type: 'image/jpeg' });

const openUpload = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(await screen.findByRole('button', { name: 'Upload photos' }));
  return screen.getByRole('region', { name: 'Upload photos' });
};

describe('console album: upload (albums spec §5, §7.1, §9)', { timeout: 40_000 }, () => {
  it('refuses a .bmp with the spec text and sends nothing for it', async () => {
    const api = installAlbumApi([], uploadRoutes(null));
    const xhr = installFakeXhr();
    renderAlbum();
    const user = userEvent.setup();
    const panel = await openUpload(user);

    fireEvent.drop(within(panel).getByTestId('upload-drop-zone'), {
      dataTransfer: { files: [new File(['BM'], 'scan.bmp', { type: 'image/bmp' })] },
    });
    const alert = await within(panel).findByRole('alert');
    expect(within(alert).getByText('Invalid or unsupported picture format')).toBeTruthy();
    expect(within(alert).getByText('scan.bmp')).toBeTruthy();
    expect(api.callsTo(GRANT)).toHaveLength(0);
    expect(xhr.sent).toHaveLength(0);
  });

  it('sends grant → storage POST (fields, then the file last) → complete for a .jpg, and shows the photo', async () => {
    const full = installAlbumApi([makePhoto(1)], uploadRoutes);
    const xhr = installFakeXhr();
    renderAlbum();
    const user = userEvent.setup({ applyAccept: false });
    const panel = await openUpload(user);
    await waitFor(() => expect(full.callsTo(LIST)).toHaveLength(1));

    await user.upload(within(panel).getByLabelText('Choose files'), [
      jpeg('Party Night.JPG'),
      new File(['BM'], 'notes.bmp'),
    ]);

    // The .bmp is refused, the .JPG (any case) goes up.
    expect(within(await within(panel).findByRole('alert')).getByText('notes.bmp')).toBeTruthy();
    await waitFor(() => expect(full.callsTo(COMPLETE)).toHaveLength(1));

    const grant = full.callsTo(GRANT)[0]!;
    const grantBody = grant.body as { event_name: string; file_name: string; content_type: string };
    expect(grantBody.event_name).toBe('ABCD');
    // The original name is kept; the server files it under a random folder.
    expect(grantBody.file_name).toBe('Party Night.JPG');
    expect(grantBody.content_type).toBe('image/jpeg');
    expect(grant.headers.get('Authorization')).toBe('Bearer access-1');

    expect(xhr.sent).toHaveLength(1);
    const post = xhr.sent[0]!;
    expect([post.method, post.url]).toEqual(['POST', STORAGE_URL]);
    expect(post.entries.map(([name]) => name)).toEqual([
      'key',
      'acl',
      'success_action_status',
      'Content-Type',
      'policy',
      'x-amz-signature',
      'file',
    ]);
    const file = post.entries.at(-1)![1] as File;
    expect(file.name).toBe(grantBody.file_name);
    expect(file.size).toBe(7);

    const complete = full.callsTo(COMPLETE)[0]!;
    expect(complete.body).toEqual({ key: `photos/7/incoming/1/${grantBody.file_name}` });
    expect(complete.headers.get('Authorization')).toBe('Bearer access-1');

    const item = within(panel).getByTestId('upload-item');
    expect(within(item).getByText('Party Night.JPG')).toBeTruthy();
    expect(await within(item).findByText('Uploaded')).toBeTruthy();
    expect(
      within(item)
        .getByRole('progressbar', { name: 'Upload progress of Party Night.JPG' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(within(panel).getByText('1 of 1 uploaded')).toBeTruthy();

    // The grid asks again and shows the new photo (processing) on top.
    await waitFor(() => expect(full.callsTo(LIST).length).toBeGreaterThan(1));
    const grid = () =>
      within(screen.getByRole('list', { name: 'Photos' })).getAllByRole('listitem');
    await waitFor(() => expect(grid()).toHaveLength(2));
    expect(within(grid()[0]!).getByText('Processing…')).toBeTruthy();
  });

  it('shows the storage error of a refused POST and uploads the file again on retry', async () => {
    const api = installAlbumApi([], uploadRoutes);
    installFakeXhr({
      replies: [
        {
          status: 403,
          body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Policy expired</Message></Error>',
        },
      ],
    });
    renderAlbum();
    const user = userEvent.setup();
    const panel = await openUpload(user);
    await user.upload(within(panel).getByLabelText('Choose files'), [jpeg('a.jpg')]);

    expect(
      await within(panel).findByText('Storage refused the file: AccessDenied Policy expired'),
    ).toBeTruthy();
    expect(within(panel).getByText('Failed')).toBeTruthy();
    expect(api.callsTo(COMPLETE)).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: 'Retry a.jpg' }));
    await waitFor(() => expect(api.callsTo(COMPLETE)).toHaveLength(1));
    expect(api.callsTo(GRANT)).toHaveLength(2);
    expect(await within(panel).findByText('Uploaded')).toBeTruthy();
  });

  it('shows the API error when the grant is refused', async () => {
    const api = installAlbumApi([], {
      [GRANT]: { nok: 'event_not_found', status: 404 },
    });
    installFakeXhr();
    renderAlbum();
    const user = userEvent.setup();
    const panel = await openUpload(user);
    await user.upload(within(panel).getByLabelText('Choose files'), [jpeg('b.jpeg')]);
    expect(await within(panel).findByText('Failed')).toBeTruthy();
    expect(within(panel).getByRole('alert').textContent).not.toBe('');
    expect(api.callsTo(COMPLETE)).toHaveLength(0);
  });

  it('sends at most three files at a time', async () => {
    const api = installAlbumApi([], uploadRoutes);
    const xhr = installFakeXhr({ hold: true });
    renderAlbum();
    const user = userEvent.setup();
    const panel = await openUpload(user);
    await user.upload(
      within(panel).getByLabelText('Choose files'),
      ['1', '2', '3', '4', '5'].map((n) => jpeg(`${n}.jpg`)),
    );
    await waitFor(() => expect(xhr.sent).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(xhr.sent).toHaveLength(3);
    xhr.release();
    await waitFor(() => expect(xhr.sent).toHaveLength(5));
    xhr.release();
    await waitFor(() => expect(api.callsTo(COMPLETE)).toHaveLength(5));
    expect(xhr.maxInFlight()).toBe(3);
  });
});
