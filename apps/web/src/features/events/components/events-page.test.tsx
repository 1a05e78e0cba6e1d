import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  eventOwner,
  installConsoleApi,
  OWNER,
  orgAdmin,
  storedEvent,
} from '../../../test/event-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';

const gala = storedEvent({ id: 1, name: 'GALA', full_name: 'Summer Gala', collect_leads: 1 });
const hidden = storedEvent({ id: 2, name: 'HIDE', full_name: 'Staff Party', is_visible: 0 });

const rows = () => screen.queryAllByTestId('event-row').map((row) => row.textContent ?? '');

describe('event list', () => {
  it('lists my events from the basic list, page 1 of 5000', async () => {
    const api = installConsoleApi({ events: [gala, hidden] });
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo(`${OWNER}/event/basic-list/retrieve`)[0]?.body).toEqual({
      max_size: 5000,
      page_number: 1,
    });
  });

  it('filters all / visible / hidden, keeps the filter in the URL, and searches title or code', async () => {
    installConsoleApi({ events: [gala, hidden] });
    renderApp('/events?show=hidden');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toContain('Staff Party');

    const user = userEvent.setup();
    await user.click(screen.getByText('Visible'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toContain('Summer Gala');
    await user.click(screen.getByText('All'));
    await waitFor(() => expect(rows()).toHaveLength(2));

    await user.type(screen.getByLabelText('Search by title or code'), 'hide');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toContain('Staff Party');
    await user.clear(screen.getByLabelText('Search by title or code'));
    await user.type(screen.getByLabelText('Search by title or code'), 'nothing like it');
    expect(await screen.findByTestId('events-no-match')).toBeTruthy();
  });

  it('links the kiosk album, kiosk stream and slide show, disables the stream without lead collection, and copies the link', async () => {
    installConsoleApi({ events: [gala, hidden] });
    // user-event installs its own clipboard on setup; watch that one.
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(2));

    const origin = window.location.origin;
    // The console album of the event, inside the console.
    const galaCode = gala.name;
    expect(screen.getByRole('link', { name: 'Photos of Summer Gala' }).getAttribute('href')).toBe(
      `/events/${galaCode}/album`,
    );
    expect(
      screen.getByRole('link', { name: 'Kiosk album of Summer Gala' }).getAttribute('href'),
    ).toBe(`${origin}/?pId=public-key-7&kioskMode=true&display=display-token-7`);
    expect(
      screen.getByRole('link', { name: 'Kiosk stream of Summer Gala' }).getAttribute('href'),
    ).toBe(`${origin}/?pId=public-key-7&kioskMode=true&mode=stream&display=display-token-7`);
    expect(
      screen.getByRole('link', { name: 'Slide show of Summer Gala' }).getAttribute('href'),
    ).toBe(`${origin}/?pId=public-key-7&mode=slideshow&display=display-token-7`);
    // collect_leads 0: the stream is offered but disabled.
    expect(
      screen.getByRole('button', { name: 'Kiosk stream of Staff Party' }).hasAttribute('disabled'),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Copy the album link of Summer Gala' }));
    expect(writeText).toHaveBeenCalledWith(`${origin}/?pId=public-key-7`);
    expect(await screen.findByText('The album link of Summer Gala was copied')).toBeTruthy();
  });

  it('offers Add Event when there are no events and the user can create', async () => {
    installConsoleApi({ user: orgAdmin, events: [] });
    renderApp('/events');
    const empty = await screen.findByTestId('events-empty');
    expect(within(empty).getByText('There are no events yet.')).toBeTruthy();
    await userEvent.setup().click(within(empty).getByRole('button', { name: 'Add Event' }));
    expect(await screen.findByRole('dialog', { name: 'Add event' })).toBeTruthy();
  });

  it('tells a user without an organisation to ask the administrator', async () => {
    installConsoleApi({
      user: { ...eventOwner, organisation_id: null, organisation_name: null },
      events: [],
    });
    renderApp('/events');
    const empty = await screen.findByTestId('events-empty');
    expect(within(empty).getByText(/Ask your administrator/)).toBeTruthy();
    expect(within(empty).queryByRole('button', { name: 'Add Event' })).toBeNull();
  });

  it('shows skeletons while loading, then an error with a retry that reloads', async () => {
    let failing = true;
    const api = installConsoleApi({
      routes: {
        [`${OWNER}/event/basic-list/retrieve`]: () =>
          failing ? { nok: 'forbidden', status: 403 } : { ok: { events: [], total_count: 0 } },
      },
    });
    renderApp('/events');
    expect(await screen.findByTestId('events-loading')).toBeTruthy();
    expect(await screen.findByText('You are not allowed to do this')).toBeTruthy();
    const calls = api.callsTo(`${OWNER}/event/basic-list/retrieve`).length;
    failing = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('events-empty')).toBeTruthy();
    expect(api.callsTo(`${OWNER}/event/basic-list/retrieve`).length).toBe(calls + 1);
  });

  it('opens the editor of the event named in the page hash, and Edit sets the hash', async () => {
    const api = installConsoleApi({ events: [gala, hidden] });
    renderApp('/events#ename=hide');
    expect(await screen.findByRole('dialog', { name: 'Edit event Staff Party' })).toBeTruthy();
    expect(api.callsTo(`${OWNER}/event/full-data/retrieve`)[0]?.body).toEqual({
      event_name: 'HIDE',
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close the editor' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Edit Summer Gala' }));
    expect(await screen.findByRole('dialog', { name: 'Edit event Summer Gala' })).toBeTruthy();
  });

  it('hands out every page type of the event with copy, open and a 1000 px level-H QR', async () => {
    installConsoleApi({ events: [gala] });
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Links and QR codes of Summer Gala' }));
    const curation = await screen.findByTestId('event-link-curation');
    // The curation key comes from the event's full data, not from the list.
    expect(within(curation).getByTestId('event-link-url').textContent).toBe(
      `${window.location.origin}/?eId=owner-key`,
    );
    for (const kind of [
      'public',
      'private',
      'kioskAlbum',
      'kioskStream',
      'slideShow',
      'qrRide',
      'allPhotosKiosk',
      'webApp',
    ]) {
      const row = screen.getByTestId(`event-link-${kind}`);
      expect(within(row).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(
        within(row).getByTestId('event-link-url').textContent,
      );
    }
    expect(
      within(screen.getByTestId('event-link-qrRide')).getByTestId('event-link-url').textContent,
    ).toContain('kType=evSB3&pvId=private-key');
    await user.click(
      within(screen.getByTestId('event-link-public')).getByRole('button', { name: 'QR' }),
    );
    const img = await within(screen.getByTestId('event-link-qr')).findByRole('img');
    const src = img.getAttribute('src') ?? '';
    expect(src.startsWith('data:image/png;base64,')).toBe(true);
    // 1000 px wide, read from the PNG header.
    const bytes = Uint8Array.from(atob(src.split(',')[1]!), (c) => c.charCodeAt(0));
    expect(new DataView(bytes.buffer).getUint32(16)).toBe(1000);
  });
});
