import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';
import { act, render as renderRaw, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../../lib/query-client.ts';
import userEvent from '@testing-library/user-event';
import {
  KioskDeleteConfirm,
  KioskScreen,
  kioskDeleteAllowedHere,
  kioskPrinterPools,
} from './kiosk-screen.tsx';
import { HEALTH_PATH } from '@flashbulb/shared';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { kioskReturnUrl } from '../hooks/use-kiosk-session.ts';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { openStaffControls, STAFF_PIN_PATH } from '../../../../test/kiosk-staff.ts';

const EVENT = '/event/full-data/retrieve';

/** The kiosk screen reads the event's settings through React Query. */
const render = (ui: ReactElement) =>
  renderRaw(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('kiosk screen (albums §2.4, §4)', () => {
  it('holds exactly one of the two action buttons; they replace each other, one tap per second', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{"status":"ok"}'))),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(
      <KioskScreen faceLookup={<p>face lookup here</p>}>
        <p>the album</p>
      </KioskScreen>,
    );
    const buttons = () =>
      screen
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter((t) => t === 'Look up my images by face' || t === '< Back to album');
    expect(buttons()).toEqual(['Look up my images by face']);
    await user.click(screen.getByRole('button', { name: 'Look up my images by face' }));
    expect(buttons()).toEqual(['< Back to album']);
    expect(screen.getByText('face lookup here')).toBeTruthy();
    expect(screen.queryByText('the album')).toBeNull();
    // A second tap inside the 1000 ms throttle does nothing.
    await user.click(screen.getByRole('button', { name: '< Back to album' }));
    expect(buttons()).toEqual(['< Back to album']);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await user.click(screen.getByRole('button', { name: '< Back to album' }));
    expect(buttons()).toEqual(['Look up my images by face']);
    expect(screen.getByText('the album')).toBeTruthy();
  });

  it('wears the event’s brand: its colour on every panel, its logo where the album’s cover is not', async () => {
    const event = storedEvent({ logo_full_path: 'https://cdn.example/logo.png' });
    installFakeApi({
      [EVENT]: { ok: [{ ...event, opts: { ...event.opts, guestAccentColor: '#1c3d8f' } }] },
      [HEALTH_PATH]: { ok: {} },
    });
    render(
      <KioskScreen kioskKey="kiosk-key" attendeeUid="A1B2" faceLookup={<p>face lookup here</p>}>
        <p>the album</p>
      </KioskScreen>,
    );
    const kiosk = document.querySelector<HTMLElement>('.kiosk-screen');
    await waitFor(() => expect(kiosk?.style.getPropertyValue('--fb-accent')).toBe('#1c3d8f'));
    expect(kiosk?.style.getPropertyValue('--fb-event-accent')).toBe('#1c3d8f');
    expect(kiosk?.style.getPropertyValue('--fb-on-accent')).toBe('#ffffff');
    // On the album panel the album's cover shows the logo.
    expect(screen.queryByRole('img', { name: 'Summer Gala logo' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Look up my images by face' }));
    expect(screen.getByText('face lookup here')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Summer Gala logo' }).getAttribute('src')).toBe(
      'https://cdn.example/logo.png',
    );
  });

  it('counts down each second from the link’s page-active timeout and ends with Time’s up!', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{"status":"ok"}'))),
    );
    const replace = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      origin: 'http://kiosk.test',
      search: '?kType=evSB2&privateId=k&attId=A1B2&kioskMode=true&pageActiveTimeout=20000',
      replace,
    });
    vi.useFakeTimers();
    window.localStorage.setItem('eventName', 'guest');
    window.localStorage.setItem('selectedEventId', '3');
    render(
      <KioskScreen>
        <p>the album</p>
      </KioskScreen>,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Time left 00:19')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(screen.getByText('Time left 00:14')).toBeTruthy();
    // Activity (a touch) starts the count again.
    await act(async () => {
      window.dispatchEvent(new Event('pointerdown'));
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByText('Time left 00:19')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(20_000);
    });
    expect(screen.getByText('Time’s up!')).toBeTruthy();
    expect(screen.queryByText('the album')).toBeNull();
    expect(window.localStorage.length).toBe(0);
    await vi.waitFor(() => expect(replace).toHaveBeenCalled());
    expect(replace.mock.calls[0]![0]).toBe(
      'http://kiosk.test/kiosk/entry?kType=evSB2&pvId=k&pageActiveTimeout=20000',
    );
  });

  it('a session from the attract screen: the event’s session expiry, “Still there?” with its count, kept by a tap, then back to the attract screen', async () => {
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent({ opts: { sessionExpiryMinutes: 3 } as never })] },
      [HEALTH_PATH]: { ok: {} },
    });
    const replace = vi.fn();
    const search = '?kType=evSB2&privateId=kiosk-key&attId=A1B2&kioskMode=true&display=tok';
    vi.stubGlobal('location', { ...window.location, origin: 'http://kiosk.test', search, replace });
    vi.useFakeTimers();
    render(
      <KioskScreen kioskKey="kiosk-key" attendeeUid="A1B2">
        <p>the album</p>
      </KioskScreen>,
    );
    // The event says three minutes (not the old 20 s, nor the two-minute default).
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Time left 02:59')).toBeTruthy();
    expect(api.callsTo(EVENT)[0]!.body).toMatchObject({ key_value: 'kiosk-key' });
    expect(screen.queryByRole('alertdialog', { name: 'Still there?' })).toBeNull();
    // Thirty seconds before the end the screen asks, with the seconds left.
    await act(() => vi.advanceTimersByTimeAsync(149_000));
    const ask = screen.getByRole('alertdialog', { name: 'Still there?' });
    expect(ask.textContent).toContain('Your photos close in 30 seconds.');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(ask.textContent).toContain('Your photos close in 20 seconds.');
    expect(screen.getByText('the album')).toBeTruthy();
    // "I'm still here": the whole three minutes again, the question gone.
    act(() => within(ask).getByRole('button', { name: 'I’m still here' }).click());
    expect(screen.queryByRole('alertdialog', { name: 'Still there?' })).toBeNull();
    expect(screen.getByText('Time left 03:00')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(151_000));
    expect(screen.getByRole('alertdialog', { name: 'Still there?' })).toBeTruthy();
    // Nobody answers: Time's up, the album leaves the screen, back to the attract screen.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(screen.getByText('Time’s up!')).toBeTruthy();
    expect(screen.queryByText('the album')).toBeNull();
    await vi.waitFor(() => expect(replace).toHaveBeenCalled());
    expect(replace.mock.calls[0]![0]).toBe(
      'http://kiosk.test/kiosk/entry?kType=evSB2&pvId=kiosk-key&display=tok',
    );
  });
});

