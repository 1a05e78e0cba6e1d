import '@mantine/notifications/styles.css';
import { lazy, Suspense } from 'react';
import { Stack, Text } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@flashbulb/shared';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { EventsPage } from '../../events/components/events-page.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { MyInfoCard } from './my-info-card.tsx';

// The album grid, preview and upload are a chunk of their own, loaded on the first album visit.
const AlbumPage = lazy(() => import('../../album/components/album-page.tsx'));
const AttendeesPage = lazy(() => import('../../attendees/components/attendees-page.tsx'));
const ImageEditPage = lazy(() => import('../../image-edit/components/image-edit-page.tsx'));

function NotFound() {
  const { t } = useTranslation();
  return <Text>{t('console.notFound')}</Text>;
}

/**
 * The signed-in console, loaded as its own chunk so signed-out pages (and later the album and kiosk
 * pages) never download it. Its routes are relative to wherever the app mounts it.
 */
export default function ConsoleApp({ user }: { user: User }) {
  return (
    <ConsoleShell user={user}>
      <Notifications position="top-right" zIndex={1000} />
      <Routes>
        <Route
          index
          element={
            <Stack gap="md">
              <MyInfoCard user={user} />
              <EventsPage user={user} />
            </Stack>
          }
        />
        <Route path="events" element={<EventsPage user={user} />} />
        <Route
          path="events/:eventCode/album"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <AlbumPage />
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
          path="imageEdit/index.html"
          element={
            <Suspense fallback={<FullPageLoader />}>
              <ImageEditPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </ConsoleShell>
  );
}
