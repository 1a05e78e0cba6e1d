import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/app-providers.tsx';
import { AppRoutes } from '../app/app-routes.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { resetRestoreForTests } from '../lib/session/session-api.ts';
import { resetSessionStoreForTests } from '../lib/session-store.ts';

/** The whole app at `path`, with fresh session and query state; StrictMode like main.tsx. */
export const renderApp = (path = '/') => {
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
