import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_BASE, PHOTO_STREAM_PATH } from '@flashbulb/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readableAccent } from '@flashbulb/shared/rules/accent';
import { storedEvent } from '../../test/event-fixtures.ts';
import { installFakeApi, type FakeReply } from '../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../test/render-albums.tsx';
import { fakeEventSources, pushPhoto } from '../../test/fake-event-source.ts';

const LIST = '/photo/list/retrieve';
const RETRIEVE = '/attendee/retrieve';
const ATTACH = '/attendee/attach-photos';
const QR_ATTACH = '/attendee/attach-photos-by-qr-scan';
const UPDATE = '/attendee/update-by-kiosk';
const ATT = 'ABCD-EFGH-JKMN-PQRS';

const tiles = () => screen.queryAllByRole('button', { name: /^photo-\d+\.jpg,/ });
const tile = (id: number) =>
  screen.getByRole('button', { name: new RegExp(`^photo-${id}\\.jpg,`) });
const root = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-page-kind]');

const attendeeAlbum = (overrides: Record<string, unknown> = {}) => ({
  uid: 'ABCDEFGHJKMNPQRS',
  display_uid: ATT,
  organisation_id: 7,
  email: null,
  is_prepaid: 0,
  unlocked: 0,
  expires_date: null,
  events: [
    {
      name: 'AB12',
      full_name: 'Summer party',
      empty_album_text: '<p>Your ride photos land <b>here</b>.</p>',
      logo_full_path: null,
    },
  ],
  photo_count: 1,
  ...overrides,
});

const withOriginal = (id: number) =>
  albumPhoto(id, { urls: { ...albumPhoto(id).urls, original: `/files/original-${id}.jpg` } });

/** Records the EventSource the page opens, so a test can see the stream's URL and push photos. */

afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('attendee album (attId)', () => {
  it('reads the attendee with the attendee key, then shows their photos titled with the event and the printed id', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendeeAlbum() },
      [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
    });
    const view = renderAlbums(`?attId=abcdefghjkmnpqrs`);
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(api.callsTo(RETRIEVE)[0]?.body).toEqual({
      key_type: 'attendee',
      key_value: 'abcdefghjkmnpqrs',
    });
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: 'abcdefghjkmnpqrs',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      `Summer party — album ${ATT}`,
    );
    // A personal link, not a kiosk: no kiosk layout and no e-mail form.
    expect(root(view.container)?.classList.contains('albums-root--kiosk')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Send my album link to my e-mail' })).toBeNull();
    expect(screen.queryByText('These are the photos you chose at the kiosk.')).toBeNull();
  });

  it('wears the event’s brand colour, made readable, from the attendee’s event', async () => {
    installFakeApi({
      [RETRIEVE]: {
        ok: attendeeAlbum({ events: [{ ...attendeeAlbum().events[0], accent_color: '#d9480f' }] }),
      },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums(`?attId=${ATT}`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    const main = document.querySelector<HTMLElement>('.albums-main');
    const { accent, onAccent } = readableAccent('#d9480f');
    expect(main?.style.getPropertyValue('--fb-accent')).toBe(accent);
    expect(main?.style.getPropertyValue('--fb-on-accent')).toBe(onAccent);
  });

  // The server decides per photo: a whole unlocked album, or photos bought by tag or one by one
  // (unlocked stays 0) come with their original URL; a locked photo comes without one.
  it.each([
    [1, true, true],
    [0, true, true],
    [0, false, false],
  ])(
    'with unlocked %s and an original URL %s the download is offered: %s',
    async (unlocked, hasOriginal, offered) => {
      installFakeApi({
        [RETRIEVE]: { ok: attendeeAlbum({ unlocked }) },
        [LIST]: { ok: photoPage([hasOriginal ? withOriginal(3) : albumPhoto(3)]) },
      });
      renderAlbums(`?attId=${ATT}`);
      await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg,/ }));
      const dialog = await screen.findByRole('dialog');
      const link = within(dialog).queryByRole('link', { name: 'Download original' });
      expect(link !== null).toBe(offered);
      if (link) expect(link.getAttribute('href')).toBe('/files/original-3.jpg');
    },
  );

  it.each([
    ['invalid_attendee_id', 404, 'This album link is not valid. Ask the organiser for a new one.'],
    ['invalid_key', 401, 'This album link is not valid. Ask the organiser for a new one.'],
    ['attendee_locked', 403, 'This album has been locked by the event organiser'],
    ['attendee_expired', 403, 'This album link has expired'],
  ])('%s shows its message and asks for no photos', async (key, status, message) => {
    const api = installFakeApi({
      [RETRIEVE]: { nok: key, status },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums(`?attId=${ATT}`);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(api.callsTo(LIST)).toHaveLength(0);
    expect(tiles()).toHaveLength(0);
  });

  it('an album without photos yet shows the event’s empty-album text as plain text', async () => {
    installFakeApi({ [RETRIEVE]: { ok: attendeeAlbum() }, [LIST]: { ok: photoPage([]) } });
    renderAlbums(`?attId=${ATT}`);
    expect(await screen.findByText('Your ride photos land here.')).toBeTruthy();
  });

  it('attType=evSB2 says these are the photos chosen at the kiosk', async () => {
    installFakeApi({
      [RETRIEVE]: { ok: attendeeAlbum() },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums(`?attId=${ATT}&attType=evSB2`);
    expect(await screen.findByText('These are the photos you chose at the kiosk.')).toBeTruthy();
  });

  it('updates live: the stream opens with the attendee key and a pushed photo appears first', async () => {
    const sources = fakeEventSources();
    installFakeApi({
      [RETRIEVE]: { ok: attendeeAlbum() },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums(`?attId=${ATT}`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await waitFor(() => expect(sources.length).toBeGreaterThan(0));
    const source = sources.at(-1);
    expect(source?.url).toBe(
      `${API_BASE}${PHOTO_STREAM_PATH}?key_type=attendee&key_value=${encodeURIComponent(ATT)}`,
    );
    pushPhoto(source, albumPhoto(5));
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(tiles()[0]?.getAttribute('aria-label')).toMatch(/^photo-5\.jpg/);
  });
});

describe('kiosk attendee pages (evSB2, evSB4)', () => {
  const kioskApi = (routes: Parameters<typeof installFakeApi>[0] = {}) =>
    installFakeApi({
      [RETRIEVE]: { ok: attendeeAlbum() },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      ...routes,
    });

  it('evSB2 shows the attendee album in kiosk layout and keeps no cookie', async () => {
    const api = kioskApi({
      '/event/full-data/retrieve': { ok: [storedEvent({ enable_facial_recognition: 1 })] },
    });
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const view = renderAlbums(`?kType=evSB2&attId=${ATT}`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ key_type: 'attendee', key_value: ATT });
    expect(root(view.container)?.classList.contains('albums-root--kiosk')).toBe(true);
    expect(cookie).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('isShopKiosk')).toBeNull();
    // The kiosk screen's actions area: exactly one of the two buttons.
    expect(screen.getAllByRole('button', { name: /face|back to album/i })).toHaveLength(1);
    // A shared screen: titled with the event, never the card's id.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Summer party');
    expect(view.container.textContent).not.toContain(ATT);
    cookie.mockRestore();
  });

  it('with face recognition off or selfies disabled the kiosk offers no face lookup', async () => {
    for (const event of [
      storedEvent({ enable_facial_recognition: 0 }),
      storedEvent({
        enable_facial_recognition: 1,
        opts: { ...storedEvent().opts, disableSelfies: 1 },
      }),
    ]) {
      const api = kioskApi({ '/event/full-data/retrieve': { ok: [event] } });
      const view = renderAlbums(`?kType=evSB2&attId=${ATT}`);
      await waitFor(() => expect(tiles()).toHaveLength(1));
      await waitFor(() =>
        expect(api.callsTo('/event/full-data/retrieve').length).toBeGreaterThan(0),
      );
      expect(screen.queryByRole('button', { name: /face|back to album/i })).toBeNull();
      view.unmount();
    }
  });

  it('back from the camera and then offline, the album stays on screen', async () => {
    let online = true;
    const whileOnline =
      (reply: FakeReply): (() => FakeReply) =>
      () =>
        online ? reply : { networkError: true };
    const api = installFakeApi({
      [RETRIEVE]: whileOnline({ ok: attendeeAlbum({ unlocked: 1 }) }),
      [LIST]: whileOnline({ ok: photoPage([albumPhoto(2), albumPhoto(1)]) }),
      '/event/full-data/retrieve': whileOnline({ ok: [storedEvent()] }),
      '/health': whileOnline({ ok: {} }),
    });
    renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await waitFor(() => expect(tiles()).toHaveLength(2));
    await userEvent.click(await screen.findByRole('button', { name: 'Take a photo' }));
    expect(tiles()).toHaveLength(0);
    const retrieved = api.callsTo(RETRIEVE).length;
    const listed = api.callsTo(LIST).length;
    // The network goes as the guest comes back: whatever the album asks again fails.
    online = false;
    // (The health check runs at the browser's network signals; the browser itself stays online.)
    window.dispatchEvent(new Event('online'));
    await userEvent.click(screen.getByRole('button', { name: '< Back to album' }));
    // The photos are asked again (a photo just taken may be in) and that fails: they stay.
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listed));
    // The attendee is not read again for a visit to the camera.
    expect(api.callsTo(RETRIEVE)).toHaveLength(retrieved);
    expect(await screen.findByText(/This kiosk is offline/)).toBeTruthy();
    expect(screen.queryByText(/not valid|went wrong/i)).toBeNull();
    expect(tiles()).toHaveLength(2);
  });

  it('evSB4 stores the shop-kiosk flag locally', async () => {
    kioskApi();
    renderAlbums(`?kType=evSB4&attId=${ATT}`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(window.localStorage.getItem('isShopKiosk')).toBe('true');
  });

  it('sends the album link to a valid address with the attendee id', async () => {
    const api = kioskApi({
      [UPDATE]: { ok: { attendee_uid: 'ABCDEFGHJKMNPQRS', email: 'a@b.co' } },
    });
    renderAlbums(`?kType=evSB4&attId=${ATT}&pvId=kiosk-key`);
    await userEvent.type(await screen.findByLabelText('Your e-mail address'), ' a@b.co ');
    await userEvent.click(screen.getByRole('button', { name: 'Send my album link to my e-mail' }));
    expect(await screen.findByText('Your album link will be sent to a@b.co.')).toBeTruthy();
    expect(api.callsTo(UPDATE).map((call) => call.body)).toEqual([
      {
        key_type: 'private',
        key_value: 'kiosk-key',
        attendee_uid: ATT,
        email_address: 'a@b.co',
        client_request_id: expect.any(String) as unknown,
      },
    ]);
  });

  it('offers the event’s e-mail endings for the album-link address', async () => {
    const event = storedEvent();
    kioskApi({
      '/event/full-data/retrieve': {
        ok: [{ ...event, opts: { ...event.opts, emailEnds: ['gala.example', 'mail.com'] } }],
      },
    });
    renderAlbums(`?kType=evSB4&attId=${ATT}&pvId=kiosk-key`);
    const input = await screen.findByLabelText<HTMLInputElement>('Your e-mail address');
    await userEvent.type(input, 'ann@ma');
    await waitFor(() =>
      expect([...(input.list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
        'ann@mail.com',
      ]),
    );
  });

  it('offline, the album link waits in the kiosk’s outbox, survives a reload and is sent once', async () => {
    let online = false;
    const sent: unknown[] = [];
    const api = kioskApi({
      [UPDATE]: (body): FakeReply => {
        if (!online) return { networkError: true };
        sent.push(body);
        return { ok: { attendee_uid: 'ABCDEFGHJKMNPQRS', email: 'a@b.co' } };
      },
      '/event/full-data/retrieve': { ok: [storedEvent()] },
      '/health': () => (online ? { ok: {} } : { networkError: true }),
    });
    const first = renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await userEvent.type(await screen.findByLabelText('Your e-mail address'), 'a@b.co');
    await userEvent.click(screen.getByRole('button', { name: 'Send my album link to my e-mail' }));
    expect(await screen.findByText('1 action is waiting to be sent.')).toBeTruthy();
    expect(window.localStorage.getItem('flashbulb-kiosk-outbox:kiosk-key')).toContain('a@b.co');
    // The kiosk reloads while offline; the network comes back; the new page sends it.
    first.unmount();
    const tried = api.callsTo(UPDATE).length;
    online = true;
    renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      key_type: 'private',
      key_value: 'kiosk-key',
      attendee_uid: ATT,
      email_address: 'a@b.co',
      client_request_id: expect.stringMatching(/^.{8,100}$/) as unknown,
    });
    // Every try, before the reload and after, carries the same request id: the server mails once.
    const ids = new Set(
      api
        .callsTo(UPDATE)
        .map((call) => (call.body as { client_request_id?: string }).client_request_id),
    );
    expect(ids.size).toBe(1);
    expect(api.callsTo(UPDATE)).toHaveLength(tried + 1);
    await waitFor(() =>
      expect(window.localStorage.getItem('flashbulb-kiosk-outbox:kiosk-key')).toBeNull(),
    );
  });

  it('without the kiosk key in the link the e-mail form is not offered', async () => {
    kioskApi();
    renderAlbums(`?kType=evSB4&attId=${ATT}`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(screen.queryByLabelText('Your e-mail address')).toBeNull();
  });

  it('a malformed address shows the catalogue’s e-mail message and sends nothing', async () => {
    const api = kioskApi();
    renderAlbums(`?kType=evSB2&attId=${ATT}&privateId=kiosk-key`);
    await userEvent.type(await screen.findByLabelText('Your e-mail address'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Send my album link to my e-mail' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a valid e-mail address');
    expect(api.callsTo(UPDATE)).toHaveLength(0);
  });

  it('the server’s refusal is shown with its reason', async () => {
    kioskApi({ [UPDATE]: { nok: 'attendee_expired', status: 403 } });
    renderAlbums(`?kType=evSB2&attId=${ATT}&pvId=kiosk-key`);
    await userEvent.type(await screen.findByLabelText('Your e-mail address'), 'a@b.co');
    await userEvent.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('This album link has expired');
  });
});

describe('older attendee page (attOrgId)', () => {
  it('sends the organisation with the attendee id and shows the album', async () => {
    const api = installFakeApi({
      [RETRIEVE]: { ok: attendeeAlbum() },
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
    });
    renderAlbums(`?attOrgId=${ATT}-7`);
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(api.callsTo(RETRIEVE)[0]?.body).toEqual({
      key_type: 'attendee',
      key_value: ATT,
      organisation_id: 7,
    });
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ key_type: 'attendee', key_value: ATT });
  });

  it('an attendee of another organisation gets the not-valid message', async () => {
    installFakeApi({ [RETRIEVE]: { nok: 'invalid_attendee_id', status: 404 } });
    renderAlbums(`?attOrgId=${ATT}-8`);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This album link is not valid',
    );
  });

  it('an organisation that is not a number is not valid, without asking the server', () => {
    const api = installFakeApi({});
    renderAlbums(`?attOrgId=${ATT}-acme`);
    expect(screen.getByRole('alert').textContent).toContain('This album link is not valid');
    expect(api.calls).toHaveLength(0);
  });
});

