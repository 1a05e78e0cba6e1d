import { describe, expect, it, vi } from 'vitest';
import { API_BASE, PHOTO_STREAM_PATH } from '@flashbulb/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeApi } from '../../test/fake-api.ts';
import { readableAccent } from '@flashbulb/shared/rules/accent';
import { storedEvent } from '../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../test/render-albums.tsx';
import { fakeEventSources, pushPhoto } from '../../test/fake-event-source.ts';
import { miniAlbum } from '../../test/guest-fixtures.ts';

const LIST = '/photo/list/retrieve';
const tiles = () => screen.queryAllByRole('button', { name: /^photo-\d+\.jpg,/ });

describe('page types at the site root (albums spec §2.1)', () => {
  it('a public link reads the album with the public key and shows exactly the photos the API returns', async () => {
    const api = installFakeApi({ [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2)]) } });
    renderAlbums('?pId=pub-key');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'photo-3.jpg, 2026-11-21 10:03' })).toBeTruthy();
    expect(screen.getByText('2 photos')).toBeTruthy();
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub-key',
      max_size: 100,
      page_number: 1,
    });
  });

  it.each([
    ['?pvId=priv-key', 'private', 'priv-key'],
    ['?eId=owner-key', 'event_owner', 'owner-key'],
    ['?pId=pub-key&kioskMode=true', 'public', 'pub-key'],
  ])('%s reads photos with key type %s', async (search, keyType, keyValue) => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
    });
    const view = renderAlbums(search);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ key_type: keyType, key_value: keyValue });
    expect(
      view.container.querySelector('[data-page-kind]')?.classList.contains('albums-root--kiosk'),
    ).toBe(search.includes('kioskMode'));
  });

  it.each([
    ['?kType=evSB1', 'Query param &pvId is required'],
    ['?kType=evSB2', 'Query param &attId is required'],
  ])('%s shows the spec message %s and asks for nothing', (search, message) => {
    const api = installFakeApi({});
    renderAlbums(search);
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(api.calls).toHaveLength(0);
  });

  it('a mini-album link shows the photos of its token', async () => {
    const api = installFakeApi({
      '/mini-album/retrieve': miniAlbum([albumPhoto(7), albumPhoto(6)]),
    });
    renderAlbums('?mId=tok-1');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Summer party' })).toBeTruthy();
    expect(api.callsTo('/mini-album/retrieve')[0]?.body).toEqual({ token: 'tok-1' });
  });

  it('an unknown mini-album token shows the invalid-link message', async () => {
    installFakeApi({ '/mini-album/retrieve': { nok: 'not_found', status: 404 } });
    renderAlbums('?mId=nope');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This album link is not valid',
    );
  });

  it('an attendee link outside kiosk mode remembers the attendee for 10 days', () => {
    installFakeApi({});
    const cookie = vi.spyOn(document, 'cookie', 'set');
    renderAlbums('?attId=att-9');
    expect(cookie).toHaveBeenCalledWith(
      expect.stringMatching(/^flashbulb_attendee=att-9; expires=.*; path=\/; SameSite=Lax$/),
    );
  });
});

describe('album states', () => {
  it('a wrong key shows one clear message and no photos', async () => {
    installFakeApi({ [LIST]: { nok: 'invalid_key', status: 401 } });
    renderAlbums('?pId=wrong');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This album link is not valid',
    );
    expect(tiles()).toHaveLength(0);
  });

  it('an empty album shows the default text', async () => {
    installFakeApi({ [LIST]: { ok: photoPage([]) } });
    renderAlbums('?pId=pub');
    expect(await screen.findByText('Your photos will appear here soon.')).toBeTruthy();
  });
});

