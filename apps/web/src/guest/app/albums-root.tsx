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
  // The web-app page's public key (its "Find me" and the album link), when the link carries one.
  const token = context.page.kind === 'webapp' ? (context.page.token?.trim() ?? '') : '';
  return (
    <QueryClientProvider client={client}>
      {context.page.kind === 'webapp' ? (
        <Suspense fallback={null}>
          <WebappPage
            eventName={context.page.eventName}
            albumUrl={token ? `/?pId=${encodeURIComponent(token)}` : null}
            findMe={
              token
                ? (page) => (
                    <FaceLookup
                      albumKey={{ keyType: 'public', keyValue: token }}
                      display={{
                        linkPhotos: page.link_photos,
                        rowHeight: page.picture_size,
                        hint: page.user_content.tooltip,
                        uploadMessage: page.user_content.upload_message,
                        processMessage: page.user_content.process_message,
                      }}
                    />
                  )
                : null
            }
          />
        </Suspense>
      ) : (
        <GuestAlbumsPage context={context} eventName={eventName} />
      )}
    </QueryClientProvider>
  );
}
