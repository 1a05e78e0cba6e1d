import '@mantine/core/styles.css';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app-providers.tsx';
import { AppRoutes } from './app-routes.tsx';

/** The console and sign-in pages (Mantine), a lazy chunk that album links never load. */
export default function ConsoleRoot() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
