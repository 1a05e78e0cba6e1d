import { lazy, Suspense, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { FirstAdminPage } from '../features/identity/auth/components/first-admin-page.tsx';
import { SignInPage } from '../features/identity/auth/components/sign-in-page.tsx';
import { useSetupStatus } from '../features/identity/auth/hooks/use-setup-status.ts';
import { restoreSession } from '../lib/session/session-api.ts';
import { useSession } from '../lib/session/use-session.ts';

const ConsoleApp = lazy(() => import('./console-app.tsx'));

/**
 * Everything but the password-reset pages: the console when signed in; otherwise the site root
 * shows sign-in (or first-admin set-up), and any other path goes back to the root (spec §2).
 */
export function SessionGate() {
  const session = useSession();
  const location = useLocation();
  const signedOut = session.status === 'signedOut';
  const setupStatus = useSetupStatus(signedOut);

  useEffect(() => {
    void restoreSession();
  }, []);

  if (session.status === 'restoring') return <FullPageLoader />;
  if (session.status === 'signedIn' && session.user) {
    return (
      <Suspense fallback={<FullPageLoader />}>
        <ConsoleApp user={session.user} />
      </Suspense>
    );
  }
  if (location.pathname !== '/') return <Navigate to="/" replace />;
  if (setupStatus.isPending) return <FullPageLoader />;
  // If the status cannot be read, sign-in is the sensible page: it reports its own errors.
  if (setupStatus.data?.needs_first_admin)
    return <FirstAdminPage needsSetupToken={setupStatus.data.needs_setup_token ?? false} />;
  return <SignInPage />;
}
