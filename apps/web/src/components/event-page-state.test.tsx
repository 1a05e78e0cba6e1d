import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { FlashbulbEvent } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/app-providers.tsx';
import { ApiError } from '../lib/api-client.ts';
import { resetSessionStoreForTests, setAccessToken } from '../lib/session-store.ts';
import { installConsoleApi, storedEvent } from '../test/event-fixtures.ts';
import { renderSignedIn } from '../test/render-app.tsx';
import { EventPageGate, RouteEventGate } from './event-page-state.tsx';

const gate = (query: Parameters<typeof EventPageGate>[0]['query']) =>
  renderSignedIn(
    <EventPageGate query={query} backLabel="Back to events" fallback="Could not load the event">
      {(event) => <h1>{event.name}</h1>}
    </EventPageGate>,
  );

describe('a console page of one event', () => {
  it('shows a loader while the event loads, not the page', () => {
    gate({ isPending: true, error: null, data: undefined });
    expect(screen.getByLabelText('Loading…')).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the server’s reason and the way back when the event cannot be had', () => {
    gate({
      isPending: false,
      error: new ApiError('event_not_found', { status: 404 }),
      data: undefined,
    });
    expect(screen.getByRole('alert').textContent).toBe('Event not found');
    expect(screen.getByRole('link', { name: 'Back to events' }).getAttribute('href')).toBe(
      '/events',
    );
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('shows its own text when the event is missing without an error', () => {
    gate({ isPending: false, error: null, data: undefined });
    expect(screen.getByRole('alert').textContent).toBe('Could not load the event');
  });

  it('shows the page with the event once it is there', () => {
    gate({ isPending: false, error: null, data: storedEvent({ name: 'GALA' }) });
    expect(screen.getByRole('heading', { name: 'GALA' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('a console page of the route’s event', () => {
  const EventHeading = ({ event }: { event: FlashbulbEvent }) => <h1>{event.full_name}</h1>;
  const page = (path: string) => {
    resetSessionStoreForTests();
    setAccessToken('access-1');
    return render(
      <AppProviders>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="/events/:eventCode/orders"
              element={<RouteEventGate texts="orders" page={EventHeading} />}
            />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );
  };

  it('shows the page with the event the route names', async () => {
    installConsoleApi({ events: [storedEvent({ name: 'GALA', full_name: 'Summer Gala' })] });
    page('/events/gala/orders');
    expect(await screen.findByRole('heading', { name: 'Summer Gala' })).toBeTruthy();
  });

  it('shows the reason and the way back for a code with no event', async () => {
    installConsoleApi({ events: [storedEvent({ name: 'GALA' })] });
    page('/events/nope/orders');
    expect((await screen.findByRole('alert')).textContent).toBe('Event not found');
    // The way back in the screen's own words (orders.backToEvents).
    expect(screen.getByRole('link', { name: 'Back to events' }).getAttribute('href')).toBe(
      '/events',
    );
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
