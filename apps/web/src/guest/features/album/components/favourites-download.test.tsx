import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { downloadZip } from '../../../../lib/zip-download.ts';

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';
const CREATE = '/album/download/create';
const ZIP = '/album/download?ticket=t1';
const tile = (id: number) =>
  screen.getByRole('button', { name: new RegExp(`^photo-${id}\\.jpg,`) });

const free = (opts: Record<string, unknown> = {}) =>
  storedEvent({ is_free: 1, opts: { description: 'x', ...opts } as never });

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:zip', revokeObjectURL: () => undefined }),
  );
});
afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('favourites and the download dialog', () => {
  it('hearts a photo, shows the favourites alone after a remount, and downloads them in the size chosen', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      [LIST]: (body) =>
        (body as { photo_id_array?: number[] }).photo_id_array
          ? { ok: photoPage([albumPhoto(2)]) }
          : { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: { ok: [free()] },
      [CREATE]: { ok: { url: `/api/v1${ZIP}`, photo_count: 1, expires_in: 300, mailed: 0 } },
      [ZIP]: { raw: 'PK-zip-bytes', status: 200, headers: { 'content-length': '12' } },
    });
    const first = renderAlbums('?pId=pub');
    await screen.findByRole('button', { name: /^photo-2\.jpg/ });
    const heart = await screen.findByRole('button', { name: 'Favourite photo-2.jpg' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    await user.click(heart);
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    first.unmount();

    // A reload: the device kept the favourite.
    renderAlbums('?pId=pub');
    await screen.findByRole('button', { name: /^photo-3\.jpg/ });
    expect(
      screen.getByRole('button', { name: 'Favourite photo-2.jpg' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await user.click(screen.getByRole('button', { name: 'My favourites (1)' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^photo-3\.jpg/ })).toBeNull());
    expect(tile(2)).toBeTruthy();
    expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({ photo_id_array: [2] });

    await user.click(screen.getByRole('button', { name: 'Download 1 favourite' }));
    const dialog = await screen.findByRole('form', { name: 'Download photos' });
    // A free event without watermark: originals offered, the web size a choice.
    expect(within(dialog).getByRole('radio', { name: 'Original (as taken)' })).toHaveProperty(
      'checked',
      true,
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Web size (smaller, quicker)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Download zip' }));
    expect(await within(dialog).findByText(/^Downloaded/)).toBeTruthy();
    expect(api.callsTo(CREATE)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub',
      photo_id_array: [2],
      size: 'web',
    });
  });

  it('offers no original where the operator limits guests to the web size', async () => {
    const user = userEvent.setup();
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [free({ guestDownloadWebOnly: 1 })] },
    });
    renderAlbums('?pId=pub');
    await user.click(await screen.findByRole('button', { name: 'Download all' }));
    const dialog = await screen.findByRole('form', { name: 'Download photos' });
    expect(within(dialog).queryByRole('radio')).toBeNull();
  });
});

describe('a large album’s mailed zip', () => {
  it('says it is being prepared and mailed, then shows the link on the page once the job stored it', async () => {
    const user = userEvent.setup();
    const STATUS = '/album/download/status';
    const ready = 'https://photos.example/storage/protected/downloads/1/z.zip?sig=1';
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)], 501) },
      [EVENT]: { ok: [free()] },
      [CREATE]: {
        ok: { url: null, photo_count: 501, expires_in: 302400, mailed: 1, status_token: 'tok' },
      },
      [STATUS]: [
        { ok: { ready: 0, url: null, expires_in: 0 } },
        { nok: 'Internal Error', status: 500 },
        { ok: { ready: 1, url: ready, expires_in: 302400 } },
      ],
    });
    renderAlbums('?pId=pub');
    await user.click(await screen.findByRole('button', { name: 'Download all' }));
    const dialog = await screen.findByRole('form', { name: 'Download photos' });
    await user.type(within(dialog).getByRole('combobox'), 'guest@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'E-mail me the link' }));
    expect(
      await within(dialog).findByText(
        'We’re preparing your download — we’ll e-mail it to guest@example.com.',
      ),
    ).toBeTruthy();
    // Asked again after a wait that is not ready, and after a failed answer: then the link.
    const link = await within(dialog).findByRole('link', { name: 'Download the zip' });
    expect(link.getAttribute('href')).toBe(ready);
    expect(within(dialog).getByText(/Your zip is ready/)).toBeTruthy();
    expect(api.callsTo(STATUS)).toHaveLength(3);
    expect(api.callsTo(STATUS)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub',
      status_token: 'tok',
    });
  });
});

describe('buying the favourites of a paid album', { timeout: 30_000 }, () => {
  it('chooses the favourites for the purchase in one step', async () => {
    const user = userEvent.setup();
    const PRICING = '/payment/album-purchase/pricing-buttons';
    const api = installFakeApi({
      [LIST]: (body) =>
        (body as { photo_id_array?: number[] }).photo_id_array
          ? { ok: photoPage([albumPhoto(2)]) }
          : { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: { ok: [storedEvent({ is_free: 0 })] },
      [PRICING]: (raw: unknown) => {
        const count = (raw as { photo_count?: number }).photo_count ?? 3;
        return {
          ok: {
            pricing_buttons: [],
            currency: 'USD',
            hide_prices: 0,
            photo_count: count,
          },
        };
      },
    });
    renderAlbums('?pId=pub');
    await user.click(await screen.findByRole('button', { name: 'Favourite photo-2.jpg' }));
    await user.click(screen.getByRole('button', { name: 'My favourites (1)' }));
    await user.click(await screen.findByRole('button', { name: 'Buy my favourites' }));
    await waitFor(() =>
      expect(api.callsTo(PRICING).at(-1)?.body).toMatchObject({ photo_count: 1 }),
    );
    expect(tile(2).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('the zip download’s progress', () => {
  it('reports bytes received of the zip’s length as they arrive', async () => {
    const chunks = [new Uint8Array(4), new Uint8Array(6)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(body, {
            headers: { 'content-length': '10', 'x-total-entries': '2' },
          }),
        ),
      ),
    );
    const seen: [number, number | null, number | null][] = [];
    const held = await downloadZip('/api/v1/album/download?ticket=x', (p) =>
      seen.push([p.received, p.total, p.entries]),
    );
    expect(held).toBe(true);
    expect(seen).toEqual([
      [0, 10, 2],
      [4, 10, 2],
      [10, 10, 2],
    ]);
  });
});
