import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';
import { act, render as renderRaw, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../../lib/query-client.ts';
import userEvent from '@testing-library/user-event';
import {
  KioskDeleteConfirm,
  KioskScreen,
  kioskDeleteAllowedHere,
  kioskPrinterPools,
} from './kiosk-screen.tsx';
import { kioskReturnUrl } from '../hooks/use-kiosk-session.ts';

/** The kiosk screen reads the event's settings through React Query. */
const render = (ui: ReactElement) =>
  renderRaw(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
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

  it('counts down each second from the page-active timeout and ends with Time’s up!', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{"status":"ok"}'))),
    );
    const replace = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      origin: 'http://kiosk.test',
      search: '?kType=evSB2&privateId=k&attId=A1B2&kioskMode=true',
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
    expect(replace.mock.calls[0]![0]).toBe('http://kiosk.test/kiosk/entry?kType=evSB2&pvId=k');
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
