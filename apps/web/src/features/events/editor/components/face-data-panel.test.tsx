import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { createQueryClient } from '../../../../lib/query-client.ts';
import { resetSessionStoreForTests, setAccessToken } from '../../../../lib/session-store.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { FaceDataPanel } from './face-data-panel.tsx';

const INFO = '/flashbulb-owner/event/face-data/retrieve';
const DELETE = '/flashbulb-owner/event/face-data/delete';
const counts = (over: Record<string, number> = {}) => ({
  ok: {
    enable_facial_recognition: 1,
    photos: 12,
    indexed_photos: 10,
    faces: 31,
    ignored_faces: 2,
    selfies: 4,
    deleted_faces: 0,
    deleted_selfies: 3,
    ...over,
  },
});

const renderPanel = () => {
  resetSessionStoreForTests();
  // A signed-in owner: owner calls carry the access token.
  setAccessToken('access-1');
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <FaceDataPanel eventId={42} />
    </AppProviders>,
  );
};

const row = (label: string) =>
  within(screen.getByText(label).closest('tr')!).getAllByRole('cell')[1]!.textContent;

describe('face data panel', () => {
  it('shows progress, faces, selfies and deletions, and deletes all after asking once more', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      [INFO]: [
        counts(),
        counts({
          enable_facial_recognition: 0,
          indexed_photos: 0,
          faces: 0,
          selfies: 0,
          deleted_faces: 31,
          deleted_selfies: 7,
        }),
      ],
      [DELETE]: { ok: { deleted_faces: 31, deleted_selfies: 4 } },
    });
    renderPanel();
    await screen.findByText('Photos indexed');
    expect(row('Photos indexed')).toBe('10 / 12');
    expect(row('Faces found')).toBe('31');
    expect(row('Selfies kept')).toBe('4');
    expect(row('Selfies deleted')).toBe('3');
    expect(api.callsTo(INFO)[0]?.body).toEqual({ event_id: 42 });

    await user.click(screen.getByRole('button', { name: 'Delete all face data of this event' }));
    // Nothing is deleted before the second click; Keep goes back.
    expect(api.callsTo(DELETE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete face data' }));
    expect(await screen.findByText(/31 faces and 4 selfies deleted/)).toBeTruthy();
    expect(api.callsTo(DELETE)[0]?.body).toEqual({ event_id: 42 });
    await screen.findByText('0 / 12');
    expect(row('Selfies deleted')).toBe('7');
  });
});