describe('all-photos kiosk (evSB1)', () => {
  it('shows every photo by the private key in kiosk layout, without add buttons or downloads when no attendee scanned', async () => {
    const api = installFakeApi({ [LIST]: { ok: photoPage([withOriginal(2), albumPhoto(1)]) } });
    const view = renderAlbums('?kType=evSB1&pvId=priv');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ key_type: 'private', key_value: 'priv' });
    expect(root(view.container)?.classList.contains('albums-root--kiosk')).toBe(true);
    expect(screen.queryByRole('button', { name: /^Add to my album/ })).toBeNull();
    // The private key could download originals, but not on a shared kiosk screen.
    await userEvent.click(tile(2));
    expect(within(screen.getByRole('dialog')).queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('adds a photo to the scanned attendee’s album and counts it in the bar', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(2), albumPhoto(1)]) },
      [ATTACH]: { ok: { attendee_uid: 'ABCDEFGHJKMNPQRS', attached_count: 1 } },
    });
    window.history.replaceState(
      null,
      '',
      '/?kType=evSB1&pvId=priv&display=tok&attendeeId=abcdefghjkmnpqrs',
    );
    renderAlbums('?kType=evSB1&pvId=priv&display=tok&attendeeId=abcdefghjkmnpqrs');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    const bar = screen.getByRole('status');
    expect(bar.textContent).toBe(`0 photos added to album ${ATT}`);
    const add = screen.getByRole('button', { name: 'Add to my album: photo-2.jpg' });
    expect(add.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(add);
    const added = await screen.findByRole('button', { name: 'Added: photo-2.jpg' });
    expect(added.getAttribute('aria-pressed')).toBe('true');
    expect((added as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe(`1 photo added to album ${ATT}`);
    expect(screen.getByRole('button', { name: 'Add to my album: photo-1.jpg' })).toBeTruthy();
    // The kiosk's call: its private key with the display token of its link.
    expect(api.callsTo(ATTACH).map((call) => call.body)).toEqual([
      {
        key_type: 'private',
        key_value: 'priv',
        display: 'tok',
        attendee_uid: 'abcdefghjkmnpqrs',
        photo_uid_array: ['uid-2'],
      },
    ]);
  });

  it('a card whose album key carries its private id (`<id>~<private id>`) shows the printed id only', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(2)]) },
      [ATTACH]: { ok: { attendee_uid: 'BAND42', attached_count: 1 } },
    });
    const view = renderAlbums(
      `?kType=evSB1&pvId=priv&attendeeId=${encodeURIComponent('band42~K7QX2MPA')}`,
    );
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(screen.getByRole('status').textContent).toBe('0 photos added to album BAND42');
    await userEvent.click(screen.getByRole('button', { name: 'Add to my album: photo-2.jpg' }));
    await screen.findByRole('button', { name: 'Added: photo-2.jpg' });
    expect(screen.getByRole('status').textContent).toBe('1 photo added to album BAND42');
    // The private id opens the album: it goes to the server with the add, never onto the screen.
    expect(api.callsTo(ATTACH)[0]?.body).toMatchObject({ attendee_uid: 'band42~K7QX2MPA' });
    expect(view.container.textContent).not.toContain('K7QX2MPA');
    expect(document.title).not.toContain('K7QX2MPA');
  });

  it('a refused add shows why and the photo stays addable', async () => {
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(2)]) },
      [ATTACH]: { nok: 'attendee_locked', status: 403 },
    });
    renderAlbums(`?kType=evSB1&pvId=priv&attendeeId=${ATT}`);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Add to my album: photo-2.jpg' }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This album has been locked by the event organiser',
    );
    expect(screen.getByRole('status').textContent).toBe(`0 photos added to album ${ATT}`);
    expect(screen.getByRole('button', { name: 'Add to my album: photo-2.jpg' })).toBeTruthy();
  });
});

