import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { PageContext } from '@flashbulb/shared/rules/page-type';
import GuestAlbumsPage from './guest-albums-page.tsx';
import { seedGuestBoot } from './guest-boot.ts';
import { createQueryClient } from '../../lib/query-client.ts';

const WebappPage = lazy(() => import('../features/webapp/components/webapp-page.tsx'));
// Face lookup loads with the page that offers it (the album's first load stays small).
const FaceLookup = lazy(() =>
  import('../features/faces/components/face-lookup.tsx').then((m) => ({
    default: m.FaceLookup,
  })),
);

/**
 * Album, kiosk and slide-show pages: their own lazy chunk, without the console or Mantine. The
 * web-app page gets "Find me" (faces) with the public key its link carries as `token`.
 */
export default function AlbumsRoot({
  context,
  eventName,
}: {
  context: PageContext;
  eventName: string | null;
}) {
  // Album links' first data came with the page: no second round trip for it.
  const [client] = useState(() => {
    const created = createQueryClient();
    seedGuestBoot(created);
    return created;
  });
  return (
    <QueryClientProvider client={client}>
      {context.page.kind === 'webapp' ? (
        <Suspense fallback={null}>
          <WebappPage
            eventName={context.page.eventName}
            albumUrl={
              context.page.token?.trim()
                ? `/?pId=${encodeURIComponent(context.page.token.trim())}`
                : null
            }
            findMe={
              context.page.token?.trim() ? (
                <FaceLookup albumKey={{ keyType: 'public', keyValue: context.page.token.trim() }} />
              ) : null
            }
          />
        </Suspense>
      ) : (
        <GuestAlbumsPage context={context} eventName={eventName} />
      )}
    </QueryClientProvider>
  );
}
