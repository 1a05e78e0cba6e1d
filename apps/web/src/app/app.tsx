import { BrowserRouter } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { AppRoutes } from './app-routes.tsx';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
