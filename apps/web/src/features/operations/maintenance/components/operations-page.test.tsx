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

const scheduleOff = {
  schedule: { kind: 'off' },
  keep: 7,
  last_run: null,
  next_run_date: null,
};

const BACKUP = '/var/lib/flashbulb/backups/flashbulb-backup-20261127T081500000Z';
/** The backup made at 08:15 on 27 November 2026, as the list and "Back up now" describe it. */
const backupMade = {
  path: BACKUP,
  created_date: '2026-11-27T08:15:00.000Z',
  duration_ms: 2500,
  bytes: 3 * 1024 * 1024,
  objects: 12,
  rows: 345,
};

/** `backup/list`: the server's backups folder holding `backups` (made by PGlite). */
const backupList = (backups: (typeof backupMade)[]) => ({
  ok: {
    folder: '/var/lib/flashbulb/backups',
    backups: backups.map((backup) => ({ ...backup, engine: 'pglite' })),
  },
});

describe('console Operations page', { timeout: 40_000 }, () => {
  it('backs up now, runs the integrity check and acts on a problem', async () => {
    let repaired = false;
    let backupsMade = 0;
    const api = installConsoleApi({
      user: superUser,
      routes: {
        [`${OWNER}/operations/backup/list`]: (): FakeReply =>
          backupList(backupsMade ? [backupMade] : []),
        [`${OWNER}/operations/backup/create`]: (): FakeReply => {
          backupsMade += 1;
          return {
            ok: { ...backupMade, removed: [] },
          };
        },
        [`${OWNER}/operations/backup/schedule`]: (): FakeReply => ({ ok: scheduleOff }),
        [`${OWNER}/operations/integrity/reports`]: (): FakeReply => ({
          ok: { reports: [], latest: null },
        }),
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

  it('shows the last and next backup, saves a schedule, restores a backup and shows the kept report', async () => {
    const api = installConsoleApi({
      user: superUser,
      routes: {
        [`${OWNER}/operations/backup/list`]: (): FakeReply => backupList([backupMade]),
        [`${OWNER}/operations/backup/schedule`]: (): FakeReply => ({
          ok: {
            schedule: { kind: 'daily', at: '03:30' },
            keep: 5,
            last_run: {
              trigger: 'schedule',
              started_date: '2026-11-27T03:30:00.000Z',
              duration_ms: 4200,
              bytes: 2 * 1024 * 1024,
              path: BACKUP,
              result: 'ok',
              error: null,
            },
            next_run_date: '2026-11-28T03:30:00.000Z',
          },
        }),
        [`${OWNER}/operations/backup/schedule/set`]: (body): FakeReply => ({
          ok: {
            ...(body as object),
            last_run: null,
            next_run_date: '2026-11-27T18:00:00.000Z',
          },
        }),
        [`${OWNER}/operations/backup/restore`]: (): FakeReply => ({
          ok: { objects: 2, rows: 345, duration_ms: 1500 },
        }),
        [`${OWNER}/operations/integrity/reports`]: (): FakeReply => ({
          ok: {
            reports: [
              {
                id: 4,
                trigger: 'schedule',
                checked_date: '2026-11-27T03:37:00.000Z',
                missing: 1,
                untracked: 1,
                checksum_mismatch: 1,
              },
            ],
            latest: report(),
          },
        }),
      },
    });
    renderApp('/operations');
    const last = await screen.findByTestId('last-backup', undefined, { timeout: 20_000 });
    expect(last.textContent).toContain('(scheduled), 2.0 MB, took 4.2 s — succeeded');
    expect(screen.getByTestId('next-backup').textContent).toContain('Next run:');
    expect(screen.getByRole('textbox', { name: 'At (HH:MM, UTC)' })).toHaveProperty(
      'value',
      '03:30',
    );

    // Every 6 hours, keep 3.
    await userEvent.click(screen.getByText('Every N hours'));
    const every = screen.getByRole('textbox', { name: 'Every (hours)' });
    await userEvent.clear(every);
    await userEvent.type(every, '6');
    const keep = within(screen.getByRole('region', { name: 'Scheduled backups' })).getByRole(
      'textbox',
      { name: 'Keep the newest' },
    );
    await userEvent.clear(keep);
    await userEvent.type(keep, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/operations/backup/schedule/set`)[0]?.body).toEqual({
        schedule: { kind: 'hours', every: 6 },
        keep: 3,
      }),
    );
    expect(await screen.findByText('Schedule saved.')).toBeTruthy();

    // The kept nightly report shows without running the check.
    const kept = await screen.findByRole('table', { name: 'Kept integrity reports' });
    expect(within(kept).getByText('nightly')).toBeTruthy();
    expect(screen.getByTestId('integrity-summary').textContent).toContain(
      'missing: 1, untracked: 1, checksum mismatches: 1',
    );
    expect(api.callsTo(`${OWNER}/operations/integrity/check`)).toHaveLength(0);

    // Restore asks first, then names the backup to the server.
    const backups = await screen.findByRole('table', { name: 'Backups' });
    await userEvent.click(within(backups).getByRole('button', { name: 'Restore…' }));
    expect(api.callsTo(`${OWNER}/operations/backup/restore`)).toHaveLength(0);
    await userEvent.click(within(backups).getByRole('button', { name: 'Replace all data' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/operations/backup/restore`)[0]?.body).toEqual({
        path: BACKUP,
      }),
    );
    expect((await screen.findByTestId('restore-result')).textContent).toContain(
      '345 rows, 2 objects written back',
    );
  });
});
