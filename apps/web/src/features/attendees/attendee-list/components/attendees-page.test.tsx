import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import { kioskCardCode, kioskCardLink, type Attendee } from '@flashbulb/shared';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { recordSavedBlobs, savedText } from '../../../../test/saved-files.ts';

const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala' });
const LIST = `${OWNER}/attendee/list/retrieve`;
const GENERATE = `${OWNER}/attendee/list/generate`;
const LOCK = `${OWNER}/attendee/lock-by-owner`;
const EXPORT = `${OWNER}/attendee/export`;
const ERASE = `${OWNER}/attendee/erase`;
const COUNTS = {
  photos: 4,
  leads: 1,
  consents: 2,
  messages: 3,
  orders: 1,
  selfies: 1,
  profile_photos: 0,
};

const makeAttendee = (n: number, overrides: Partial<Attendee> = {}): Attendee => {
  const uid = `ATT${String(n).padStart(5, '0')}`;
  return {
    id: n,
    uid,
    display_uid: uid,
    private_id: `P${n}`,
    organisation_id: 3,
    event_ids: [7],
    email: null,
    is_prepaid: 0,
    unlocked: 0,
    partial_unlock_tag: null,
    is_locked: 0,
    expires_date: null,
    created_date: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
    photo_count: n % 5,
    album_url: `https://photos.example/?attId=${uid}`,
    ...overrides,
  };
};

interface ListBody {
  event_id: number;
  max_size: number;
  page_number: number;
  attendee_uid?: string;
}

/** A fake attendee store: the list pages newest first and filters by id prefix like the server. */
const installAttendeeApi = (attendees: Attendee[], routes: Record<string, unknown> = {}) => {
  const store = [...attendees].sort((a, b) => b.id - a.id);
  const api = installConsoleApi({
    events: [EVENT],
    routes: {
      [LIST]: (raw): FakeReply => {
        const body = raw as ListBody;
        const all = store.filter((a) => !body.attendee_uid || a.uid.startsWith(body.attendee_uid));
        const start = (body.page_number - 1) * body.max_size;
        return {
          ok: {
            attendees: all.slice(start, start + body.max_size),
            total_count: all.length,
            page_number: body.page_number,
            max_size: body.max_size,
          },
        };
      },
      [LOCK]: (raw): FakeReply => {
        const body = raw as { attendee_uid: string; is_locked: 0 | 1 };
        const index = store.findIndex((a) => a.uid === body.attendee_uid);
        const found = store[index];
        if (!found) return { nok: 'invalid_attendee_id', status: 404 };
        store[index] = { ...found, is_locked: body.is_locked };
        return { ok: store[index] };
      },
      ...(routes as Record<string, FakeReply | FakeReply[] | ((body: unknown) => FakeReply)>),
    },
  });
  return { ...api, store };
};

const rows = () =>
  within(screen.getByRole('table', { name: 'Attendees' }))
    .getAllByRole('row')
    .slice(1);
const firstCellOf = (row: HTMLElement | undefined) =>
  row && within(row).getAllByRole('cell')[0]?.textContent;
const firstCells = () => rows().map(firstCellOf);
/** The first row's first cell: its cells alone, not those of the other 49 rows of a page. */
const topCell = () => firstCellOf(rows()[0]);

