import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { createQueryClient } from '../../../../lib/query-client.ts';
import { resetSessionStoreForTests, setAccessToken } from '../../../../lib/session-store.ts';
import { OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { PrintPhotosModal } from './print-photos-modal.tsx';
import { printQueued } from '../../../../test/print-fixtures.ts';

const UNLOCK_AND_PRINT = `${OWNER}/attendee/unlock-and-print`;
const PRINT = `${OWNER}/photo/print-with-queue`;

const renderModal = (props: { isFree: 0 | 1; attendeeUid?: string }) => {
  resetSessionStoreForTests();
  setAccessToken('access-1');
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <PrintPhotosModal
          event={storedEvent({ is_free: props.isFree, max_print_copies_count: 3 })}
          photoUids={['p1', 'p2']}
          attendeeUid={props.attendeeUid}
          onClose={() => undefined}
        />
      </MemoryRouter>
    </AppProviders>,
  );
};

describe('print photos: the owner’s unlock-and-print', () => {
  it('at a paid event filtered to an attendee, unlocks the album and prints in one call', async () => {
    const api = installFakeApi({
      [UNLOCK_AND_PRINT]: {
        ok: {
          attendee_uid: 'ATT-1',
          event_id: 7,
          unlocked: 1,
          print_request_id: 12,
          photo_count: 2,
        },
      },
    });
    renderModal({ isFree: 0, attendeeUid: 'ATT-1' });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('checkbox', { name: /Unlock the album of ATT-1 and print/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(
      await screen.findByText('The album of ATT-1 is unlocked; 2 photos sent to print.'),
    ).toBeTruthy();
    const body = api.callsTo(UNLOCK_AND_PRINT)[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      event_id: 7,
      attendee_uid: 'ATT-1',
      photo_uid_array: ['p1', 'p2'],
      printing_count: 1,
    });
    expect(typeof body.client_request_id).toBe('string');
    expect(api.callsTo(PRINT)).toHaveLength(0);
  });

  it('is not offered at a free event, nor without an attendee: the print goes to the queue', async () => {
    const api = installFakeApi({ [PRINT]: printQueued('Default', [4]) });
    const view = renderModal({ isFree: 1, attendeeUid: 'ATT-1' });
    await screen.findByRole('button', { name: 'Print' });
    expect(screen.queryByRole('checkbox', { name: /Unlock the album/ })).toBeNull();
    view.unmount();
    renderModal({ isFree: 0 });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Print' }));
    await waitFor(() => expect(api.callsTo(PRINT)).toHaveLength(1));
    expect(screen.queryByRole('checkbox', { name: /Unlock the album/ })).toBeNull();
    expect(api.callsTo(UNLOCK_AND_PRINT)).toHaveLength(0);
  });

  it('prints two or more photos as one story sheet when asked', async () => {
    const STORY = `${OWNER}/photo/print-story`;
    const api = installFakeApi({ [STORY]: printQueued('Default', [4]) });
    renderModal({ isFree: 1 });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: /Print as one story sheet/ }));
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(await screen.findByText(/1 sheet queued on Default/)).toBeTruthy();
    expect(api.callsTo(STORY)[0]?.body).toMatchObject({
      event_id: 7,
      printable_photo_uid_array: ['p1', 'p2'],
      printing_count: 1,
    });
    // The server picks the event's stories pool.
    expect(api.callsTo(STORY)[0]?.body).not.toHaveProperty('printer_pool_name');
    expect(api.callsTo(PRINT)).toHaveLength(0);
  });
});
