import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { faceConsentVersion, pageTypeFromQuery } from '@flashbulb/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import AlbumsRoot from '../../../app/albums-root.tsx';
import userEvent from '@testing-library/user-event';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';
import { pricedButtons } from '../../../../test/checkout-fixtures.ts';
import { attendeeAlbum, webappEvent } from '../../../../test/guest-fixtures.ts';

// jsdom decodes no images: the file → JPEG step is the browser's; the rest runs for real.
vi.mock('../../../shared/api/face-lookup.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared/api/face-lookup.ts')>()),
  fileToSelfieJpeg: () => Promise.resolve(new Blob(['jpeg'], { type: 'image/jpeg' })),
}));

const ATT = 'ABCD-EFGH-JKMN-PQRS';
const EVENT = '/event/full-data/retrieve';
const GRANT = '/event/selfie-upload-access/retrieve';
const SEARCH = '/photo/search-by-face';
const ATTACH = '/photo/search-by-face/attach';
const UPLOAD = 'http://localhost/storage-upload';
const TEXT = 'We compare your selfie with the photos of the Summer party.';

const attendee = attendeeAlbum({ unlocked: 1, photo_count: 2 });

const api = (
  event = storedEvent({ enable_facial_recognition: 1 }),
  routes: Parameters<typeof installFakeApi>[0] = {},
) =>
  installFakeApi({
    '/attendee/retrieve': { ok: attendee },
    '/photo/list/retrieve': { ok: photoPage([albumPhoto(1), albumPhoto(2)]) },
    [EVENT]: {
      ok: [{ ...event, opts: { ...event.opts, faceRecognitionText: TEXT } }],
    },
    [GRANT]: {
      ok: {
        url: UPLOAD,
        fields: { key: 'selfies/AB12/a.jpg' },
        key: 'selfies/AB12/a.jpg',
        public_url: 'x',
      },
    },
    [UPLOAD]: { ok: {} },
    [SEARCH]: {
      ok: {
        photos: [
          { ...albumPhoto(7), similarity: 97, face_box: { x: 0, y: 0, width: 0.1, height: 0.1 } },
        ],
        searched_faces: 1,
      },
    },
    ...routes,
  });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Find me on the attendee album', () => {
  it("asks for consent with the event's text first, then finds the guest's photos with a chosen selfie", async () => {
    const user = userEvent.setup();
    const calls = api();
    renderAlbums(`?attId=${ATT}`);
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    expect(screen.getByText(TEXT)).toBeTruthy();
    // Nothing leaves the phone before the guest agrees.
    expect(calls.callsTo(GRANT)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
    const file = new File(['x'], 'me.heic', { type: 'image/heic' });
    await user.upload(screen.getByLabelText('Choose a photo'), file);
    expect(await screen.findByText('1 photo of you')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^photo-7\.jpg,/ })).toBeTruthy();
    const version = faceConsentVersion(TEXT);
    expect(calls.callsTo(GRANT)[0]?.body).toEqual({
      key_type: 'attendee',
      key_value: ATT,
      content_type: 'image/jpeg',
      face_consent_version: version,
    });
    expect(calls.callsTo(UPLOAD)).toHaveLength(1);
    expect(calls.callsTo(SEARCH)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: ATT,
      photo_url_list: ['selfies/AB12/a.jpg'],
      face_consent_version: version,
    });
  });

  it('a refusal sends nothing and says so', async () => {
    const user = userEvent.setup();
    const calls = api();
    renderAlbums(`?attId=${ATT}`);
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    await user.click(screen.getByRole('button', { name: 'No thanks' }));
    expect(screen.getByText(/Nothing was taken or sent/)).toBeTruthy();
    expect(calls.callsTo(GRANT)).toHaveLength(0);
    expect(calls.callsTo(SEARCH)).toHaveLength(0);
  });

  it("shows the server's refusal (no face) and offers another try", async () => {
    const user = userEvent.setup();
    api(undefined, { [SEARCH]: { nok: 'face_not_found', field: 'photo_url_list' } });
    renderAlbums(`?attId=${ATT}`);
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
    await user.upload(
      screen.getByLabelText('Take a selfie'),
      new File(['x'], 'me.jpg', { type: 'image/jpeg' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('No face was found in this photo');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByLabelText('Choose a photo')).toBeTruthy();
  });

  it('is not offered when selfies are disabled or face recognition is off', async () => {
    for (const event of [
      storedEvent({
        enable_facial_recognition: 1,
        opts: { ...storedEvent().opts, disableSelfies: 1 },
      }),
      storedEvent({ enable_facial_recognition: 0 }),
    ]) {
      const calls = api(event);
      const view = renderAlbums(`?attId=${ATT}`);
      await waitFor(() => expect(calls.callsTo(EVENT).length).toBeGreaterThan(0));
      await screen.findAllByRole('button', { name: /^photo-1\.jpg,/ });
      expect(screen.queryByRole('button', { name: 'Find me' })).toBeNull();
      view.unmount();
    }
  });
});

