import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ModerationLogEntry, Photo } from '@flashbulb/shared';
import { defaultEventSettings } from '@flashbulb/shared';
import { makePhoto } from '../../../../test/console-album-kit.tsx';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const EVENT = storedEvent({
  id: 7,
  name: 'ABCD',
  full_name: 'Summer Gala',
  opts: { ...defaultEventSettings().opts, moderationEnabled: 1 },
});
const QUEUE = `${OWNER}/photo/moderation/queue`;
const DECIDE = `${OWNER}/photo/moderation/decide`;
const LOG = `${OWNER}/photo/moderation/log`;

/** A fake server keeping a queue of waiting photos and a log of decisions. */
const moderationServer = (photos: Photo[]) => {
  let waiting = [...photos];
  const log: ModerationLogEntry[] = [];
  const api = installConsoleApi({
    events: [EVENT],
    routes: {
      [QUEUE]: (raw): FakeReply => {
        const body = raw as { robot_id?: number };
        const shown = waiting.filter(
          (p) => body.robot_id === undefined || p.robot_id === body.robot_id,
        );
        return {
          ok: {
            photos: shown,
            total_count: shown.length,
            robots: [{ id: 4, name: 'Booth <b>one</b>' }],
            tags: ['vip'],
          },
        };
      },
      [DECIDE]: (raw): FakeReply => {
        const body = raw as {
          photo_id_array: number[];
          decision: 'approve' | 'reject';
          reason?: string;
        };
        for (const id of body.photo_id_array) {
          const photo = waiting.find((p) => p.id === id)!;
          log.unshift({
            id: log.length + 1,
            photo_id: id,
            photo_uid: photo.uid,
            file_name: photo.file_name,
            decision: body.decision,
            reason: body.reason ?? null,
            user_email: 'admin@acme.example',
            created_at: '2026-11-27T12:00:00.000Z',
          });
        }
        waiting = waiting.filter((p) => !body.photo_id_array.includes(p.id));
        const n = body.photo_id_array.length;
        return {
          ok:
            body.decision === 'approve'
              ? { approved: n, rejected: 0 }
              : { approved: 0, rejected: n },
        };
      },
      [LOG]: (): FakeReply => ({ ok: { entries: log, total_count: log.length } }),
    },
  });
  return api;
};

const grid = () => screen.getByRole('listbox', { name: 'Photos waiting for moderation' });
const tiles = () => {
  // An empty queue hides its grid.
  const shown = screen.queryByRole('listbox', { name: 'Photos waiting for moderation' });
  return shown ? within(shown).queryAllByRole('option') : [];
};

describe('console moderation queue', { timeout: 40_000 }, () => {
  it('selects all and approves the selection in one call; booth names are text', async () => {
    const api = moderationServer([
      makePhoto(1, { robot_id: 4 }),
      makePhoto(2),
      makePhoto(3, { robot_id: 4 }),
    ]);
    const user = userEvent.setup();
    renderApp('/events/abcd/moderation');
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(screen.getByRole('heading', { name: 'Moderation of Summer Gala' })).toBeTruthy();
    // The way back is the events list, as on the event's other console pages.
    expect(screen.getByRole('link', { name: 'Back to events' }).getAttribute('href')).toBe(
      '/events',
    );
    // The booth's name is text, never markup.
    expect(screen.getAllByText('Booth <b>one</b>').length).toBeGreaterThan(0);

    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(tiles().every((tile) => tile.getAttribute('aria-selected') === 'true')).toBe(true);
    expect(screen.getByText('3 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo(DECIDE)).toHaveLength(1));
    expect(api.callsTo(DECIDE)[0]?.body).toEqual({
      event_id: 7,
      photo_id_array: [1, 2, 3],
      decision: 'approve',
    });
    await waitFor(() => expect(tiles()).toHaveLength(0));
    expect(screen.getByText('Nothing waits for moderation.')).toBeTruthy();
  });

  it('moves with the arrows, selects with Space, approves with A and rejects with R and a reason', async () => {
    const api = moderationServer([makePhoto(1), makePhoto(2), makePhoto(3), makePhoto(4)]);
    const user = userEvent.setup();
    renderApp('/events/abcd/moderation');
    await waitFor(() => expect(tiles()).toHaveLength(4));
    grid().focus();

    // Nothing selected: A approves the photo in focus (the first).
    await user.keyboard('a');
    await waitFor(() => expect(api.callsTo(DECIDE)).toHaveLength(1));
    expect(api.callsTo(DECIDE)[0]?.body).toMatchObject({
      photo_id_array: [1],
      decision: 'approve',
    });
    await waitFor(() => expect(tiles()).toHaveLength(3));

    // → Space → Space: the second and third photo listed (ids 3 and 4).
    grid().focus();
    await user.keyboard('{ArrowRight}{ }{ArrowRight}{ }');
    const selected = () =>
      tiles()
        .filter((tile) => tile.getAttribute('aria-selected') === 'true')
        .map((tile) => tile.getAttribute('aria-label'));
    expect(selected()).toEqual(['photo-003.jpg, waiting', 'photo-004.jpg, waiting']);
    expect(grid().getAttribute('aria-activedescendant')).toBe('moderation-photo-4');

    // R asks for the reason; without one nothing is sent.
    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 photos' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Please give a reason for rejecting')).toBeTruthy();
    expect(api.callsTo(DECIDE)).toHaveLength(1);
    await user.type(within(dialog).getByLabelText('Reason'), 'Off brand');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.callsTo(DECIDE)).toHaveLength(2));
    expect(api.callsTo(DECIDE)[1]?.body).toEqual({
      event_id: 7,
      photo_id_array: [3, 4],
      decision: 'reject',
      reason: 'Off brand',
    });
    await waitFor(() => expect(tiles()).toHaveLength(1));

    // The log tab: who decided what, and why.
    await user.click(screen.getByRole('tab', { name: 'Log' }));
    const table = await screen.findByRole('table', { name: 'Moderation log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Rejected')).toBeTruthy();
    expect(within(rows[0]!).getByText('Off brand')).toBeTruthy();
    expect(within(rows[2]!).getByText('Approved')).toBeTruthy();
    expect(within(rows[2]!).getByText('admin@acme.example')).toBeTruthy();
  });
});
