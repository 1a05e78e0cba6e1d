import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PrintJob } from '@flashbulb/shared';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

/**
 * The console print desk: the queue per pool, printer health from the agents,
 * pause/resume, cancel, reprint with a logged reason, sheets per printer, station keys.
 */

const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala' });
const JOBS = `${OWNER}/print-job/list`;
const STATIONS = `${OWNER}/print-station/list`;
const CANCEL = `${OWNER}/print-job/cancel`;
const REPRINT = `${OWNER}/print-job/reprint`;
const PAUSE = `${OWNER}/print-pool/pause`;
const CREATE = `${OWNER}/print-station/create`;

const job = (id: number, overrides: Partial<PrintJob> = {}): PrintJob => ({
  id,
  printer_pool_name: 'Booth-A',
  state: 'queued',
  photo_uids: [`uid${id}`],
  photo_thumbnails: [`https://cdn.example/t${id}.jpg`],
  copies: 1,
  source: 'owner',
  printer: null,
  error: null,
  reprint_reason: null,
  created_date: '2026-11-23T10:00:00.000Z',
  updated_date: '2026-11-23T10:00:00.000Z',
  ...overrides,
});

const desk = {
  jobs: [
    job(3, { state: 'queued' }),
    job(2, { state: 'printed', printer: 'booth1', copies: 2, printer_pool_name: 'Booth-B' }),
    job(1, { state: 'failed', error: 'booth2: stopped, media-empty' }),
  ],
  counts: { queued: 1, printed: 1, failed: 1 },
  pools: [
    { name: 'Booth-A', paused: 0 as const },
    { name: 'Booth-B', paused: 1 as const },
  ],
  printed_per_printer: [{ printer: 'booth1', sheets: 2 }],
};
const stations = {
  stations: [
    {
      id: 5,
      name: 'Booth computer',
      printer_pool_name: 'Booth-A',
      revoked: 0 as const,
      last_seen_date: '2026-11-23T10:00:00.000Z',
      printers: [
        { name: 'booth1', state: 'idle', reasons: [] },
        { name: 'booth2', state: 'stopped', reasons: ['media-empty'] },
      ],
    },
  ],
};

const open = (routes: Record<string, FakeReply | ((body: unknown) => FakeReply)> = {}) => {
  const api = installConsoleApi({
    events: [EVENT],
    routes: { [JOBS]: { ok: desk }, [STATIONS]: { ok: stations }, ...routes },
  });
  renderApp('/print-desk?event=ABCD');
  return api;
};
const row = async (id: number) => screen.findByTestId(`print-job-${id}`);

describe('console print desk', { timeout: 40_000 }, () => {
  it('shows the queue per pool, printer health and sheets per printer', async () => {
    open();
    const a = await screen.findByTestId('pool-Booth-A');
    expect(within(a).getByText('Printing')).toBeTruthy();
    expect(within(a).getByText('1 waiting, 0 printing')).toBeTruthy();
    expect(within(a).getByText('Printed by a print agent (CUPS)')).toBeTruthy();
    const b = screen.getByTestId('pool-Booth-B');
    expect(within(b).getByText('Paused')).toBeTruthy();
    expect(within(b).getByText('Printed to files (embedded printer)')).toBeTruthy();
    // printer health: paper out on booth2, said in words
    const printers = screen.getByRole('table', { name: 'Printers' });
    const booth2 = within(printers).getByText('booth2').closest('tr')!;
    expect(within(booth2 as HTMLElement).getByText('stopped')).toBeTruthy();
    expect(within(booth2 as HTMLElement).getByText('Paper out')).toBeTruthy();
    expect(screen.getByTestId('printed-per-printer').textContent).toContain('booth1: 2');
    // each job with its state, thumbnails and note; only open jobs can be cancelled
    const queued = await row(3);
    expect(within(queued).getByTestId('job-state').textContent).toBe('queued');
    expect(within(queued).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(queued).queryByRole('button', { name: 'Reprint' })).toBeNull();
    const printed = await row(2);
    expect(within(printed).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(printed).getByRole('button', { name: 'Reprint' })).toBeTruthy();
    expect(within(await row(1)).getByText('booth2: stopped, media-empty')).toBeTruthy();
    expect([...printed.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      'https://cdn.example/t2.jpg',
    ]);
  });

  it('cancels a queued sheet and pauses / resumes a pool with the event and pool named', async () => {
    const api = open({
      [CANCEL]: { ok: job(3, { state: 'cancelled' }) },
      [PAUSE]: (body: unknown) => ({ ok: body as { printer_pool_name: string; paused: 0 | 1 } }),
    });
    await userEvent.click(within(await row(3)).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(api.callsTo(CANCEL)).toHaveLength(1));
    expect(api.callsTo(CANCEL)[0]?.body).toEqual({ event_id: 7, print_job_id: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Pause Booth-A' }));
    await userEvent.click(screen.getByRole('button', { name: 'Resume Booth-B' }));
    await waitFor(() => expect(api.callsTo(PAUSE)).toHaveLength(2));
    expect(api.callsTo(PAUSE).map((c) => c.body)).toEqual([
      { event_id: 7, printer_pool_name: 'Booth-A', paused: 1 },
      { event_id: 7, printer_pool_name: 'Booth-B', paused: 0 },
    ]);
  });

  it('a reprint needs a reason; the server’s refusal is shown', async () => {
    const api = open({ [REPRINT]: { nok: 'printing_not_active' } });
    await userEvent.click(within(await row(2)).getByRole('button', { name: 'Reprint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprint sheet #2' });
    const send = within(dialog).getByRole('button', { name: 'Reprint' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Reason (logged)'), '  smudged  ');
    await userEvent.click(send);
    await waitFor(() => expect(api.callsTo(REPRINT)).toHaveLength(1));
    expect(api.callsTo(REPRINT)[0]?.body).toEqual({
      event_id: 7,
      print_job_id: 2,
      reason: 'smudged',
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Printing is not turned on for this event',
    );
  });

  it('creates a station key for a pool and shows it once', async () => {
    const api = open({
      [CREATE]: { ok: { id: 6, name: 'Bar', printer_pool_name: 'Booth-B', key: 'psk_secret' } },
    });
    await screen.findByTestId('pool-Booth-A');
    const create = screen.getByRole('button', { name: 'Create key' });
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('textbox', { name: 'Pool' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Booth-B', hidden: true }));
    await userEvent.type(screen.getByLabelText('Station name'), 'Bar');
    await userEvent.click(create);
    expect((await screen.findByTestId('station-key')).textContent).toBe('psk_secret');
    expect(api.callsTo(CREATE)[0]?.body).toEqual({
      event_id: 7,
      printer_pool_name: 'Booth-B',
      name: 'Bar',
    });
  });
});