describe('viewer', () => {
  const open = async (search: string, photos = [albumPhoto(3), albumPhoto(2), albumPhoto(1)]) => {
    installFakeApi({
      [LIST]: { ok: photoPage(photos) },
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
    });
    renderAlbums(search);
    await waitFor(() => expect(tiles()).toHaveLength(photos.length));
    await userEvent.click(screen.getByRole('button', { name: /^photo-3\.jpg/ }));
    // The viewer is its own chunk (loaded on first open).
    return screen.findByRole('dialog');
  };

  it('moves with the arrow keys, stops at the ends and closes with Esc, focus back on the page', async () => {
    const dialog = await open('?pId=pub');
    expect(dialog.getAttribute('aria-label')).toBe('Photo 1 of 3');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close');
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog').getAttribute('aria-label')).toBe('Photo 2 of 3');
    expect(within(screen.getByRole('dialog')).getByRole('img').getAttribute('src')).toBe(
      '/files/preview-2.jpg',
    );
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('dialog').getAttribute('aria-label')).toBe('Photo 3 of 3');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog').getAttribute('aria-label')).toBe('Photo 2 of 3');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^photo-3\.jpg/);
  });

  it('plays a clip: the tile shows its length, the viewer its rendition (a short clip muted and looping)', async () => {
    const clip = albumPhoto(3, {
      media_type: 'video',
      content_type: 'video/mp4',
      duration_ms: 6_400,
      urls: { ...albumPhoto(3).urls, video: '/files/clip-3.mp4' },
    });
    const long = albumPhoto(2, {
      media_type: 'video',
      content_type: 'video/mp4',
      duration_ms: 75_000,
      urls: { ...albumPhoto(2).urls, video: '/files/clip-2.mp4' },
    });
    const dialog = await open('?pId=pub', [clip, long, albumPhoto(1)]);
    expect(screen.getAllByText('0:06').length).toBeGreaterThan(0);
    expect(screen.getAllByText('1:15').length).toBeGreaterThan(0);
    const video = dialog.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/files/clip-3.mp4');
    expect([video.muted, video.loop, video.autoplay, video.controls]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    await userEvent.keyboard('{ArrowRight}');
    const longVideo = screen.getByRole('dialog').querySelector('video')!;
    expect(longVideo.getAttribute('src')).toBe('/files/clip-2.mp4');
    // A longer clip waits for the guest.
    expect([longVideo.loop, longVideo.autoplay, longVideo.controls]).toEqual([false, false, true]);
  });

  it('links a 360° photo to the 360 viewer page', async () => {
    const dialog = await open('?pId=pub', [albumPhoto(3, { is_360: 1 }), albumPhoto(2)]);
    expect(screen.getAllByText('360°').length).toBeGreaterThan(0);
    const link = within(dialog).getByRole('link', { name: 'Open the 360° view' });
    expect(link.getAttribute('href')).toBe(
      `/share/viewer?url=${encodeURIComponent('/files/preview-3.jpg')}&closeable=1`,
    );
  });

  it('keeps Tab inside the dialog', async () => {
    await open('?pId=pub');
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 8; i += 1) {
      await userEvent.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('offers the original to a private link but never to a public one', async () => {
    const withOriginal = [
      albumPhoto(3, { urls: { ...albumPhoto(3).urls, original: '/files/original-3.jpg' } }),
    ];
    await open('?pvId=priv', withOriginal);
    const link = screen.getByRole('link', { name: 'Download original' });
    expect(link.getAttribute('href')).toBe('/files/original-3.jpg');
  });

  it('has no download on a public link even if a URL slipped through', async () => {
    await open('?pId=pub', [
      albumPhoto(3, { urls: { ...albumPhoto(3).urls, original: '/files/original-3.jpg' } }),
    ]);
    expect(screen.queryByRole('link', { name: 'Download original' })).toBeNull();
  });

  it('copies the share page link the server makes', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      '/photo/generate-html-file-sharing': {
        ok: { url: 'https://x.test/s/uid-3.html', photo_uid: 'uid-3' },
      },
    });
    renderAlbums('?pId=pub');
    await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg/ }));
    // No system share sheet (jsdom has no navigator.share): Share opens the copy-link menu.
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('https://x.test/s/uid-3.html'));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Link copied');
    expect(api.callsTo('/photo/generate-html-file-sharing')[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub',
      photo_uid: 'uid-3',
    });
  });

  it('shows and copies the event’s share text as text (never a link), and gives it to the share sheet', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const text = 'Me <b>at</b> the gala: https://x.test/s/3 <img src=x onerror=alert(1)>';
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      '/photo/generate-html-file-sharing': {
        ok: { url: 'https://x.test/s/3', photo_uid: 'uid-3', text },
      },
    });
    renderAlbums('?pId=pub');
    await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    const panel = screen.getByRole('group', { name: 'Share' });
    const shown = await within(panel).findByText(text);
    expect(shown.textContent).toBe(text);
    expect(panel.querySelector('a, img, b')).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Copy text' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(text));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Text copied');

    // Where there is a system share sheet, it gets the text with the link.
    const shareSheet = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'share', { value: shareSheet, configurable: true });
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Share' }));
      await waitFor(() =>
        expect(shareSheet).toHaveBeenCalledWith(
          expect.objectContaining({ url: 'https://x.test/s/3', text }),
        ),
      );
    } finally {
      Reflect.deleteProperty(navigator, 'share');
    }
  });

  it('opens the Facebook share dialog for the share page and records the share', async () => {
    const popup = { opener: {}, location: { href: '' } };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      '/photo/generate-html-file-sharing': {
        ok: { url: 'https://x.test/s/3', photo_uid: 'uid-3' },
      },
      '/photo/share/track': { ok: { id: 1, activity_name: 'FacebookShare' } },
    });
    renderAlbums('?pId=pub');
    await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    await userEvent.click(screen.getByRole('button', { name: 'Share on Facebook' }));
    await waitFor(() =>
      expect(popup.location.href).toBe(
        'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fx.test%2Fs%2F3',
      ),
    );
    expect(open).toHaveBeenCalledTimes(1);
    expect(popup.opener).toBeNull();
    await waitFor(() =>
      expect(api.callsTo('/photo/share/track')[0]?.body).toMatchObject({
        photo_uid: 'uid-3',
        network: 'facebook',
      }),
    );
  });

  it('shows the watermarked derivative when there is one', async () => {
    await open('?pId=pub', [
      albumPhoto(3, { urls: { ...albumPhoto(3).urls, photo_watermark: '/files/wm-3.jpg' } }),
    ]);
    expect(within(screen.getByRole('dialog')).getByRole('img').getAttribute('src')).toBe(
      '/files/wm-3.jpg',
    );
  });

  it('shows a locked guest the protected preview the server gives, not the thumbnail', async () => {
    const guarded = '/files/events/e/protector-watermark-3.jpg';
    await open('?pId=pub', [
      albumPhoto(3, {
        urls: { ...albumPhoto(3).urls, preview: guarded, protector_watermark: guarded },
      }),
    ]);
    const dialog = within(screen.getByRole('dialog'));
    expect(dialog.getAllByRole('img').map((img) => img.getAttribute('src'))).toEqual([guarded]);
  });

  it('a slow vertical swipe closes; a sideways swipe moves; a double tap zooms', async () => {
    await open('?pId=pub');
    vi.useFakeTimers({ shouldAdvanceTime: false });
    try {
      const stage = screen.getByTestId('viewer-stage');
      const swipe = (from: [number, number], to: [number, number], ms: number) => {
        fireEvent.touchStart(stage, { touches: [{ clientX: from[0], clientY: from[1] }] });
        vi.advanceTimersByTime(ms);
        fireEvent.touchEnd(stage, { changedTouches: [{ clientX: to[0], clientY: to[1] }] });
      };
      swipe([200, 200], [100, 205], 100);
      expect(screen.getByRole('dialog').getAttribute('aria-label')).toBe('Photo 2 of 3');
      swipe([200, 200], [200, 200], 20);
      vi.advanceTimersByTime(100);
      swipe([200, 200], [201, 201], 20);
      expect(stage.className).toContain('albums-viewer-stage--zoomed');
      // Fast vertical flick (300 ms is not "over 300 ms"): nothing happens.
      swipe([200, 200], [210, 300], 300);
      expect(screen.getByRole('dialog')).toBeTruthy();
      swipe([200, 200], [210, 300], 301);
      expect(screen.queryByRole('dialog')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('live pages', () => {
  it('the kiosk stream puts a photo pushed by the server at the top without reloading', async () => {
    const sources = fakeEventSources();
    const api = installFakeApi({ [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) } });
    renderAlbums('?pId=pub&kioskMode=true&mode=stream&display=scr-tok');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    const source = sources.at(-1);
    const listCalls = api.callsTo(LIST).length;
    // A kiosk screen: the organiser’s display token from its link, no lead gate.
    expect(source?.url).toBe(
      `${API_BASE}${PHOTO_STREAM_PATH}?key_type=public&key_value=pub&display=scr-tok`,
    );
    pushPhoto(source, albumPhoto(5));
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(tiles()[0]?.getAttribute('aria-label')).toMatch(/^photo-5\.jpg/);
    expect(screen.getByText(/3 photos/)).toBeTruthy();
    // Pushed, not fetched: the one call on opening asks only for what came before the stream
    // opened (from the newest photo shown on), never the first page again.
    await waitFor(() => expect(api.callsTo(LIST)).toHaveLength(listCalls + 1));
    expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({
      page_number: 1,
      start_date: albumPhoto(5).created_date,
    });
  });

  it('an album grid keeps photos arriving while the guest is further down behind an "n new photos" pill', async () => {
    const sources = fakeEventSources();
    installFakeApi({ [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) } });
    renderAlbums('?pId=pub');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    Object.defineProperty(window, 'scrollY', { value: 2000, configurable: true });
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    try {
      pushPhoto(sources.at(-1), albumPhoto(5));
      const pill = await screen.findByRole('button', { name: '1 new photo' });
      // The grid did not jump: the new photo waits.
      expect(tiles()).toHaveLength(2);
      expect(screen.getByText(/3 photos/)).toBeTruthy();
      await userEvent.click(pill);
      await waitFor(() => expect(tiles()).toHaveLength(3));
      expect(tiles()[0]?.getAttribute('aria-label')).toMatch(/^photo-5\.jpg/);
      expect(screen.queryByRole('button', { name: /new photo/ })).toBeNull();
    } finally {
      Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    }
  });

  it('without a live stream the page polls the newest photos every 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      // Photo 4 arrives 4 s after opening.
      let arrived = false;
      const api = installFakeApi({
        [LIST]: () => ({
          ok: photoPage(arrived ? [albumPhoto(4), albumPhoto(2)] : [albumPhoto(2)]),
        }),
      });
      renderAlbums('?pId=pub&kioskMode=true&mode=stream');
      await waitFor(() => expect(tiles()).toHaveLength(1));
      // No poll on opening (the stream may still open): the first one an interval later.
      const opening = api.callsTo(LIST).length;
      await act(() => vi.advanceTimersByTimeAsync(4000));
      expect(api.callsTo(LIST)).toHaveLength(opening);
      arrived = true;
      await act(() => vi.advanceTimersByTimeAsync(1100));
      await waitFor(() => expect(tiles()).toHaveLength(2));
      expect(tiles()[0]?.getAttribute('aria-label')).toMatch(/^photo-4\.jpg/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the slide show moves to the next photo after the long interval (8 s by default)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      installFakeApi({ [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) } });
      renderAlbums('?pId=pub&mode=slideshow');
      const shown = () =>
        screen
          .getByRole('region', { name: 'Slide show' })
          .querySelector<HTMLImageElement>('img[data-photo-id]')?.dataset.photoId;
      await waitFor(() => expect(shown()).toBe('3'));
      await act(() => vi.advanceTimersByTimeAsync(7000));
      expect(shown()).toBe('3');
      await act(() => vi.advanceTimersByTimeAsync(1500));
      expect(shown()).toBe('2');
      await act(() => vi.advanceTimersByTimeAsync(8000));
      expect(shown()).toBe('1');
      await act(() => vi.advanceTimersByTimeAsync(8000));
      expect(shown()).toBe('3');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('curation page (eId)', () => {
  it('hides a photo with the link’s event owner key, without a console session', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      '/photo/list/update': { ok: { photos: [albumPhoto(1, { is_visible: 0 })] } },
    });
    renderAlbums('?eId=owner-key');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: /^Hide/ }));
    await waitFor(() => expect(api.callsTo('/photo/list/update')).toHaveLength(1));
    expect(api.callsTo('/photo/list/update')[0]?.body).toEqual({
      key_type: 'event_owner',
      key_value: 'owner-key',
      id_array: [1],
      is_visible: 0,
    });
    expect(await screen.findByRole('button', { name: /^Show/ })).toBeTruthy();
  });
});

