import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installAlbumApi, makePhoto, renderAlbum } from '../../../../test/console-album-kit.tsx';
import { OWNER } from '../../../../test/event-fixtures.ts';

const ATTACH = `${OWNER}/attendee/attach-photos`;

const selectAndOpen = async () => {
  await screen.findByRole('checkbox', { name: 'Select photo-003.jpg' });
  const user = userEvent.setup();
  await user.click(screen.getByRole('checkbox', { name: 'Select photo-003.jpg' }));
  await user.click(screen.getByRole('checkbox', { name: 'Select photo-001.jpg' }));
  const toolbar = screen.getByRole('toolbar', { name: 'Selection' });
  await user.click(within(toolbar).getByRole('button', { name: 'Add to attendee…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add 2 photos to an attendee album' });
  return { user, dialog };
};

describe('console album: add selected photos to an attendee album', { timeout: 40_000 }, () => {
  it('sends the selected photo uids with the normalised attendee id and reports success', async () => {
    const api = installAlbumApi([makePhoto(1), makePhoto(2), makePhoto(3)], {
      [ATTACH]: { ok: { attendee_uid: 'ABCDEFGHJKMNPQRS', attached_count: 2 } },
    });
    renderAlbum();
    const { user, dialog } = await selectAndOpen();
    await user.type(
      within(dialog).getByRole('textbox', { name: /Attendee id/ }),
      'abcd-efgh-jkmn-pqrs',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add photos' }));

    await waitFor(() =>
      expect(api.callsTo(ATTACH).map((c) => c.body)).toEqual([
        { event_id: 7, attendee_uid: 'ABCDEFGHJKMNPQRS', photo_uid_array: ['uid-3', 'uid-1'] },
      ]),
    );
    // The notice names the id as printed, whatever case was typed.
    expect(
      await screen.findByText('2 photos added to the album of ABCD-EFGH-JKMN-PQRS'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses an empty id without a call and shows the server’s refusal on the field', async () => {
    const api = installAlbumApi([makePhoto(1), makePhoto(2), makePhoto(3)], {
      [ATTACH]: { nok: 'invalid_attendee_id', status: 404 },
    });
    renderAlbum();
    const { user, dialog } = await selectAndOpen();
    await user.click(within(dialog).getByRole('button', { name: 'Add photos' }));
    expect(await within(dialog).findByText('This attendee id is not valid')).toBeTruthy();
    expect(api.callsTo(ATTACH)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Attendee id/ }), 'NOPE42');
    await user.click(within(dialog).getByRole('button', { name: 'Add photos' }));
    await waitFor(() => expect(api.callsTo(ATTACH)).toHaveLength(1));
    expect(await within(dialog).findByText('This attendee id is not valid')).toBeTruthy();
    expect(
      await screen.findByText('The photos could not be added to the attendee album.'),
    ).toBeTruthy();
  });

  it('removes the selected photos from the filtered attendee’s album with one event', async () => {
    const UNLINK = `${OWNER}/attendee/unlink-photos`;
    const api = installAlbumApi([makePhoto(1), makePhoto(2), makePhoto(3)], {
      [UNLINK]: { ok: { attendee_uid: 'ATT7', unlinked_count: 2 } },
    });
    renderAlbum('/events/ABCD/album#ai=ATT7');
    await screen.findByRole('checkbox', { name: 'Select photo-003.jpg' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-003.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-002.jpg' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Selection' });
    await user.click(within(toolbar).getByRole('button', { name: 'Remove from attendee…' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Remove 2 photos from an attendee album',
    });
    expect(within(dialog).getByRole('textbox', { name: /Attendee id/ })).toHaveProperty(
      'value',
      'ATT7',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove photos' }));
    await waitFor(() =>
      expect(api.callsTo(UNLINK).map((c) => c.body)).toEqual([
        { event_id_array: [7], attendee_uid: 'ATT7', photo_uid_array: ['uid-3', 'uid-2'] },
      ]),
    );
    expect(await screen.findByText('2 photos removed from the album of ATT7')).toBeTruthy();
    expect(api.callsTo(`${OWNER}/attendee/attach-photos`)).toHaveLength(0);
  });
});
