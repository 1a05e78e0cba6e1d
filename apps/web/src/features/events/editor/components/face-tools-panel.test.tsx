import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { createQueryClient } from '../../../../lib/query-client.ts';
import { resetSessionStoreForTests, setAccessToken } from '../../../../lib/session-store.ts';
import { makePhoto } from '../../../../test/console-album-kit.tsx';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { FaceToolsPanel } from './face-tools-panel.tsx';

const OWNER = '/flashbulb-owner';
const staff = makePhoto(1);
const guest = makePhoto(2);
const other = makePhoto(3);
const match = (photo: ReturnType<typeof makePhoto>, similarity: number) => ({
  ...photo,
  similarity,
  face_box: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 },
});
const ignoredFace = {
  id: 9,
  event_id: 7,
  full_path: staff.full_path,
  created_date: '2026-11-27T09:00:00.000Z',
};

const renderPanel = () => {
  resetSessionStoreForTests();
  setAccessToken('access-1');
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <FaceToolsPanel eventId={7} />
    </AppProviders>,
  );
};

describe('face tools panel', () => {
  it('searches by a photo, ignores its face (listed with its thumbnail), and matches return when removed', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      [`${OWNER}/photo/list/retrieve`]: {
        ok: { photos: [staff, guest, other], total_count: 3, page_number: 1, max_size: 24 },
      },
      [`${OWNER}/index-ignore-faces/list/retrieve`]: [
        { ok: { faces: [] } },
        { ok: { faces: [ignoredFace] } },
        { ok: { faces: [] } },
      ],
      [`${OWNER}/index-ignore-faces/create`]: { ok: ignoredFace },
      [`${OWNER}/index-ignore-faces/delete`]: { ok: { deleted: 1 } },
      [`${OWNER}/photo/search-by-face`]: [
        { ok: { photos: [match(staff, 99), match(other, 91)], searched_faces: 1 } },
        { ok: { photos: [], searched_faces: 1 } },
        { ok: { photos: [match(staff, 99), match(other, 91)], searched_faces: 1 } },
      ],
    });
    renderPanel();
    expect(await screen.findByText('No face is ignored.')).toBeTruthy();

    await user.click(
      await screen.findByRole('button', { name: `Search by the face in ${staff.file_name}` }),
    );
    const matches = await screen.findByRole('region', { name: 'Matches' });
    expect(await within(matches).findByText(`${other.file_name} · 91 %`)).toBeTruthy();
    expect(within(matches).getAllByTestId('face-match')).toHaveLength(2);
    expect(api.callsTo(`${OWNER}/photo/search-by-face`)[0]?.body).toMatchObject({
      event_id: 7,
      photo_url_list: [staff.full_path],
    });

    // Ignoring the face: it is listed with its photo's thumbnail, and the search finds nothing.
    await user.click(screen.getByRole('button', { name: `Ignore the face in ${staff.file_name}` }));
    const row = await screen.findByTestId('ignored-face');
    expect(within(row).getByRole('img').getAttribute('src')).toBe(staff.urls.thumbnail);
    await waitFor(() => expect(screen.queryAllByTestId('face-match')).toHaveLength(0));
    expect(api.callsTo(`${OWNER}/index-ignore-faces/create`)[0]?.body).toEqual({
      event_id: 7,
      full_path: staff.full_path,
    });

    // Removing it: the matches return.
    await user.click(within(row).getByRole('button', { name: /Stop ignoring/ }));
    expect(await screen.findByText('No face is ignored.')).toBeTruthy();
    await waitFor(() => expect(screen.queryAllByTestId('face-match')).toHaveLength(2));
    expect(api.callsTo(`${OWNER}/index-ignore-faces/delete`)[0]?.body).toEqual({
      event_id: 7,
      ids: [9],
    });
  });
});
