import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INSTANT_STREAM_EVENT, type InstantState } from '@flashbulb/shared';
import { i18next } from '../../../../i18n/i18n.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { albumPhoto, renderAlbums } from '../../../../test/render-albums.tsx';
import { instantStreamUrl } from './instant-photo-page.tsx';
import { fakeEventSources } from '../../../../test/fake-event-source.ts';
import { miniAlbum } from '../../../../test/guest-fixtures.ts';

const RETRIEVE = '/photo/instant/retrieve';
const INSTANT = 'AB12-K7QMX9';

const developing: InstantState = { state: 'developing', code: 'K7QMX9', event: null, photo: null };
const ready = (download: 0 | 1): InstantState => ({
  state: 'ready',
  code: 'K7QMX9',
  event: {
    name: 'AB12',
    full_name: 'Summer party',
    logo_full_path: null,
    download_enabled: download,
  },
  photo: albumPhoto(5),
});

/** Records the EventSource the page opens, so a test can push the stream's states. */
const openSources = <T extends { closed: () => boolean }>(sources: T[]) =>
  sources.filter((s) => !s.closed());
const push = (target: EventTarget, state: InstantState) =>
  act(() => {
    target.dispatchEvent(new MessageEvent(INSTANT_STREAM_EVENT, { data: JSON.stringify(state) }));
  });

afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
});

describe('instant link page (?instant=)', () => {
  it('says the photo is developing, then shows it when the stream says it is ready, without reload', async () => {
    const sources = fakeEventSources();
    const api = installFakeApi({ [RETRIEVE]: { ok: developing } });
    renderAlbums(`?instant=${INSTANT}`);
    expect(await screen.findByRole('heading', { name: 'Your photo is developing…' })).toBeTruthy();
    expect(screen.getByText('Code K7QMX9')).toBeTruthy();
    expect(api.callsTo(RETRIEVE)[0]?.body).toEqual({ instant: INSTANT });
    // One stream open (a development render may open and close one before it).
    await waitFor(() => expect(openSources(sources)).toHaveLength(1));
    const source = openSources(sources)[0]!;
    expect(source.url).toBe(instantStreamUrl(INSTANT));
    expect(source.url).toBe('/api/v1/photo/instant/stream?instant=AB12-K7QMX9');

    const fetched = api.callsTo(RETRIEVE).length;
    push(source.target, ready(1));
    const picture = await screen.findByRole('img', { name: 'Your photo' });
    expect(picture.getAttribute('src')).toBe(albumPhoto(5).urls.preview);
    expect(screen.queryByText('Your photo is developing…')).toBeNull();
    expect(screen.getByText('Summer party')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share' })).toBeTruthy();
    // Nothing more to hear: the stream is closed.
    expect(source.closed()).toBe(true);
    expect(openSources(sources)).toHaveLength(0);
    // The stream's state alone: no second read.
    expect(api.callsTo(RETRIEVE)).toHaveLength(fetched);
  });

  it('offers no download where the event does not let guests save pictures', async () => {
    fakeEventSources();
    installFakeApi({ [RETRIEVE]: { ok: ready(0) } });
    renderAlbums(`?instant=${INSTANT}`);
    expect(await screen.findByRole('img', { name: 'Your photo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Share' })).toBeTruthy();
  });

  it('explains a failed upload instead of spinning, whether told at once or by the stream', async () => {
    const sources = fakeEventSources();
    installFakeApi({ [RETRIEVE]: { ok: developing } });
    renderAlbums(`?instant=${INSTANT}`);
    await screen.findByRole('heading', { name: 'Your photo is developing…' });
    await waitFor(() => expect(openSources(sources)).toHaveLength(1));
    push(openSources(sources)[0]!.target, { ...developing, state: 'failed' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Ask the booth staff to take it again or to send it to you.',
    );
    expect(screen.getByRole('heading', { name: 'This photo didn’t arrive' })).toBeTruthy();
    expect(screen.queryByText('Your photo is developing…')).toBeNull();
  });

  it('an unknown code is a not-found page, and no stream is opened', async () => {
    const sources = fakeEventSources();
    installFakeApi({ [RETRIEVE]: { nok: 'not_found', status: 404 } });
    renderAlbums(`?instant=AB12-ZZZZZZ`);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This photo link is not valid. Check the code, or ask the booth staff.',
    );
    expect(screen.getByRole('heading', { name: 'Photo not found' })).toBeTruthy();
    expect(sources).toHaveLength(0);
  });

  it('lets a guest type the code from their card on the not-found page and opens that photo', async () => {
    fakeEventSources();
    const api = installFakeApi({
      [RETRIEVE]: (body) =>
        (body as { instant: string }).instant === 'AB12-K7QMX9'
          ? { ok: ready(1) }
          : { nok: 'not_found', status: 404 },
    });
    renderAlbums(`?instant=AB12-K7QMX8`);
    const field = await screen.findByLabelText('Photo code');
    // Not a code at all: said at once, nothing asked.
    const asked = api.callsTo(RETRIEVE).length;
    await userEvent.type(field, 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Open my photo' }));
    expect((await screen.findByText(/^That isn’t a photo code/)).getAttribute('role')).toBe(
      'alert',
    );
    expect(api.callsTo(RETRIEVE)).toHaveLength(asked);
    // A code of no photo: the server says so.
    await userEvent.clear(field);
    await userEvent.type(field, 'k7q-mx7');
    await userEvent.click(screen.getByRole('button', { name: 'Open my photo' }));
    expect(await screen.findByText('No photo has this code. Check it and try again.')).toBeTruthy();
    expect(api.callsTo(RETRIEVE).at(-1)?.body).toEqual({ instant: 'AB12-K7QMX7' });
    // Typed as people type it: lower case, a dash. The photo opens in place, its link in the bar.
    await userEvent.clear(field);
    await userEvent.type(field, 'k7q-mx9');
    await userEvent.click(screen.getByRole('button', { name: 'Open my photo' }));
    expect(await screen.findByRole('img', { name: 'Your photo' })).toBeTruthy();
    expect(window.location.search).toBe('?instant=AB12-K7QMX9');
  });

  it('says "not found" in the guest’s own language (the server answers the page 404)', async () => {
    fakeEventSources();
    vi.stubGlobal('navigator', { ...navigator, languages: ['es-MX', 'en'], language: 'es-MX' });
    installFakeApi({ [RETRIEVE]: { nok: 'not_found', status: 404 } });
    try {
      renderAlbums(`?instant=AB12-ZZZZZZ`);
      expect(await screen.findByRole('heading', { name: 'Foto no encontrada' })).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
      document.documentElement.lang = 'en';
    }
  });

  it('a mini-album sent before its photo was ready shows it developing, linked to its instant page', async () => {
    installFakeApi({
      '/mini-album/retrieve': miniAlbum([albumPhoto(7)], {
        developing: [{ code: 'K7QMX9', url: `https://x.test/?instant=${INSTANT}` }],
      }),
    });
    renderAlbums('?mId=tok-1');
    const link = await screen.findByRole('link', { name: 'Your photo is developing…' });
    expect(link.getAttribute('href')).toBe(`https://x.test/?instant=${INSTANT}`);
    expect(screen.getByText('2 photos')).toBeTruthy();
  });
});