describe('stock images (albums spec §3, §4)', () => {
  it('the stock images the list answers show above the photos, each opening its image', async () => {
    installFakeApi({
      [LIST]: {
        ok: {
          ...photoPage([albumPhoto(1)]),
          stock_images: [
            {
              uid: 's1',
              url: 'https://cdn.example/s1.jpg',
              thumbnail_url: 'https://cdn.example/s1-tmb.jpg',
            },
          ],
        },
      },
    });
    renderAlbums('?pId=pub-key');
    const strip = await screen.findByRole('region', { name: 'Featured' });
    const image = within(strip).getByRole('img', { name: 'Featured image 1' });
    expect(image.getAttribute('src')).toBe('https://cdn.example/s1-tmb.jpg');
    expect(within(strip).getByRole('link').getAttribute('href')).toBe('https://cdn.example/s1.jpg');
  });

  it('no strip when the list answers none', async () => {
    installFakeApi({ [LIST]: { ok: photoPage([albumPhoto(1)]) } });
    renderAlbums('?pId=pub-key');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Featured' })).toBeNull();
  });
});

describe('photo-stream site (?ename=…&mode=qrcode) and the event logo on screens', () => {
  const EVENT = '/event/full-data/retrieve';
  const branded = () =>
    storedEvent({
      name: 'ABCD',
      logo_full_path: 'https://cdn.example/logo.png',
      logo_link: 'https://brand.example/',
    });
  const wall = () => screen.getByRole('region', { name: 'Slide show' });

  it('a live wall of the event’s photos whose QR code names the photo on screen', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2)]) },
      [EVENT]: { ok: [branded()] },
    });
    renderAlbums('?ename=ABCD&mode=qrcode&token=pub&display=scr-tok');
    const qr = await screen.findByRole('img', { name: 'QR code of this photo’s link' });
    expect(qr.closest('[data-qr-url]')?.getAttribute('data-qr-url')).toBe(
      `${window.location.origin}/?photoId=uid-3&eName=ABCD`,
    );
    expect(within(wall()).getByText('Scan to get this photo')).toBeTruthy();
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub',
      display: 'scr-tok',
    });
    // The event's logo, linked to its logo_link.
    const logo = within(wall()).getByRole('img', { name: 'Summer Gala logo' });
    expect(logo.closest('a')?.getAttribute('href')).toBe('https://brand.example/');
  });

  it('without mode=qrcode the QR code is the album’s', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      [EVENT]: { ok: [branded()] },
    });
    renderAlbums('?ename=ABCD&token=pub');
    expect(await screen.findByRole('img', { name: 'QR code of the album link' })).toBeTruthy();
  });

  it('a link without its key says so in words and asks the server nothing', async () => {
    const api = installFakeApi({});
    renderAlbums('?ename=ABCD&mode=qrcode');
    expect(await screen.findByText('This screen link is not complete')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('the slide show links its logo only to an http(s) logo_link', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      [EVENT]: { ok: [storedEvent({ ...branded(), logo_link: 'javascript:alert(1)' })] },
    });
    renderAlbums('?pId=pub&mode=slideshow');
    const logo = await within(await screen.findByRole('region', { name: 'Slide show' })).findByRole(
      'img',
      { name: 'Summer Gala logo' },
    );
    expect(logo.closest('a')).toBeNull();
  });

  it('the album and its viewer wear the event’s brand colour, made readable', async () => {
    const event = branded();
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      [EVENT]: { ok: [{ ...event, opts: { ...event.opts, guestAccentColor: '#d9480f' } }] },
    });
    renderAlbums('?pId=pub');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    const { accent, onAccent } = readableAccent('#d9480f');
    const main = document.querySelector<HTMLElement>('.albums-main');
    await waitFor(() => expect(main?.style.getPropertyValue('--fb-accent')).toBe(accent));
    expect(main?.style.getPropertyValue('--fb-on-accent')).toBe(onAccent);
    await userEvent.click(tiles()[0]!);
    // The viewer's dark scheme takes the event's colour over its own (design/tokens.css).
    const viewer = await screen.findByRole('dialog');
    const branding = viewer.closest<HTMLElement>('[style*="--fb-event-accent"]');
    expect(branding?.style.getPropertyValue('--fb-event-accent')).toBe(accent);
    expect(branding?.style.getPropertyValue('--fb-event-on-accent')).toBe(onAccent);
  });

  it('the album viewer shows the event logo linked to logo_link', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      [EVENT]: { ok: [branded()] },
    });
    renderAlbums('?pId=pub');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await screen.findByRole('img', { name: 'Summer Gala logo' });
    await userEvent.click(tiles()[0]!);
    const viewer = await screen.findByRole('dialog');
    const logo = within(viewer).getByRole('img', { name: 'Summer Gala logo' });
    expect(logo.closest('a')?.getAttribute('href')).toBe('https://brand.example/');
  });
});