/** A photo as a key's search answers it: the guest view (no owner fields such as full_path). */
const match = (id: number, inAlbum?: number) => ({
  ...Object.fromEntries(Object.entries(albumPhoto(id)).filter(([field]) => field !== 'full_path')),
  similarity: 95,
  face_box: { x: 0, y: 0, width: 0.1, height: 0.1 },
  ...(inAlbum === undefined ? {} : { in_album: inAlbum }),
});

/** Consent, then a chosen selfie: the results. */
const findMe = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(await screen.findByRole('button', { name: 'Find me' }));
  await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
  await user.upload(
    screen.getByLabelText('Choose a photo'),
    new File(['x'], 'me.jpg', { type: 'image/jpeg' }),
  );
};

describe('Find me leads somewhere', () => {
  it('an attendee adds the photos of them found elsewhere in the event to their album', async () => {
    const user = userEvent.setup();
    const calls = api(undefined, {
      [SEARCH]: { ok: { photos: [match(1, 1), match(8, 0), match(9, 0)], searched_faces: 1 } },
      [ATTACH]: { ok: { attendee_uid: attendee.uid, attached_count: 2 } },
    });
    renderAlbums(`?attId=${ATT}`);
    await findMe(user);
    expect(await screen.findByText('3 photos of you')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add 2 photos to my album' }));
    expect(await screen.findByText('Added to your album.')).toBeTruthy();
    expect(calls.callsTo(ATTACH)[0]?.body).toEqual({
      key_type: 'attendee',
      key_value: ATT,
      photo_url_list: ['selfies/AB12/a.jpg'],
      face_consent_version: faceConsentVersion(TEXT),
      photo_uid_array: [albumPhoto(8).uid, albumPhoto(9).uid],
    });
    // Everything found is in the album now: nothing more to add.
    expect(screen.queryByRole('button', { name: /to my album/ })).toBeNull();
  });

  it('a refused add says why and keeps the button', async () => {
    const user = userEvent.setup();
    api(undefined, {
      [SEARCH]: { ok: { photos: [match(8, 0)], searched_faces: 1 } },
      [ATTACH]: { nok: 'not_found', field: 'photo_uid_array' },
    });
    renderAlbums(`?attId=${ATT}`);
    await findMe(user);
    await user.click(await screen.findByRole('button', { name: 'Add 1 photo to my album' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add 1 photo to my album' })).toBeTruthy();
  });

  it('the public album of a paid event offers Find me, and its results become the photos to buy', async () => {
    vi.stubGlobal('innerWidth', 390);
    const user = userEvent.setup();
    const calls = api(storedEvent({ enable_facial_recognition: 1, is_free: 0 }), {
      '/photo/list/retrieve': { ok: photoPage([albumPhoto(1), albumPhoto(2), albumPhoto(3)]) },
      [SEARCH]: { ok: { photos: [match(1), match(3)], searched_faces: 1 } },
      '/payment/album-purchase/pricing-buttons': (raw: unknown) => {
        const count = (raw as { photo_count?: number }).photo_count ?? 3;
        return { ok: pricedButtons(count * 350, { methods: ['qr'], photo_count: count }) };
      },
    });
    renderAlbums('?pId=pub-key');
    await findMe(user);
    expect(calls.callsTo(SEARCH)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'pub-key',
    });
    await user.click(await screen.findByRole('button', { name: 'Choose these 2 photos to buy' }));
    // The panel closes; the purchase holds exactly the photos found.
    expect(screen.queryByText('2 photos of you')).toBeNull();
    const panel = await screen.findByRole('region', { name: 'Buy photos' });
    expect(await within(panel).findByText('2 photos chosen')).toBeTruthy();
    await waitFor(() =>
      expect(
        calls
          .callsTo('/payment/album-purchase/pricing-buttons')
          .some((call) => (call.body as { photo_count?: number }).photo_count === 2),
      ).toBe(true),
    );
  });

  it('the public album of a free event offers Find me without a purchase', async () => {
    const user = userEvent.setup();
    api(storedEvent({ enable_facial_recognition: 1, is_free: 1 }));
    renderAlbums('?pId=pub-key');
    await findMe(user);
    expect(await screen.findByText('1 photo of you')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /to buy/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /to my album/ })).toBeNull();
  });
});

const renderWebapp = (search: string) =>
  render(
    <StrictMode>
      <AlbumsRoot context={pageTypeFromQuery(search)} eventName={null} />
    </StrictMode>,
  );

describe('Find me on the web-app page', () => {
  it("searches the public album's photos with the link's token (the public key)", async () => {
    const user = userEvent.setup();
    const calls = api(undefined, { '/webapp/event/retrieve': { ok: webappEvent } });
    renderWebapp('?eName=AB12&token=PUBKEY');
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    expect(calls.callsTo(GRANT)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
    await user.upload(
      screen.getByLabelText('Choose a photo'),
      new File(['x'], 'me.jpg', { type: 'image/jpeg' }),
    );
    expect(await screen.findByText('1 photo of you')).toBeTruthy();
    expect(calls.callsTo(GRANT)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'PUBKEY',
    });
    expect(calls.callsTo(SEARCH)[0]?.body).toMatchObject({
      key_type: 'public',
      key_value: 'PUBKEY',
    });
  });

  it('offers nothing without a token, or when the event has face recognition off', async () => {
    let calls = api(undefined, { '/webapp/event/retrieve': { ok: webappEvent } });
    let view = renderWebapp('?eName=AB12');
    await screen.findByRole('heading', { name: 'Summer party' });
    expect(screen.queryByRole('button', { name: 'Find me' })).toBeNull();
    expect(calls.callsTo(EVENT)).toHaveLength(0);
    view.unmount();
    calls = api(storedEvent({ enable_facial_recognition: 0 }), {
      '/webapp/event/retrieve': { ok: webappEvent },
    });
    view = renderWebapp('?eName=AB12&token=PUBKEY');
    await screen.findByRole('heading', { name: 'Summer party' });
    await waitFor(() => expect(calls.callsTo(EVENT).length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: 'Find me' })).toBeNull();
    view.unmount();
  });
});

