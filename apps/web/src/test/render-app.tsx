import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/app-providers.tsx';
import { AppRoutes } from '../app/app-routes.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { resetRestoreForTests } from '../lib/session/session-api.ts';
import { resetSessionStoreForTests, setAccessToken } from '../lib/session-store.ts';

/**
 * The whole app at `path`, with fresh session and query state; StrictMode like main.tsx.
 * `sessionCookie`: the browser holds the server's session hint (a refresh cookie to restore), as
 * after an earlier sign-in; without it, the app asks for no refresh.
 */
export const renderApp = (path = '/', { sessionCookie = true } = {}) => {
  document.cookie = sessionCookie
    ? 'flashbulb_session=1; path=/'
    : 'flashbulb_session=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  resetSessionStoreForTests();
  resetRestoreForTests();
  const queryClient = createQueryClient();
  return render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
};

/**
 * One console screen alone, signed in (an access token, no refresh): the app's providers, a router
 * and the toasts, StrictMode like main.tsx. For a screen's own behaviour where the page around it
 * adds nothing but render time (the event editor's tabs: the session restore and the event list
 * were a third of opening it); the page's wiring is proven through renderApp.
 */
export const renderSignedIn = (ui: ReactNode) => {
  resetSessionStoreForTests();
  resetRestoreForTests();
  setAccessToken('access-1');
  return render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          {ui}
          <Notifications />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
};
