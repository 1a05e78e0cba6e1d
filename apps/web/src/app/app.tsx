import { lazy, Suspense, useState } from 'react';
import { albumPageFor, eventNameFrom } from './page-type-route.ts';

const ConsoleRoot = lazy(() => import('./console-root.tsx'));
const AlbumsRoot = lazy(() => import('../guest/app/albums-root.tsx'));

/**
 * One page, many page types (albums spec §2.1): album links load only the album chunk; everything
 * else loads the console (sign-in, routes, Mantine).
 */
export function App() {
  const [album] = useState(() => albumPageFor(window.location));
  return (
    <Suspense fallback={null}>
      {album ? (
        <AlbumsRoot context={album} eventName={eventNameFrom(window.location.search)} />
      ) : (
        <ConsoleRoot />
      )}
    </Suspense>
  );
}