describe('kiosk staff controls (employee code, VIP code, print pool, delete)', () => {
  it('are absent for the guest; five taps in the corner ask for the PIN, which the server checks', async () => {
    const api = installFakeApi({
      [EVENT]: {
        ok: [
          storedEvent({
            is_photo_printer_active: 1,
            is_printer_pool_enabled: 1,
            printer_pool_name_list: ['Lobby', 'Bar'],
          }),
        ],
      },
      [HEALTH_PATH]: { ok: {} },
      [STAFF_PIN_PATH]: (body) =>
        (body as { pin: string }).pin === '2468'
          ? { ok: { valid: true } }
          : { nok: 'invalid_staff_pin', status: 403, field: 'pin' },
    });
    const search =
      '?kType=evSB2&privateId=kiosk-key&attId=A1B2&kioskMode=true&display=tok&allowKioskPhotoDelete=true';
    window.history.replaceState(null, '', `/${search}`);
    const user = userEvent.setup();
    render(
      <KioskScreen
        kioskKey="kiosk-key"
        attendeeUid="A1B2"
        albumKey={{ keyType: 'attendee', keyValue: 'A1B2' }}
      >
        <p>the album</p>
      </KioskScreen>,
    );
    await waitFor(() => expect(api.callsTo(EVENT)).toHaveLength(1));
    const staffShown = () =>
      screen.queryByRole('region', { name: 'Staff controls' }) ??
      screen.queryByLabelText('VIP code') ??
      screen.queryByLabelText('Print on');
    expect(staffShown()).toBeNull();
    // Four taps are a guest brushing the corner: nothing.
    const corner = document.querySelector('[data-kiosk-staff-corner]')!;
    for (let tap = 0; tap < 4; tap += 1) await user.click(corner);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(corner);
    const dialog = screen.getByRole('dialog', { name: 'Staff only' });
    // A wrong PIN: the server's refusal, said; nothing opens.
    for (const digit of '1357')
      await user.click(within(dialog).getByRole('button', { name: digit }));
    await user.click(within(dialog).getByRole('button', { name: 'Open staff controls' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This staff PIN is not right',
    );
    expect(staffShown()).toBeNull();
    expect(api.callsTo(STAFF_PIN_PATH).map((call) => call.body)).toEqual([
      { key_type: 'private', key_value: 'kiosk-key', display: 'tok', pin: '1357' },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await openStaffControls(user);
    const panel = screen.getByRole('region', { name: 'Staff controls' });
    expect(within(panel).getByLabelText('VIP code')).toBeTruthy();
    expect(within(panel).getByLabelText('Print on')).toBeTruthy();
    // Staff close them: the guest's view again.
    await user.click(within(panel).getByRole('button', { name: 'Close staff controls' }));
    expect(staffShown()).toBeNull();
  });

  it('group other cards into the open album, the server checking each card', async () => {
    const GROUP = '/attendee/check-and-group-uid-list';
    const api = installFakeApi({
      [EVENT]: { ok: [storedEvent()] },
      [HEALTH_PATH]: { ok: {} },
      [STAFF_PIN_PATH]: { ok: { valid: true } },
      [GROUP]: [
        { nok: 'attendee_group_too_old', status: 400, field: 'attendee_uid_list' },
        {
          ok: {
            attendee_uid: 'A1B2',
            grouped_uids: ['C3D4', 'E5F6'],
            attached_count: 7,
            album_url: 'https://x.example/a',
          },
        },
      ],
    });
    window.history.replaceState(
      null,
      '',
      '/?kType=evSB2&privateId=kiosk-key&attId=A1B2&display=tok',
    );
    const user = userEvent.setup();
    render(
      <KioskScreen kioskKey="kiosk-key" attendeeUid="A1B2">
        <p>the album</p>
      </KioskScreen>,
    );
    await openStaffControls(user);
    const panel = screen.getByRole('region', { name: 'Staff controls' });
    const field = within(panel).getByLabelText('Group other cards into this album (card ids)');
    await user.type(field, 'C3D4, E5F6');
    await user.click(within(panel).getByRole('button', { name: 'Group cards' }));
    expect(await within(panel).findByRole('alert')).toHaveProperty(
      'textContent',
      'Cards older than 3 days cannot be grouped',
    );
    // The refused ids stay in the field to correct; typed again here.
    await user.clear(field);
    await user.type(field, 'C3D4 E5F6');
    await user.click(within(panel).getByRole('button', { name: 'Group cards' }));
    expect(
      await within(panel).findByText(
        'Grouped into the album A1B2: 7 photos of the other cards added.',
      ),
    ).toBeTruthy();
    expect(api.callsTo(GROUP).map((call) => call.body)).toEqual([
      {
        key_type: 'private',
        key_value: 'kiosk-key',
        display: 'tok',
        attendee_uid_list: ['A1B2', 'C3D4', 'E5F6'],
      },
      {
        key_type: 'private',
        key_value: 'kiosk-key',
        display: 'tok',
        attendee_uid_list: ['A1B2', 'C3D4', 'E5F6'],
      },
    ]);
  });

  it('says when the event has no staff PIN, or the kiosk must wait', async () => {
    installFakeApi({
      [EVENT]: { ok: [storedEvent()] },
      [HEALTH_PATH]: { ok: {} },
      [STAFF_PIN_PATH]: [
        { nok: 'kiosk_staff_pin_not_set', status: 409, field: 'pin' },
        { nok: 'too_many_attempts', status: 429, field: 'pin' },
      ],
    });
    window.history.replaceState(null, '', '/?kType=evSB2&privateId=kiosk-key&attId=A1B2');
    const user = userEvent.setup();
    render(
      <KioskScreen kioskKey="kiosk-key" attendeeUid="A1B2">
        <p>the album</p>
      </KioskScreen>,
    );
    const corner = await waitFor(() => document.querySelector('[data-kiosk-staff-corner]')!);
    for (let tap = 0; tap < 5; tap += 1) await user.click(corner);
    const dialog = screen.getByRole('dialog', { name: 'Staff only' });
    await user.type(within(dialog).getByLabelText('Staff PIN'), '2468');
    await user.click(within(dialog).getByRole('button', { name: 'Open staff controls' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'No staff PIN is set for this event. Set one in the event settings (Options, Kiosk)',
    );
    await user.type(within(dialog).getByLabelText('Staff PIN'), '2468');
    await user.click(within(dialog).getByRole('button', { name: 'Open staff controls' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'Too many attempts. Please wait and try again later',
      ),
    );
    expect(screen.queryByRole('region', { name: 'Staff controls' })).toBeNull();
  });
});

describe('kiosk photo delete gate (albums §4, §6)', () => {
  it('deletes only after Delete, once for a double tap; Keep deletes nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onDelete = vi.fn();
    const onKeep = vi.fn();
    render(<KioskDeleteConfirm photoName="red.jpg" onKeep={onKeep} onDelete={onDelete} />);
    expect(screen.getByRole('alertdialog').textContent).toContain('red.jpg');
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    expect(onKeep).toHaveBeenCalledTimes(1);
    expect(onDelete).not.toHaveBeenCalled();
    await user.dblClick(screen.getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('reads the flag from the query or local storage', () => {
    expect(kioskDeleteAllowedHere('?allowKioskPhotoDelete=true')).toBe(true);
    expect(kioskDeleteAllowedHere('?allowKioskPhotoDelete=1')).toBe(false);
    window.localStorage.setItem('allowKioskPhotoDelete', 'true');
    expect(kioskDeleteAllowedHere('')).toBe(true);
  });

  it('an idle kiosk without an entry page returns to its link without the guest', () => {
    expect(
      kioskReturnUrl({ origin: 'http://k.test', search: '?kType=evSB4&attId=A1&kioskMode=true' }),
    ).toBe('http://k.test/?kType=evSB4&kioskMode=true');
    expect(
      kioskReturnUrl({
        origin: 'http://k.test',
        search: '?kType=evSB1&pvId=k&attendeeId=A1&pageActiveTimeout=5000',
      }),
    ).toBe('http://k.test/kiosk/entry?kType=evSB1&pvId=k&pageActiveTimeout=5000');
  });
});

describe('kiosk event params (albums §3, §4)', () => {
  it('takes the printer pools from the link’s printerPoolList, else the event’s when enabled', () => {
    expect(kioskPrinterPools('?printerPoolList=Lobby,%20Bar,,Lobby', ['Other'], true)).toEqual([
      'Lobby',
      'Bar',
    ]);
    expect(kioskPrinterPools('', ['Lobby', 'Bar'], true)).toEqual(['Lobby', 'Bar']);
    expect(kioskPrinterPools('', ['Lobby', 'Bar'], false)).toEqual([]);
    expect(kioskPrinterPools('', null, true)).toEqual([]);
  });
});

describe('the kiosk’s photo cache (photoCashingForKioskEnabled)', () => {
  const registered = () => {
    const register = vi.fn(() => Promise.resolve({}));
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { register },
    });
    return register;
  };
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it.each([
    [1, '/kiosk-sw.js?photos=1'],
    [0, '/kiosk-sw.js?photos=0'],
  ])('event setting %i: the service worker is registered as %s, once', async (flag, url) => {
    installFakeApi({
      [EVENT]: { ok: [storedEvent({ opts: { photoCashingForKioskEnabled: flag } as never })] },
      [HEALTH_PATH]: { ok: {} },
    });
    const register = registered();
    render(
      <KioskScreen kioskKey="kiosk-key">
        <p>the album</p>
      </KioskScreen>,
    );
    await waitFor(() => expect(register).toHaveBeenCalled());
    expect(register.mock.calls).toEqual([[url, { scope: '/' }]]);
  });

  /** Runs the kiosk's service worker script in a fake worker scope registered as `url`. */
  const worker = (url: string) => {
    const listeners = new Map<string, (event: unknown) => void>();
    const deleted: string[] = [];
    const scope = {
      location: new URL(url),
      addEventListener: (type: string, listener: (event: unknown) => void) =>
        listeners.set(type, listener),
      skipWaiting: () => undefined,
      clients: { claim: () => Promise.resolve() },
    };
    const caches = {
      delete: (name: string) => {
        deleted.push(name);
        return Promise.resolve(true);
      },
      open: () => Promise.resolve({ match: () => undefined, put: () => undefined }),
    };
    const source = readFileSync(`${process.cwd()}/apps/web/public/kiosk-sw.js`, 'utf8');
    runInNewContext(source, {
      self: scope,
      caches,
      fetch: () => Promise.resolve(new Response('picture')),
      URL,
      Promise,
    });
    const fetchOf = (path: string, destination: string) => {
      const respondWith = vi.fn();
      listeners.get('fetch')!({
        request: {
          method: 'GET',
          url: `https://kiosk.example${path}`,
          headers: new Headers(),
          destination,
          mode: 'no-cors',
        },
        respondWith,
      });
      return respondWith.mock.calls.length > 0;
    };
    const activate = async () => {
      let done: Promise<unknown> = Promise.resolve();
      listeners.get('activate')!({ waitUntil: (p: Promise<unknown>) => (done = p) });
      await done;
      return deleted;
    };
    return { fetchOf, activate };
  };

  it('the service worker keeps photos only when registered with photos=1, and drops them otherwise', async () => {
    const on = worker('https://kiosk.example/kiosk-sw.js?photos=1');
    expect(on.fetchOf('/storage/events/1/thumb.jpg', 'image')).toBe(true);
    expect(await on.activate()).toEqual([]);
    const off = worker('https://kiosk.example/kiosk-sw.js?photos=0');
    expect(off.fetchOf('/storage/events/1/thumb.jpg', 'image')).toBe(false);
    expect(await off.activate()).toEqual(['flashbulb-kiosk-media']);
    // The app's shell is kept either way: a kiosk that loses the network still opens.
    expect(off.fetchOf('/assets/index.js', 'script')).toBe(true);
  });
});
