import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { installConsoleApi, OWNER, storedEvent } from '../test/event-fixtures.ts';
import { isApiError } from './api-client.ts';
import { fetchEventByCode, useEventByCode, useRouteEvent } from './event-by-code.ts';
import { createQueryClient } from './query-client.ts';
import { resetSessionStoreForTests, setAccessToken } from './session-store.ts';

const FULL_DATA = `${OWNER}/event/full-data/retrieve`;

beforeEach(() => {
  resetSessionStoreForTests();
  setAccessToken('access-1');
});

describe('the event of a console page, by its code', () => {
  it('is the first item the full-data call answers for that code', async () => {
    const api = installConsoleApi({ events: [storedEvent({ id: 12, name: 'GALA' })] });
    const event = await fetchEventByCode('GALA', new AbortController().signal);
    expect(event).toMatchObject({ id: 12, name: 'GALA' });
    expect(api.callsTo(FULL_DATA).map((call) => call.body)).toEqual([{ event_name: 'GALA' }]);
  });

  it('is event_not_found (404) when the call answers no event', async () => {
    installConsoleApi({ events: [storedEvent({ name: 'GALA' })] });
    const error: unknown = await fetchEventByCode('NOPE', new AbortController().signal).catch(
      (failure: unknown) => failure,
    );
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ messageKey: 'event_not_found', status: 404 });
  });

  it('is shown at once on the next page of the same event, and read again behind it', async () => {
    const before = storedEvent({ name: 'GALA', full_name: 'Gala' });
    const after = storedEvent({ name: 'GALA', full_name: 'Gala, renamed' });
    const api = installConsoleApi({ routes: { [FULL_DATA]: [{ ok: [before] }, { ok: [after] }] } });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const first = renderHook(() => useEventByCode('GALA'), { wrapper });
    await waitFor(() => expect(first.result.current.data?.full_name).toBe('Gala'));
    first.unmount();

    // Another page of the event: the copy the first page read, at once, then the stored event.
    const second = renderHook(() => useEventByCode('GALA'), { wrapper });
    expect(second.result.current.isPending).toBe(false);
    expect(second.result.current.data?.full_name).toBe('Gala');
    await waitFor(() => expect(second.result.current.data?.full_name).toBe('Gala, renamed'));
    expect(api.callsTo(FULL_DATA)).toHaveLength(2);
  });

  it('is the one the route names, whatever the case of its code', async () => {
    const api = installConsoleApi({ events: [storedEvent({ name: 'GALA', full_name: 'Gala' })] });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/events/gala/orders']}>
          <Routes>
            <Route path="/events/:eventCode/orders" element={children} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    );
    const page = renderHook(() => useRouteEvent(), { wrapper });
    await waitFor(() => expect(page.result.current.data?.full_name).toBe('Gala'));
    expect(api.callsTo(FULL_DATA).map((call) => call.body)).toEqual([{ event_name: 'GALA' }]);
  });
});