describe('console Attendees page: list', { timeout: 40_000 }, () => {
  it('lists the event’s attendees newest first with the total, and pages through them', async () => {
    const api = installAttendeeApi(Array.from({ length: 120 }, (_, i) => makeAttendee(i + 1)));
    renderApp('/events/abcd/attendees');

    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(api.callsTo(LIST)[0]?.body).toEqual({ event_id: 7, max_size: 50, page_number: 1 });
    expect(screen.getByTestId('attendee-total').textContent).toBe('120 attendees');
    expect(topCell()).toBe('ATT00120');
    expect(screen.getByRole('heading', { name: 'Attendees of Summer Gala' })).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(topCell()).toBe('ATT00070'));
    expect(api.callsTo(LIST).at(-1)?.body).toEqual({ event_id: 7, max_size: 50, page_number: 2 });
    await user.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({ page_number: 3 });
  });

  it('shows each attendee’s fields and row actions', async () => {
    installAttendeeApi([
      makeAttendee(1, {
        display_uid: 'ABCD-EFGH-JKMN-PQRS',
        private_id: 'K7M2P9QX',
        email: 'guest@example.com',
        is_prepaid: 1,
        is_locked: 1,
        photo_count: 12,
      }),
    ]);
    renderApp('/events/ABCD/attendees');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const cells = within(rows()[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 7)).toEqual([
      'ABCD-EFGH-JKMN-PQRS',
      'K7M2P9QX',
      'guest@example.com',
      'Yes',
      'Yes',
      'Never',
      '12',
    ]);
    const open = screen.getByRole('link', {
      name: 'Open the album of ABCD-EFGH-JKMN-PQRS in a new tab',
    });
    expect(open.getAttribute('href')).toBe('https://photos.example/?attId=ATT00001');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(
      screen.getByRole('button', { name: 'Reopen the album of ABCD-EFGH-JKMN-PQRS' }),
    ).toBeTruthy();
    expect(
      screen
        .getByRole('link', { name: 'Photos of ABCD-EFGH-JKMN-PQRS in the console album' })
        .getAttribute('href'),
    ).toBe('/events/ABCD/album#ai=ATT00001');
  });

  it('copies an attendee’s album link', async () => {
    installAttendeeApi([makeAttendee(3)]);
    renderApp('/events/ABCD/attendees');
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(
      await screen.findByRole('button', { name: 'Copy the album link of ATT00003' }),
    );
    expect(writeText).toHaveBeenCalledWith('https://photos.example/?attId=ATT00003');
    expect(await screen.findByText('The album link of ATT00003 was copied')).toBeTruthy();
  });

  it('searches by id prefix (dashes and case ignored), back on page 1', async () => {
    const api = installAttendeeApi([
      makeAttendee(1),
      makeAttendee(2, { uid: 'XYZ12345', display_uid: 'XYZ12345' }),
    ]);
    renderApp('/events/ABCD/attendees');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search by attendee id' }), 'x-yz');
    await waitFor(() => expect(firstCells()).toEqual(['XYZ12345']));
    expect(api.callsTo(LIST).at(-1)?.body).toEqual({
      event_id: 7,
      max_size: 50,
      page_number: 1,
      attendee_uid: 'XYZ',
    });
    await user.clear(screen.getByRole('searchbox', { name: 'Search by attendee id' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by attendee id' }), 'nope');
    expect(await screen.findByText('No attendee id starts with “nope”.')).toBeTruthy();
  });

  it('shows the empty state when the event has no attendees', async () => {
    installAttendeeApi([]);
    renderApp('/events/ABCD/attendees');
    expect(
      await screen.findByText('No attendees yet — generate ids for cards or wristbands'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the server’s error when the list fails, and when the event does not exist', async () => {
    installAttendeeApi([], { [LIST]: { nok: 'forbidden', status: 403 } });
    const view = renderApp('/events/ABCD/attendees');
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
    view.unmount();

    installAttendeeApi([]);
    renderApp('/events/ZZZZ/attendees');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to events' })).toBeTruthy();
  });

  it('is reached from the event list through the Attendees link', async () => {
    installAttendeeApi([makeAttendee(1)]);
    renderApp('/events');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More actions for Summer Gala' }));
    await user.click(
      await screen.findByRole('menuitem', { name: 'Attendees of Summer Gala', hidden: true }),
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
  });
});

describe('console Attendees page: lock and reopen', { timeout: 40_000 }, () => {
  it('asks before locking; cancel sends nothing, confirm locks and the row follows', async () => {
    const api = installAttendeeApi([makeAttendee(1)]);
    renderApp('/events/ABCD/attendees');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Lock the album of ATT00001' }));
    let dialog = await screen.findByRole('dialog', { name: 'Lock this album?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(LOCK)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Lock the album of ATT00001' }));
    dialog = await screen.findByRole('dialog', { name: 'Lock this album?' });
    await user.click(within(dialog).getByRole('button', { name: 'Lock album' }));
    await waitFor(() =>
      expect(api.callsTo(LOCK).map((c) => c.body)).toEqual([
        { event_id: 7, attendee_uid: 'ATT00001', is_locked: 1 },
      ]),
    );
    expect(await screen.findByText('The album of ATT00001 is locked')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Reopen the album of ATT00001' }));
    dialog = await screen.findByRole('dialog', { name: 'Reopen this album?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reopen album' }));
    await waitFor(() =>
      expect(api.callsTo(LOCK).at(-1)?.body).toEqual({
        event_id: 7,
        attendee_uid: 'ATT00001',
        is_locked: 0,
      }),
    );
  });

  it('keeps the dialog open with the server’s error when locking fails', async () => {
    installAttendeeApi([makeAttendee(1)], { [LOCK]: { nok: 'invalid_attendee_id', status: 404 } });
    renderApp('/events/ABCD/attendees');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Lock the album of ATT00001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lock this album?' });
    await user.click(within(dialog).getByRole('button', { name: 'Lock album' }));
    expect((await within(dialog).findByTestId('form-error')).textContent).toBe(
      'This attendee id is not valid',
    );
  });
});

describe('console Attendees page: privacy requests', { timeout: 40_000 }, () => {
  /** The attendees page, and ATT00001's privacy request dialog opened from its row. */
  const openPrivacyRequest = async () => {
    renderApp('/events/ABCD/attendees');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Export or erase the data of ATT00001' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Privacy request: ATT00001' });
    return { dialog, user };
  };

  it('exports an attendee’s data as a ZIP link', async () => {
    const api = installAttendeeApi([makeAttendee(1)], {
      [EXPORT]: {
        ok: {
          url: 'https://photos.example/api/v1/attendee/export/download?ticket=t1',
          expires_in: 300,
          counts: COUNTS,
        },
      },
    });
    const { dialog, user } = await openPrivacyRequest();
    await user.click(within(dialog).getByRole('button', { name: 'Export data' }));
    const link = await within(dialog).findByRole('link', { name: 'Download the ZIP' });
    expect(link.getAttribute('href')).toBe(
      'https://photos.example/api/v1/attendee/export/download?ticket=t1',
    );
    expect(
      within(dialog).getByText('Ready: 4 photos, 1 leads, 2 consents, 3 messages, 1 orders.'),
    ).toBeTruthy();
    expect(api.callsTo(EXPORT).map((c) => c.body)).toEqual([{ attendee_uid: 'ATT00001' }]);
    expect(api.callsTo(ERASE)).toHaveLength(0);
  });

  it('says what an erasure removes and erases only after the second confirmation', async () => {
    const api = installAttendeeApi([makeAttendee(1, { photo_count: 3 })], {
      [ERASE]: {
        ok: {
          placeholder_uid: 'ERASED_0123456789ABCDEF',
          deleted_photos: 1,
          detached_photos: 2,
          counts: COUNTS,
        },
      },
    });
    const { dialog, user } = await openPrivacyRequest();
    expect(within(dialog).getByText(/their album \(3 photos\)/)).toBeTruthy();
    expect(within(dialog).getByText('their selfies and face data')).toBeTruthy();
    expect(within(dialog).getByText('their leads and the messages sent to them')).toBeTruthy();
    expect(within(dialog).getByText(/orders and payments are kept/)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Erase…' }));
    expect(api.callsTo(ERASE)).toHaveLength(0);
    expect(within(dialog).getByText('This cannot be undone. Erase ATT00001?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    await waitFor(() =>
      expect(api.callsTo(ERASE).map((c) => c.body)).toEqual([{ attendee_uid: 'ATT00001' }]),
    );
    expect(
      await screen.findByText('The data of ATT00001 was erased (1 photos deleted, 2 detached)'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s refusal and keeps the dialog open', async () => {
    installAttendeeApi([makeAttendee(1)], { [ERASE]: { nok: 'invalid_attendee_id', status: 404 } });
    const { dialog, user } = await openPrivacyRequest();
    await user.click(within(dialog).getByRole('button', { name: 'Erase…' }));
    await user.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    expect((await within(dialog).findByTestId('form-error')).textContent).toBe(
      'This attendee id is not valid',
    );
  });
});

describe('console Attendees page: generate', { timeout: 40_000 }, () => {
  let created: Blob[] = [];
  beforeEach(() => {
    created = recordSavedBlobs();
  });
  afterEach(() => vi.restoreAllMocks());

  const openForm = async () => {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Generate attendees' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate attendee ids' });
    return { user, dialog };
  };

  it.each(['0', '1000001'])('refuses %s without a call, with the catalogue text', async (count) => {
    const api = installAttendeeApi([]);
    renderApp('/events/ABCD/attendees');
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByRole('textbox', { name: /How many/ }), count);
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(
      await within(dialog).findByText('Generate between 1 and 1,000,000 attendees'),
    ).toBeTruthy();
    expect(api.callsTo(GENERATE)).toHaveLength(0);
  });

  it('sends the form for this event and shows the server’s field error on its field', async () => {
    const api = installAttendeeApi([], {
      [GENERATE]: { nok: 'email_invalid', status: 400, field: 'email' },
    });
    renderApp('/events/ABCD/attendees');
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByRole('textbox', { name: /How many/ }), '25');
    await user.click(within(dialog).getByRole('checkbox', { name: /Prepaid/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Expires after/ }), '90');
    await user.type(within(dialog).getByRole('textbox', { name: /E-mail/ }), 'bad@');
    await user.type(within(dialog).getByRole('textbox', { name: /Partial unlock tag/ }), 'vip');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));

    await waitFor(() =>
      expect(api.callsTo(GENERATE).map((c) => c.body)).toEqual([
        {
          attendee_count: 25,
          event_id_array: [7],
          is_prepaid: 1,
          expiration_minutes: 90,
          email: 'bad@',
          partial_unlock_tag: 'vip',
        },
      ]),
    );
    const email = within(dialog).getByRole('textbox', { name: /E-mail/ });
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = email.getAttribute('aria-describedby') ?? '';
    const texts = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '');
    expect(texts.join(' ')).toContain('Enter a valid e-mail address');
    expect(within(dialog).queryByTestId('form-error')).toBeNull();
  });

  it('offers the generated ids as CSV built from the answer', async () => {
    const generated = [
      makeAttendee(1, { display_uid: 'ABCD-EFGH-JKMN-PQRS', private_id: 'K7M2P9QX' }),
      makeAttendee(2, { display_uid: '@SUM-ABCD', private_id: null }),
    ];
    const api = installAttendeeApi([], {
      [GENERATE]: { ok: { count: 2, attendees: generated } },
    });
    renderApp('/events/ABCD/attendees');
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByRole('textbox', { name: /How many/ }), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByText('2 attendee ids generated')).toBeTruthy();
    const listCalls = api.callsTo(LIST).length;
    await user.click(within(dialog).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(api.callsTo(LIST)).toHaveLength(listCalls);
    const text = await savedText(created[0]!);
    expect(text.split('\r\n')).toEqual([
      'Attendee id,Private id,Album link',
      'ABCD-EFGH-JKMN-PQRS,K7M2P9QX,https://photos.example/?attId=ATT00001',
      "'@SUM-ABCD,,https://photos.example/?attId=ATT00002",
      '',
    ]);
  });

  it('reads more than 1,000 generated ids back page by page for the CSV', async () => {
    const all = Array.from({ length: 2500 }, (_, i) => makeAttendee(i + 1));
    // 2,300 were just generated; the 200 oldest were there before.
    const api = installAttendeeApi(all, {
      [GENERATE]: {
        ok: { count: 2300, attendees: [...all].reverse().slice(0, 1000) },
      },
    });
    renderApp('/events/ABCD/attendees');
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByRole('textbox', { name: /How many/ }), '2300');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    const reads = api
      .callsTo(LIST)
      .map((c) => c.body as ListBody)
      .filter((b) => b.max_size === 1000);
    expect(reads.map((b) => b.page_number)).toEqual([1, 2, 3]);
    const lines = (await savedText(created[0]!)).trim().split('\r\n');
    expect(lines).toHaveLength(2301);
    expect(lines[1]).toMatch(/^ATT02500,/);
    expect(lines.at(-1)).toMatch(/^ATT00201,/);
  });
});