describe('QR ride kiosk (evSB3)', () => {
  const SCAN = `https://photos.test/?attId=${ATT}`;
  const success = {
    attendee_uid: 'ABCDEFGHJKMNPQRS',
    display_uid: ATT,
    attached_count: 2,
    album_url: `https://photos.test/?attId=${ATT}`,
  };
  const rideApi = (qr: Parameters<typeof installFakeApi>[0][string] = { ok: success }) =>
    installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [QR_ATTACH]: qr,
    });
  const scanInput = () => screen.getByLabelText('Scan your card');

  it('without pvId says it cannot load photos and asks for nothing', async () => {
    const api = installFakeApi({});
    renderAlbums('?kType=evSB3');
    expect((await screen.findByRole('alert')).textContent).toContain('cannot load photos');
    expect(api.calls).toHaveLength(0);
  });

  it('streams the ride’s photos live with the private key', async () => {
    const sources = fakeEventSources();
    const api = rideApi();
    renderAlbums('?kType=evSB3&pvId=ride-key&display=ride-tok');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({
      key_type: 'private',
      key_value: 'ride-key',
      display: 'ride-tok',
    });
    await waitFor(() =>
      expect(sources.at(-1)?.url).toBe(
        `${API_BASE}${PHOTO_STREAM_PATH}?key_type=private&key_value=ride-key&display=ride-tok`,
      ),
    );
  });

  it('select → scan → success with link and QR code → Done resets', async () => {
    const api = rideApi();
    window.history.replaceState(null, '', '/?kType=evSB3&pvId=ride-key&display=ride-tok');
    renderAlbums('?kType=evSB3&pvId=ride-key&display=ride-tok');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(scanInput().getAttribute('type')).toBe('password');
    expect(screen.getByRole('grid').getAttribute('aria-label')).toContain('Space selects');

    // Click, Enter and Space all toggle, and the state is visible on the tile.
    await userEvent.click(tile(3));
    expect(tile(3).getAttribute('aria-pressed')).toBe('true');
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tile(2));
    await userEvent.keyboard(' ');
    expect(tile(2).getAttribute('aria-pressed')).toBe('true');
    await userEvent.keyboard('{ArrowRight}{Enter}');
    expect(tile(1).getAttribute('aria-pressed')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(tile(1).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText('2 photos selected')).toBeTruthy();
    expect(api.callsTo(QR_ATTACH)).toHaveLength(0);

    await userEvent.type(scanInput(), `${SCAN}{Enter}`);
    const heading = await screen.findByRole('heading', {
      name: `Added 2 photos to album ${ATT}`,
    });
    // The kiosk's call: its private key with the display token of its link.
    expect(api.callsTo(QR_ATTACH).map((call) => call.body)).toEqual([
      {
        key_type: 'private',
        key_value: 'ride-key',
        display: 'ride-tok',
        qr_text: SCAN,
        photo_uid_array: ['uid-3', 'uid-2'],
      },
    ]);
    const panel = heading.closest('section') as HTMLElement;
    expect(within(panel).getByRole('link', { name: 'Open my album' }).getAttribute('href')).toBe(
      success.album_url,
    );
    const qr = await within(panel).findByRole('img', { name: 'QR code of your album link' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);

    await userEvent.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('heading', { name: /^Added/ })).toBeNull();
    expect(screen.getByText('0 photos selected')).toBeTruthy();
    expect(tiles().every((t) => t.getAttribute('aria-pressed') === 'false')).toBe(true);
    expect((scanInput() as HTMLInputElement).value).toBe('');
  });

  it('the success panel resets by itself after 15 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      rideApi();
      renderAlbums('?kType=evSB3&pvId=ride-key');
      await waitFor(() => expect(tiles()).toHaveLength(3));
      const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
      await user.click(tile(1));
      await user.type(scanInput(), `${SCAN}{Enter}`);
      await screen.findByRole('heading', { name: /^Added 2 photos/ });
      await act(() => vi.advanceTimersByTimeAsync(14_000));
      expect(screen.getByRole('heading', { name: /^Added 2 photos/ })).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(1_500));
      expect(screen.queryByRole('heading', { name: /^Added/ })).toBeNull();
      expect(screen.getByText('0 photos selected')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a card the server does not know says “Invalid card code.” and keeps the selection', async () => {
    const api = rideApi({ nok: 'invalid_attendee_id', status: 404 });
    renderAlbums('?kType=evSB3&pvId=ride-key');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    await userEvent.click(tile(2));
    await userEvent.type(scanInput(), `${SCAN}{Enter}`);
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid card code.');
    expect(api.callsTo(QR_ATTACH)).toHaveLength(1);
    expect(tile(2).getAttribute('aria-pressed')).toBe('true');
    expect((scanInput() as HTMLInputElement).value).toBe('');
  });

  it('an unreadable scan says “Invalid card code.” without asking the server', async () => {
    const api = rideApi();
    renderAlbums('?kType=evSB3&pvId=ride-key');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    await userEvent.click(tile(2));
    await userEvent.type(scanInput(), 'https://x.test/?attId=%%%!{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid card code.');
    expect(api.callsTo(QR_ATTACH)).toHaveLength(0);
  });

  it('a scan without chosen photos asks for photos first', async () => {
    const api = rideApi();
    renderAlbums('?kType=evSB3&pvId=ride-key');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    await userEvent.type(scanInput(), `${SCAN}{Enter}`);
    expect((await screen.findByRole('alert')).textContent).toBe('Choose at least one photo first.');
    expect(api.callsTo(QR_ATTACH)).toHaveLength(0);
  });
});

describe('app mode (app=ios|android)', () => {
  it.each([
    ['?pvId=priv&app=ios', 'ios'],
    ['?pvId=priv&app=android', 'android'],
  ])('%s marks the root and opens downloads in the same window', async (search, app) => {
    installFakeApi({ [LIST]: { ok: photoPage([withOriginal(3)]) } });
    const view = renderAlbums(search);
    expect(root(view.container)?.dataset.app).toBe(app);
    await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg,/ }));
    const link = screen.getByRole('link', { name: 'Download original' });
    expect(link.hasAttribute('download')).toBe(false);
    expect(link.getAttribute('target')).toBe('_self');
  });

  it('in a browser the download attribute names the file', async () => {
    installFakeApi({ [LIST]: { ok: photoPage([withOriginal(3)]) } });
    const view = renderAlbums('?pvId=priv');
    expect(root(view.container)?.hasAttribute('data-app')).toBe(false);
    await userEvent.click(await screen.findByRole('button', { name: /^photo-3\.jpg,/ }));
    expect(screen.getByRole('link', { name: 'Download original' }).getAttribute('download')).toBe(
      'photo-3.jpg',
    );
  });
});