/** Holds the fake server's answer to one path until the test lets it go. */
const holdCalls = (path: string) => {
  const passOn = globalThis.fetch;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.endsWith(path) ? released.then(() => passOn(input, init)) : passOn(input, init);
  });
  return release;
};

describe('Find me on the web-app page follows the page’s settings', () => {
  it('shows the organiser’s texts around the selfie, the photos at the picture size, and links none', async () => {
    const user = userEvent.setup();
    api(undefined, {
      '/webapp/event/retrieve': {
        ok: {
          ...webappEvent,
          link_photos: false,
          picture_size: 320,
          user_content: {
            tooltip: 'A clear, front-facing selfie works best.',
            upload_message: 'Sending your selfie…',
            process_message: 'Looking through the gala’s photos…',
          },
        },
      },
    });
    const releaseUpload = holdCalls(UPLOAD);
    renderWebapp('?eName=AB12&token=PUBKEY');
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
    // The organiser's hint by the selfie buttons (userContentTooltip), tied to both.
    const choose = screen.getByLabelText('Choose a photo');
    expect(choose.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(choose.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A clear, front-facing selfie works best.',
    );
    await user.upload(choose, new File(['x'], 'me.jpg', { type: 'image/jpeg' }));
    // While the selfie goes up (userContentUploadMessage)…
    expect((await screen.findByRole('status')).textContent).toBe('Sending your selfie…');
    const releaseSearch = holdCalls(SEARCH);
    releaseUpload();
    // …then while it is searched (userContentProcessMessage).
    expect(await screen.findByText('Looking through the gala’s photos…')).toBeTruthy();
    releaseSearch();
    expect(await screen.findByText('1 photo of you')).toBeTruthy();
    // disableLinkPhotos: the photo is a picture, not a button, and opens nothing.
    expect(screen.queryByRole('button', { name: /^photo-7\.jpg,/ })).toBeNull();
    const picture = screen.getByRole('img', { name: /^photo-7\.jpg,/ });
    await user.click(picture);
    expect(screen.queryByRole('dialog')).toBeNull();
    // pictureSize: the row of photos is that many pixels high.
    expect(picture.closest<HTMLElement>('.albums-row')?.style.height).toBe('320px');
  });

  it('by default the photos open in the viewer, in rows of the usual height, with our texts', async () => {
    const user = userEvent.setup();
    api(undefined, { '/webapp/event/retrieve': { ok: webappEvent } });
    renderWebapp('?eName=AB12&token=PUBKEY');
    await user.click(await screen.findByRole('button', { name: 'Find me' }));
    await user.click(screen.getByRole('button', { name: 'I agree — take a selfie' }));
    expect(screen.getByText('Take a selfie, or pick a clear photo of just you.')).toBeTruthy();
    await user.upload(
      screen.getByLabelText('Choose a photo'),
      new File(['x'], 'me.jpg', { type: 'image/jpeg' }),
    );
    const tile = await screen.findByRole('button', { name: /^photo-7\.jpg,/ });
    expect(tile.closest<HTMLElement>('.albums-row')?.style.height).toBe('250px');
    await user.click(tile);
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});
