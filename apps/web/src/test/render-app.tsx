import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/app-providers.tsx';
import { AppRoutes } from '../app/app-routes.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { resetRestoreForTests } from '../lib/session/session-api.ts';
import { resetSessionStoreForTests } from '../lib/session-store.ts';

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