describe('kiosk and live-view settings on the album screens', () => {
  const EVENT = '/event/full-data/retrieve';
  const eventWith = (opts: Partial<ReturnType<typeof storedEvent>['opts']>) => {
    const event = storedEvent();
    return [{ ...event, opts: { ...event.opts, ...opts } }];
  };
  const marked = (id: number) =>
    albumPhoto(id, {
      urls: {
        ...albumPhoto(id).urls,
        live_view_watermark: `/files/live-${id}.jpg`,
        photo_watermark: `/files/marked-${id}.jpg`,
      },
    });
  const tileSource = () => tiles()[0]?.querySelector('img')?.getAttribute('src');

  it('the kiosk stream shows its photos only while the event offers it (kioskStreamEnabled)', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: eventWith({ kioskStreamEnabled: 0 }) },
    });
    const off = renderAlbums('?pId=pub&kioskMode=true&mode=stream&display=tok');
    expect(await screen.findByText('The kiosk stream is switched off')).toBeTruthy();
    expect(tiles()).toHaveLength(0);
    off.unmount();
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: eventWith({ kioskStreamEnabled: 1 }) },
    });
    renderAlbums('?pId=pub&kioskMode=true&mode=stream&display=tok');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(screen.queryByText('The kiosk stream is switched off')).toBeNull();
  });

  it('the live stream shows the live-view watermark; the album grid the clean thumbnail', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([marked(1)]) },
      [EVENT]: { ok: eventWith({}) },
    });
    const stream = renderAlbums('?pId=pub&mode=stream');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(tileSource()).toBe('/files/live-1.jpg');
    stream.unmount();
    renderAlbums('?pId=pub');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(tileSource()).toBe('/files/thumb-1.jpg');
  });

  it('a kiosk shows watermarked pictures only when the event turns kioskWatermarkEnable on', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([marked(1)]) },
      [EVENT]: { ok: eventWith({ kioskWatermarkEnable: 0 }) },
    });
    const plain = renderAlbums('?pId=pub&kioskMode=true&display=tok');
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(tileSource()).toBe('/files/thumb-1.jpg');
    plain.unmount();
    installFakeApi({
      [LIST]: { ok: photoPage([marked(1)]) },
      [EVENT]: { ok: eventWith({ kioskWatermarkEnable: 1 }) },
    });
    renderAlbums('?pId=pub&kioskMode=true&display=tok');
    await waitFor(() => expect(tileSource()).toBe('/files/marked-1.jpg'));
  });
});

