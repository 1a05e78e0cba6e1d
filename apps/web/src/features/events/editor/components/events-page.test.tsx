import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  eventOwner,
  installConsoleApi,
  OWNER,
  orgAdmin,
  storedEvent,
} from '../../../../test/event-fixtures.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const gala = storedEvent({
  id: 1,
  name: 'GALA',
  full_name: 'Summer Gala',
  collect_leads: 1,
  opts: { ...storedEvent().opts, kioskStreamEnabled: 1 },
});
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

  it('gives each row one primary action, Share, and a menu with the pages, screens and the copied link', async () => {
    installConsoleApi({ events: [gala, hidden] });
    // user-event installs its own clipboard on setup; watch that one.
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(2));

    // Three controls a row, not eleven: Edit (the one filled button), Share and the menu.
    const galaActions = within(screen.getAllByTestId('event-row-actions')[0]!);
    expect(galaActions.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Edit Summer Gala',
      'Share Summer Gala',
      'More actions for Summer Gala',
    ]);
    expect(galaActions.queryAllByRole('link')).toHaveLength(0);

    const origin = window.location.origin;
    // jsdom never lays the dropdown out, so Mantine keeps it `display: none`; the items are there.
    const item = (name: string) => screen.findByRole('menuitem', { name, hidden: true });
    await user.click(screen.getByRole('button', { name: 'More actions for Summer Gala' }));
    // The console album of the event, inside the console.
    expect((await item('Photos of Summer Gala')).getAttribute('href')).toBe(
      `/events/${gala.name}/album`,
    );
    for (const page of ['Attendees', 'Orders', 'Messages', 'Leads'])
      expect(await item(`${page} of Summer Gala`)).toBeTruthy();
    expect((await item('Kiosk album of Summer Gala')).getAttribute('href')).toBe(
      `${origin}/?pId=public-key-7&kioskMode=true&display=display-token-7`,
    );
    expect((await item('Kiosk stream of Summer Gala')).getAttribute('href')).toBe(
      `${origin}/?pId=public-key-7&kioskMode=true&mode=stream&display=display-token-7`,
    );
    expect((await item('Slide show of Summer Gala')).getAttribute('href')).toBe(
      `${origin}/?pId=public-key-7&mode=slideshow&display=display-token-7`,
    );
    await user.click(await item('Copy the album link of Summer Gala'));
    expect(writeText).toHaveBeenCalledWith(`${origin}/?pId=public-key-7`);
    expect(await screen.findByText('The album link of Summer Gala was copied')).toBeTruthy();

    // The kiosk stream switched off (opts.kioskStreamEnabled 0): the menu has no link to it.
    await user.click(screen.getByRole('button', { name: 'More actions for Staff Party' }));
    expect(await item('Kiosk album of Staff Party')).toBeTruthy();
    expect(
      screen.queryByRole('menuitem', { name: 'Kiosk stream of Staff Party', hidden: true }),
    ).toBeNull();
  });

  it('offers the kiosk stream only while the event has it on', async () => {
    const leadsNoStream = storedEvent({
      id: 3,
      name: 'LEAD',
      full_name: 'Lead Night',
      collect_leads: 1,
      opts: { ...storedEvent().opts, kioskStreamEnabled: 0 },
    });
    installConsoleApi({ events: [gala, leadsNoStream] });
    const user = userEvent.setup();
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const item = (name: string) => screen.queryByRole('menuitem', { name, hidden: true });
    await user.click(screen.getByRole('button', { name: 'More actions for Lead Night' }));
    await waitFor(() => expect(item('Kiosk album of Lead Night')).toBeTruthy());
    expect(item('Kiosk stream of Lead Night')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'More actions for Summer Gala' }));
    await waitFor(() => expect(item('Kiosk stream of Summer Gala')).toBeTruthy());
  });

  it('offers New event when there are no events and the user can create', async () => {
    installConsoleApi({ user: orgAdmin, events: [] });
    renderApp('/events');
    const empty = await screen.findByTestId('events-empty');
    expect(within(empty).getByText('There are no events yet.')).toBeTruthy();
    await userEvent.setup().click(within(empty).getByRole('button', { name: 'New event' }));
    expect(await screen.findByRole('dialog', { name: 'New event' })).toBeTruthy();
  });

  it('tells a user without an organisation to ask the administrator', async () => {
    installConsoleApi({
      user: { ...eventOwner, organisation_id: null, organisation_name: null },
      events: [],
    });
    renderApp('/events');
    const empty = await screen.findByTestId('events-empty');
    expect(within(empty).getByText(/Ask your administrator/)).toBeTruthy();
    expect(within(empty).queryByRole('button', { name: 'New event' })).toBeNull();
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

  it('shares the event through named cards, each with copy, open, its QR (PNG 1000 px, SVG) and a poster', async () => {
    installConsoleApi({ events: [gala] });
    renderApp('/events');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Share Summer Gala' }));
    const panel = await screen.findByRole('dialog', { name: 'Share Summer Gala' });
    const origin = window.location.origin;
    const expected: Record<string, string> = {
      guestAlbum: `${origin}/?pId=public-key-7`,
      kiosk: `${origin}/?pId=public-key-7&kioskMode=true&display=display-token-7`,
      slideShow: `${origin}/?pId=public-key-7&mode=slideshow&display=display-token-7`,
      liveWall: `${origin}/?ename=GALA&mode=qrcode&token=public-key-7&display=display-token-7`,
      webApp: `${origin}/?eName=GALA&token=public-key-7`,
      roamer: `${origin}/?roamer=&eventKey=owner-key`,
      entry: `${origin}/kiosk/entry?kType=evSB1&pvId=private-key&display=display-token-7`,
    };
    const cards = await within(panel).findAllByTestId(/^share-card-/);
    expect(cards.map((card) => card.dataset.testid)).toEqual(
      Object.keys(expected).map((card) => `share-card-${card}`),
    );
    for (const [card, url] of Object.entries(expected)) {
      const el = within(within(panel).getByTestId(`share-card-${card}`));
      expect(el.getByTestId('share-url').textContent).toBe(url);
      expect(el.getByRole('link', { name: /^Open the / }).getAttribute('href')).toBe(url);
      // The QR is on the card itself (no click, no scrolling to another part of the dialog).
      const qr = await el.findByTestId('share-qr');
      expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    }
    const guest = within(within(panel).getByTestId('share-card-guestAlbum'));
    expect(guest.getByText('Guest album')).toBeTruthy();
    await user.click(guest.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(expected.guestAlbum);

    // Downloads: what the page hands to the browser, by file name.
    const saved: { name: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, href: this.href });
    });
    try {
      await user.click(
        guest.getByRole('button', {
          name: 'Download the QR code of the Guest album as PNG (1000 px)',
        }),
      );
      await waitFor(() => expect(saved).toHaveLength(1));
      await user.click(
        guest.getByRole('button', { name: 'Download the QR code of the Guest album as SVG' }),
      );
      await waitFor(() => expect(saved).toHaveLength(2));
    } finally {
      click.mockRestore();
    }
    expect(saved.map((file) => file.name)).toEqual([
      'GALA-guestAlbum-qr.png',
      'GALA-guestAlbum-qr.svg',
    ]);
    const png = saved[0]!.href;
    expect(png.startsWith('data:image/png;base64,')).toBe(true);
    // 1000 px wide, read from the PNG header.
    const bytes = Uint8Array.from(atob(png.split(',')[1]!), (c) => c.charCodeAt(0));
    expect(new DataView(bytes.buffer).getUint32(16)).toBe(1000);
    expect(saved[1]!.href).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
    expect(decodeURIComponent(saved[1]!.href.split(',')[1]!)).toContain('<svg');

    // The poster: a print page with the event's name (as text, never markup), the QR and the link.
    const posterDoc = document.implementation.createHTMLDocument('');
    const print = vi.fn();
    const open = vi
      .spyOn(window, 'open')
      .mockReturnValue({ document: posterDoc, print } as unknown as Window);
    try {
      await user.click(guest.getByRole('button', { name: 'Print a poster of the Guest album' }));
    } finally {
      open.mockRestore();
    }
    expect(posterDoc.querySelector('h1')?.textContent).toBe('Summer Gala');
    expect(posterDoc.querySelector('h2')?.textContent).toBe('Guest album');
    expect(posterDoc.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(posterDoc.querySelector('p')?.textContent).toBe(expected.guestAlbum);

    // The rarer links stay one click away, the curation key from the event's full data.
    await user.click(within(panel).getByRole('button', { name: /^More links/ }));
    const curation = await within(panel).findByTestId('event-link-curation');
    expect(within(curation).getByTestId('event-link-url').textContent).toBe(
      `${origin}/?eId=owner-key`,
    );
    expect(
      within(within(panel).getByTestId('event-link-qrRide')).getByTestId('event-link-url')
        .textContent,
    ).toContain('kType=evSB3&pvId=private-key');
  });
});
