import '@mantine/notifications/styles.css';
import { lazy, Suspense } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { Link, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../lib/session-store.ts';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { EventsPage } from '../features/events/editor/components/events-page.tsx';
import { ConsoleShell } from './shell/console-shell.tsx';
import { MyInfoCard } from '../features/identity/my-info/components/my-info-card.tsx';
import { RecoveryCodesCard } from '../features/identity/my-info/components/recovery-codes-card.tsx';
import { SecondFactorCard } from '../features/identity/my-info/components/second-factor-card.tsx';
import { FirstRunChecklist } from '../features/identity/setup/components/first-run-checklist.tsx';

// The album grid, preview and upload are a chunk of their own, loaded on the first album visit.
const ConsoleAlbumPage = lazy(
  () => import('../features/albums/console-album/components/console-album-page.tsx'),
);
const AttendeesPage = lazy(
  () => import('../features/attendees/attendee-list/components/attendees-page.tsx'),
);
const OutboxPage = lazy(() => import('../features/messaging/outbox/components/outbox-page.tsx'));
const LeadsPage = lazy(() => import('../features/attendees/leads/components/leads-page.tsx'));
const ModerationPage = lazy(
  () => import('../features/albums/moderation-queue/components/moderation-page.tsx'),
);
const OrganisationsPage = lazy(() =>
  import('../features/identity/setup/components/organisations-page.tsx').then((m) => ({
    default: m.OrganisationsPage,
  })),
);
const RobotsPage = lazy(() =>
  import('../features/identity/setup/components/robots-page.tsx').then((m) => ({
    default: m.RobotsPage,
  })),
);
const ApiKeysPage = lazy(() =>
  import('../features/identity/setup/components/api-keys-page.tsx').then((m) => ({
    default: m.ApiKeysPage,
  })),
);
const UsersPage = lazy(() =>
  import('../features/identity/setup/components/users-page.tsx').then((m) => ({
    default: m.UsersPage,
  })),
);
// Charts (recharts) load with the Insight pages only.
const EventInsightPage = lazy(
  () => import('../features/operations/insight/components/event-insight-page.tsx'),
);
const OrganisationInsightPage = lazy(
  () => import('../features/operations/insight/components/organisation-insight-page.tsx'),
);
const OrdersPage = lazy(() => import('../features/payments/orders/components/orders-page.tsx'));
const TemplatesPage = lazy(
  () => import('../features/printing/templates/components/templates-page.tsx'),
);
const PrintDeskPage = lazy(
  () => import('../features/printing/print-desk/components/print-desk-page.tsx'),
);
const WebhooksPage = lazy(
  () => import('../features/operations/webhooks/components/webhooks-page.tsx'),
);
const PrivacyLogPage = lazy(
  () => import('../features/attendees/privacy-log/components/privacy-log-page.tsx'),
);
const OperationsPage = lazy(
  () => import('../features/operations/maintenance/components/operations-page.tsx'),
);
const PaymentsPage = lazy(
  () => import('../features/payments/providers/components/payments-page.tsx'),
);
const ImageEditPage = lazy(
  () => import('../features/printing/image-edit/components/image-edit-page.tsx'),
);

/** An unknown console address: said plainly, with the way back to the event list. */
function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="flex-start" data-testid="not-found">
      <Title order={2}>{t('console.notFoundTitle')}</Title>
      <Text>{t('console.notFound')}</Text>
      <Button component={Link} to="/events">
        {t('console.backToEvents')}
      </Button>
    </Stack>
  );
}

/**
 * The signed-in console, loaded as its own chunk so signed-out pages (and later the album and kiosk
 * pages) never download it. Its routes are relative to wherever the app mounts it.
 */
export default function ConsoleApp({ user }: { user: SessionUser }) {
  return (
    <ConsoleShell user={user}>
      {/* Bottom corner: a toast never covers the header's buttons. */}
      <Notifications position="bottom-right" zIndex={1000} />
      <Routes>
        <Route
          index
          element={
            <Stack gap="md">
              <FirstRunChecklist user={user} />
              <MyInfoCard user={user} />
              <SecondFactorCard user={user} />
              {user.mfa_enabled ? <RecoveryCodesCard /> : null}
              <EventsPage user={user} />
            </Stack>
          }
        />
        <Route path="events" element={<EventsPage user={user} />} />
        <Route
          path="organisations"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OrganisationsPage user={user} />
            </Suspense>
          }
        />
        <Route
          path="robots"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <RobotsPage user={user} />
            </Suspense>
          }
        />
        <Route
          path="users"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <UsersPage user={user} />
            </Suspense>
          }
        />
        <Route
          path="api-keys"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <ApiKeysPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/album"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <ConsoleAlbumPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/attendees"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <AttendeesPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/insight"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <EventInsightPage />
            </Suspense>
          }
        />
        <Route
          path="insight"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OrganisationInsightPage user={user} />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/orders"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OrdersPage />
            </Suspense>
          }
        />
        <Route
          path="outbox"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OutboxPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/outbox"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OutboxPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/moderation"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <ModerationPage />
            </Suspense>
          }
        />
        <Route
          path="events/:eventCode/leads"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <LeadsPage />
            </Suspense>
          }
        />
        <Route
          path="imageEdit/index.html"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <ImageEditPage />
            </Suspense>
          }
        />
        <Route
          path="templates"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <TemplatesPage user={user} />
            </Suspense>
          }
        />
        <Route
          path="print-desk"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <PrintDeskPage />
            </Suspense>
          }
        />
        <Route
          path="payments"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <PaymentsPage />
            </Suspense>
          }
        />
        <Route
          path="webhooks"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <WebhooksPage />
            </Suspense>
          }
        />
        <Route
          path="privacy-log"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <PrivacyLogPage />
            </Suspense>
          }
        />
        <Route
          path="operations"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <OperationsPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </ConsoleShell>
  );
}