describe('console Attendees page: kiosk cards', { timeout: 40_000 }, () => {
  it('prints each card with its card code and a QR of the attId link the kiosk accepts', async () => {
    installAttendeeApi([
      makeAttendee(1, { display_uid: 'ABCD-EFGH-JKMN-PQRS', private_id: 'K7M2P9QX' }),
      makeAttendee(2, { private_id: 'Q4W8E3RT' }),
    ]);
    renderApp('/events/abcd/attendees');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Print cards’ QR sheet' }));
    const sheet = await screen.findByRole('dialog');
    for (const privateId of ['K7M2P9QX', 'Q4W8E3RT']) {
      const card = within(sheet).getByTestId(`kiosk-card-${privateId}`);
      // The printed code is the card code, not the album id.
      expect(within(card).getByText('Card code')).toBeTruthy();
      expect(within(card).getByText(privateId)).toBeTruthy();
      expect(card.textContent).not.toContain('ABCD-EFGH-JKMN-PQRS');
      // The QR is the attId link with that code, as the entry page reads it.
      const svg = await QRCode.toString(kioskCardLink(window.location.origin, privateId), {
        type: 'svg',
        errorCorrectionLevel: 'H',
        margin: 2,
        width: 180,
      });
      await waitFor(() =>
        expect(within(card).getByRole('img').getAttribute('src')).toBe(
          `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
        ),
      );
      expect(kioskCardCode(kioskCardLink(window.location.origin, privateId))).toBe(privateId);
    }
  });
});
