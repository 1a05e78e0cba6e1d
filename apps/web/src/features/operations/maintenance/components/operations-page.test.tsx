import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IntegrityReport } from '@flashbulb/shared';
import { installConsoleApi, OWNER, superUser } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const report = (over: Partial<IntegrityReport> = {}): IntegrityReport => ({
  checked_date: '2026-11-27T03:37:00.000Z',
  duration_ms: 1200,
  objects_in_storage: 12,
  objects_named: 11,
  checksums_verified: 3,
  missing: 1,
  untracked: 1,
  checksum_mismatch: 1,
  problems: [
    {
      problem: 'missing',
      key: 'events/ABCD/photos/uid_1_uid/thumbnail.jpg',
      owner: 'photos.derivative:thumbnail',
      owner_id: 7,
      event_id: 1,
      size: null,
      actions: ['re-derive'],
    },
    {
      problem: 'untracked',
      key: 'archive/stray.jpg',
      owner: null,
      owner_id: null,
      event_id: null,
      size: 14,
      actions: ['delete'],
    },
    {
      problem: 'checksum_mismatch',
      key: 'protected/events/ABCD/photos/uid_2_uid/original.jpg',
      owner: 'photos.original',
      owner_id: 8,
      event_id: 1,
      size: 900,
      actions: [],
    },
  ],
  ...over,
});

describe('console Operations page', { timeout: 40_000 }, () => {
  it('backs up now, runs the integrity check and acts on a problem', async () => {
    let repaired = false;
    let backupsMade = 0;
    const api = installConsoleApi({
      user: superUser,
      routes: {
        [`${OWNER}/operations/backup/list`]: (): FakeReply => ({
          ok: {
            folder: '/var/lib/flashbulb/backups',
            backups: backupsMade
              ? [
                  {
                    path: '/var/lib/flashbulb/backups/flashbulb-backup-20261127T081500000Z',
                    created_date: '2026-11-27T08:15:00.000Z',
                    duration_ms: 2500,
                    bytes: 3 * 1024 * 1024,
                    objects: 12,
                    rows: 345,
                    engine: 'pglite',
                  },
                ]
              : [],
          },
        }),
        [`${OWNER}/operations/backup/create`]: (): FakeReply => {
          backupsMade += 1;
          return {
            ok: {
              path: '/var/lib/flashbulb/backups/flashbulb-backup-20261127T081500000Z',
              created_date: '2026-11-27T08:15:00.000Z',
              duration_ms: 2500,
              bytes: 3 * 1024 * 1024,
              objects: 12,
              rows: 345,
              removed: [],
            },
          };
        },
        [`${OWNER}/operations/integrity/check`]: (): FakeReply => ({
          ok: repaired ? report({ missing: 0, problems: report().problems.slice(1) }) : report(),
        }),
        [`${OWNER}/operations/integrity/repair`]: (): FakeReply => {
          repaired = true;
          return { ok: { done: true } };
        },
      },
    });
    renderApp('/operations');
    expect(
      await screen.findByText('No backup in /var/lib/flashbulb/backups yet.', undefined, {
        timeout: 20_000,
      }),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    expect((await screen.findByTestId('backup-result')).textContent).toContain(
      '345 rows, 12 objects, 3.0 MB',
    );
    expect(api.callsTo(`${OWNER}/operations/backup/create`)[0]?.body).toEqual({ keep: 7 });
    // The list is read again: the new backup, its size and duration.
    const backups = await screen.findByRole('table', { name: 'Backups' });
    expect(within(backups).getByText('3.0 MB')).toBeTruthy();
    expect(within(backups).getByText('2.5 s')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Run the check' }));
    const table = await screen.findByRole('table', { name: 'Integrity problems' });
    expect(screen.getByTestId('integrity-summary').textContent).toContain(
      'missing: 1, untracked: 1, checksum mismatches: 1',
    );
    expect(within(table).getByText('Restore it from a backup')).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Delete' })).toBeTruthy();
    await userEvent.click(within(table).getByRole('button', { name: 'Re-derive' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/operations/integrity/repair`)[0]?.body).toEqual({
        key: 'events/ABCD/photos/uid_1_uid/thumbnail.jpg',
        action: 're-derive',
      }),
    );
    // The check runs again after the action: the missing thumbnail is gone from the list.
    await waitFor(() => expect(api.callsTo(`${OWNER}/operations/integrity/check`)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Re-derive' })).toBeNull());
  });
});
