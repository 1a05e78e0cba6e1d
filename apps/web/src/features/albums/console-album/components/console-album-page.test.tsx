import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  COUNTS,
  installAlbumApi,
  LIST,
  makePhoto,
  renderAlbum,
} from '../../../../test/console-album-kit.tsx';
import { OWNER } from '../../../../test/event-fixtures.ts';

const photos = (count: number) => Array.from({ length: count }, (_, i) => makePhoto(i + 1));
const tiles = () =>
  screen.queryByRole('list', { name: 'Photos' })
    ? within(screen.getByRole('list', { name: 'Photos' })).queryAllByRole('listitem')
    : [];
const tileNames = () => tiles().map((tile) => tile.querySelector('img')?.getAttribute('alt'));
const group = (name: string) => screen.getByRole('radiogroup', { name });

describe('console album: filter in the URL hash (albums spec §2.2)', { timeout: 40_000 }, () => {
  it('applies the hash of the URL it opens to the controls and to the list call', async () => {
    const api = installAlbumApi(photos(5));
    const before = Date.now();
    renderAlbum('/events/ABCD/album#v=0&pd=1&fn=party&ai=att-9&rangeLabel=Last7Days');

    await waitFor(() => expect(api.callsTo(LIST)).toHaveLength(1));
    const body = api.callsTo(LIST)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      event_id: 7,
      page_number: 1,
      show_total_count: 1,
      get_from_tmp: 1,
      is_visible: 0,
      printed: 1,
      file_name: 'party',
      attendee_uid: 'att-9',
    });
    expect(body.max_size).toBeGreaterThanOrEqual(100);
    expect(body.max_size).toBeLessThanOrEqual(200);
    expect(body).not.toHaveProperty('end_date');
    const start = Date.parse(String(body.start_date));
    expect(start).toBeGreaterThanOrEqual(before - 7 * 86_400_000 - 1000);
    expect(start).toBeLessThanOrEqual(Date.now() - 7 * 86_400_000 + 1000);

    expect(within(group('Visible')).getByRole('radio', { name: 'No' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(group('Printed')).getByRole('radio', { name: 'Yes' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(group('Original')).getByRole('radio', { name: 'Any' })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByLabelText('File name contains')).toHaveProperty('value', 'party');
    expect(screen.getByLabelText('Attendee id')).toHaveProperty('value', 'att-9');
    expect(screen.getByRole('textbox', { name: 'Date' })).toHaveProperty('value', 'Last 7 days');
  });

  it('writes control changes to the hash and asks the list again with the matching fields', async () => {
    const api = installAlbumApi(photos(5));
    const view = renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(5));
    const user = userEvent.setup();

    await user.click(within(group('Printable')).getByRole('radio', { name: 'Yes' }));
    await waitFor(() => expect(view.url()).toBe('/events/ABCD/album#p=1'));
    await waitFor(() =>
      expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({ printable: 1, page_number: 1 }),
    );

    await user.click(within(group('Visible')).getByRole('radio', { name: 'No' }));
    await waitFor(() => expect(view.url()).toBe('/events/ABCD/album#v=0&p=1'));

    await user.type(screen.getByLabelText('File name contains'), 'photo-00{Enter}');
    await waitFor(() => expect(view.url()).toBe('/events/ABCD/album#v=0&p=1&fn=photo-00'));
    await waitFor(() =>
      expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({
        is_visible: 0,
        printable: 1,
        file_name: 'photo-00',
      }),
    );

    await user.click(within(group('Visible')).getByRole('radio', { name: 'Any' }));
    await waitFor(() => expect(view.url()).toBe('/events/ABCD/album#p=1&fn=photo-00'));
    await waitFor(() =>
      expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({ printable: 1, file_name: 'photo-00' }),
    );
    expect(api.callsTo(LIST).at(-1)?.body).not.toHaveProperty('is_visible');

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    await waitFor(() => expect(view.url()).toBe('/events/ABCD/album'));
  });

  it('narrows the grid by file name and shows how many match', async () => {
    installAlbumApi([
      ...photos(3),
      makePhoto(10, { file_name: 'party-1.jpg' }),
      makePhoto(11, { file_name: 'party-2.jpg' }),
    ]);
    renderAlbum('/events/ABCD/album#fn=party');
    await waitFor(() => expect(tileNames()).toEqual(['party-2.jpg', 'party-1.jpg']));
    expect(screen.getByTestId('album-count-matching').textContent).toBe('2 match the filter');
    expect(screen.getByTestId('album-count-total').textContent).toBe('5 photos');
  });
});

describe('console album: grid and selection', { timeout: 40_000 }, () => {
  it('shows the photos newest first with file-name alt texts, a spinner for processing ones, and the counts', async () => {
    const api = installAlbumApi([
      ...photos(3),
      makePhoto(4, { status: 'processing', urls: { ...makePhoto(4).urls, thumbnail: null } }),
    ]);
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(4));
    expect(tileNames()).toEqual([undefined, 'photo-003.jpg', 'photo-002.jpg', 'photo-001.jpg']);
    expect(within(tiles()[0]!).getByText('Processing…')).toBeTruthy();
    expect(screen.getByTestId('album-count-total').textContent).toBe('4 photos');
    expect(api.callsTo(COUNTS)[0]?.body).toEqual({ event_id: 7 });
    const img = tiles()[1]!.querySelector('img')!;
    expect([
      img.getAttribute('width'),
      img.getAttribute('height'),
      img.getAttribute('loading'),
    ]).toEqual([expect.stringMatching(/^\d+$/), img.getAttribute('width'), 'lazy']);
  });

  it('selects with the box, a shift range, Ctrl-click; selects all loaded; Escape clears', async () => {
    installAlbumApi(photos(8));
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(8));
    const user = userEvent.setup();
    const box = (n: number) =>
      screen.getByRole<HTMLInputElement>('checkbox', { name: `Select photo-00${n}.jpg` });

    await user.click(box(7));
    await user.keyboard('{Shift>}');
    await user.click(box(4));
    await user.keyboard('{/Shift}');
    expect([8, 7, 6, 5, 4, 3, 2, 1].filter((n) => box(n).checked)).toEqual([7, 6, 5, 4]);
    const toolbar = screen.getByRole('toolbar', { name: 'Selection' });
    expect(within(toolbar).getByText('4 photos selected')).toBeTruthy();

    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('button', { name: 'Preview photo-001.jpg' }));
    await user.keyboard('{/Control}');
    expect(box(1).checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(box(5));
    expect([8, 7, 6, 5, 4, 3, 2, 1].filter((n) => box(n).checked)).toEqual([7, 6, 4, 1]);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).toBeNull();
    expect([8, 7, 6, 5, 4, 3, 2, 1].filter((n) => box(n).checked)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Select all loaded (8)' }));
    expect(
      within(screen.getByRole('toolbar', { name: 'Selection' })).getByText('8 photos selected'),
    ).toBeTruthy();
  });

  it('hides and shows the selected photos with the list update, and one photo with its eye', async () => {
    const api = installAlbumApi(photos(4));
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(4));
    const user = userEvent.setup();

    await user.click(screen.getByRole('checkbox', { name: 'Select photo-004.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-002.jpg' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Selection' });
    await user.click(within(toolbar).getByRole('button', { name: 'Hide' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/photo/list/update`).map((c) => c.body)).toEqual([
        { id_array: [4, 2], is_visible: 0 },
      ]),
    );
    await waitFor(() => expect(within(tiles()[0]!).getByText('Hidden')).toBeTruthy());
    expect(within(tiles()[2]!).getByText('Hidden')).toBeTruthy();
    expect(within(tiles()[1]!).queryByText('Hidden')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show photo-004.jpg' })).toBeTruthy();

    await user.click(within(toolbar).getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/photo/list/update`).at(-1)?.body).toEqual({
        id_array: [4, 2],
        is_visible: 1,
      }),
    );
    await waitFor(() => expect(screen.queryAllByText('Hidden')).toHaveLength(0));

    await user.click(screen.getByRole('button', { name: 'Hide photo-003.jpg' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/photo/update`).map((c) => c.body)).toEqual([
        { id: 3, is_visible: 0 },
      ]),
    );
    await user.click(await screen.findByRole('button', { name: 'Show photo-003.jpg' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/photo/update`).at(-1)?.body).toEqual({ id: 3, is_visible: 1 }),
    );
    // The counts follow the changes.
    await waitFor(() => expect(api.callsTo(COUNTS).length).toBeGreaterThan(1));
  });

  it('marks the selected photos curated with one curation update each', async () => {
    const api = installAlbumApi(photos(3), {
      '/photo/curation-update': (raw) => ({
        ok: makePhoto((raw as { original_photo_id: number }).original_photo_id, { is_curated: 1 }),
      }),
    });
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-003.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-001.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Mark curated' }));
    await waitFor(() =>
      expect(
        api
          .callsTo('/photo/curation-update')
          .map((c) => c.body)
          .sort(),
      ).toEqual([{ original_photo_id: 3 }, { original_photo_id: 1 }]),
    );
    expect(api.callsTo('/photo/curation-update')[0]?.headers.get('Authorization')).toBe(
      'Bearer access-1',
    );
    expect(await screen.findByText('2 photos marked curated')).toBeTruthy();
  });

  it('makes the selected photos’ derivatives again after asking, and says a refusal', async () => {
    let refuseFirst = true;
    const api = installAlbumApi(photos(3), {
      '/photo/curation-update/reprocess': (raw) => {
        if (refuseFirst) {
          refuseFirst = false;
          return { nok: 'not_found', field: 'photo_id' };
        }
        return {
          ok: makePhoto((raw as { photo_id: number }).photo_id, { status: 'processing' }),
        };
      },
    });
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(3));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-003.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-001.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Make derivatives again…' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Make the derivatives of 2 photos again' }),
    );
    // Nothing is sent before the owner confirms.
    expect(api.callsTo('/photo/curation-update/reprocess')).toHaveLength(0);
    await user.click(dialog.getByRole('button', { name: 'Make them again' }));
    expect(await dialog.findByRole('alert')).toBeTruthy();
    expect(dialog.getByTestId('reprocess-progress').textContent).toMatch(
      /^[01] of 2 sent back to processing$/,
    );

    await user.click(dialog.getByRole('button', { name: 'Make them again' }));
    expect(await screen.findByText('2 photos are being made again')).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /Make the derivatives/ })).toBeNull(),
    );
    expect(
      api
        .callsTo('/photo/curation-update/reprocess')
        .slice(-2)
        .map((c) => (c.body as { photo_id: number }).photo_id)
        .sort(),
    ).toEqual([1, 3]);
  });

  it('deletes only with a reason, sends it, and removes the photos from the grid and the counts', async () => {
    const api = installAlbumApi(photos(4));
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(4));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-003.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-002.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 photos' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Please give a reason for deleting')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason/), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(api.callsTo(`${OWNER}/photo/list/delete`)).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/Reason/));
    await user.type(within(dialog).getByLabelText(/Reason/), 'Blurred');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/photo/list/delete`).map((c) => c.body)).toEqual([
        { photo_id_array: [3, 2], delete_reason: 'Blurred' },
      ]),
    );
    await waitFor(() => expect(tileNames()).toEqual(['photo-004.jpg', 'photo-001.jpg']));
    await waitFor(() =>
      expect(screen.getByTestId('album-count-total').textContent).toBe('2 photos'),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).toBeNull();
  });

  it('shows the server error when a delete is refused, and keeps the photos', async () => {
    installAlbumApi(photos(2), {
      [`${OWNER}/photo/list/delete`]: { nok: 'not_found', status: 404 },
    });
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(2));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-001.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 photo' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(tiles()).toHaveLength(2);
  });
});

describe('console album: paging', { timeout: 40_000 }, () => {
  it('renders only the rows in view and asks for the next page when scrolled near the end', async () => {
    const api = installAlbumApi(photos(130));
    renderAlbum();
    await waitFor(() => expect(tiles().length).toBeGreaterThan(0));
    expect(api.callsTo(LIST)).toHaveLength(1);
    // 120 photos loaded, far fewer in the page: the grid is virtualised.
    expect(tiles().length).toBeLessThan(60);
    expect(screen.getByRole('button', { name: 'Select all loaded (120)' })).toBeTruthy();

    const scroller = screen.getByTestId('album-grid-scroll');
    scroller.scrollTop = 100_000;
    scroller.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(api.callsTo(LIST)).toHaveLength(2));
    // Keyset paging: page 2 starts after the last photo shown (120 newest of 130:
    // ids 130..11), not at an offset that photos arriving meanwhile would shift.
    expect(api.callsTo(LIST)[1]?.body).toMatchObject({ page_number: 2, before_id: 11 });
    expect(api.callsTo(LIST)[1]?.body).not.toHaveProperty('show_total_count');
    expect(await screen.findByRole('button', { name: 'Select all loaded (130)' })).toBeTruthy();
    await waitFor(() => expect(tileNames()).toContain('photo-001.jpg'));
  });
});

describe('console album: full-screen preview (albums spec §2.5)', { timeout: 40_000 }, () => {
  it('opens on a photo, moves with the arrow keys and buttons, shows the details, and closes with Escape', async () => {
    const api = installAlbumApi([...photos(3), makePhoto(4, { is_visible: 0 })], {
      [`${OWNER}/attendee/retrieve-by-photo-list`]: (raw) => ({
        ok: (raw as { photo_uids: string[] }).photo_uids.map((uid) => ({
          photo_uid: uid,
          attendee_uids: uid === makePhoto(3).uid ? ['ATT-7'] : [],
        })),
      }),
    });
    renderAlbum();
    await waitFor(() => expect(tiles()).toHaveLength(4));
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Preview photo-003.jpg' }));
    let dialog = await screen.findByRole('dialog', { name: 'photo-003.jpg' });
    expect(within(dialog).getByRole('img', { name: 'photo-003.jpg' }).getAttribute('src')).toBe(
      '/storage/photos/3/preview.jpg',
    );
    expect(within(dialog).getByText('2 of 4')).toBeTruthy();
    expect(within(dialog).getByText('1.2 MB')).toBeTruthy();
    expect(within(dialog).getByText('Ready')).toBeTruthy();
    expect(within(dialog).getByText('Visible')).toBeTruthy();
    expect(
      within(dialog).getByRole('link', { name: 'Download original' }).getAttribute('href'),
    ).toBe('/storage/photos/3/original.jpg');
    // The attendee albums holding it, each opening the album filtered to that attendee.
    expect((await within(dialog).findByRole('link', { name: 'ATT-7' })).getAttribute('href')).toBe(
      '/events/ABCD/album#ai=ATT-7',
    );
    expect(api.callsTo(`${OWNER}/attendee/retrieve-by-photo-list`)[0]?.body).toEqual({
      photo_uids: [makePhoto(3).uid],
    });

    await user.keyboard('{ArrowRight}');
    dialog = await screen.findByRole('dialog', { name: 'photo-002.jpg' });
    expect(await within(dialog).findByText('In no attendee album')).toBeTruthy();
    await user.keyboard('{ArrowLeft}');
    await user.keyboard('{ArrowLeft}');
    dialog = await screen.findByRole('dialog', { name: 'photo-004.jpg' });
    expect(within(dialog).getByText('Hidden')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /Previous photo/ })).toHaveProperty(
      'disabled',
      true,
    );
    // At the first photo, left stays there.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'photo-004.jpg' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: /Next photo/ }));
    expect(await screen.findByRole('dialog', { name: 'photo-003.jpg' })).toBeTruthy();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('console album: Download (the owners’ zip)', { timeout: 40_000 }, () => {
  it('asks for the originals the hash’s filters show, shows the progress, then done', async () => {
    const CREATE = `${OWNER}/album/download/create`;
    const ZIP = '/album/download?ticket=v1.t';
    // Spied, not assigned: the set-up's restoreAllMocks puts the window's own functions back.
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:zip');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    // The save is the browser's: record the link it is handed instead of following it (happy-dom
    // would navigate the window to it, and the next test would start signed out).
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.href);
    });
    try {
      const api = installAlbumApi(photos(3), {
        [CREATE]: { ok: { url: `/api/v1${ZIP}`, photo_count: 2, expires_in: 300, mailed: 0 } },
        [ZIP]: { raw: 'PK-zip-bytes', status: 200, headers: { 'content-length': '12' } },
      });
      renderAlbum('/events/ABCD/album#v=0&fn=party');
      // The page loads lazily: the first test of a run waits for its chunk.
      await userEvent.click(
        await screen.findByRole('button', { name: 'Download' }, { timeout: 30_000 }),
      );
      expect(await screen.findByText('Downloaded 2 photos (originals) as one zip.')).toBeTruthy();
      expect(saved).toEqual(['blob:zip']);
      const body = api.callsTo(CREATE)[0]?.body as Record<string, unknown>;
      expect(body).toMatchObject({ event_id: 7, is_visible: 0, file_name: 'party' });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('says a large album’s zip is mailed, and shows a refusal', async () => {
    const CREATE = `${OWNER}/album/download/create`;
    installAlbumApi(photos(1), {
      [CREATE]: [
        {
          ok: { url: null, photo_count: 900, expires_in: 302400, mailed: 1, status_token: 't' },
        },
        { nok: 'not_found', status: 404 },
      ],
    });
    renderAlbum();
    const button = await screen.findByRole('button', { name: 'Download' }, { timeout: 30_000 });
    await userEvent.click(button);
    expect(
      await screen.findByText(
        'The zip of 900 photos is being built; its link will be e-mailed to you.',
      ),
    ).toBeTruthy();
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain('Not found');
  });
});