describe("photo times in the event's time zone", () => {
  it('the grid, the viewer and its details read in the event’s zone (daylight saving known), not UTC', async () => {
    const user = userEvent.setup();
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3)]) },
      '/event/full-data/retrieve': {
        ok: [storedEvent({ time_zone: 'Europe/Berlin', date_utc_diff_hours: 0 })],
      },
    });
    renderAlbums('?pId=pub-key');
    // 10:03 UTC on 21 November is 11:03 in Berlin (winter time).
    await user.click(await screen.findByRole('button', { name: 'photo-3.jpg, 2026-11-21 11:03' }));
    await user.click(await screen.findByRole('button', { name: 'Photo details' }));
    expect(await screen.findByText('2026-11-21 11:03 Europe/Berlin')).toBeTruthy();
  });

  it("an attendee's album reads in its event's zone", async () => {
    installFakeApi({
      '/attendee/retrieve': {
        ok: {
          uid: 'ABCDEFGHJKMNPQRS',
          display_uid: 'ABCD-EFGH-JKMN-PQRS',
          organisation_id: 7,
          email: null,
          is_prepaid: 0,
          unlocked: 1,
          expires_date: null,
          events: [
            {
              name: 'AB12',
              full_name: 'Summer party',
              empty_album_text: '',
              logo_full_path: null,
              time_zone: 'America/New_York',
              date_utc_diff_hours: 0,
            },
          ],
          photo_count: 1,
        },
      },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums('?attId=ABCD-EFGH-JKMN-PQRS');
    // 10:01 UTC is 05:01 in New York.
    expect(
      await screen.findByRole('button', { name: 'photo-1.jpg, 2026-11-21 05:01' }),
    ).toBeTruthy();
  });
});
