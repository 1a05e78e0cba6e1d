import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { pageTypeFromQuery, type Photo } from '@flashbulb/shared';
import { createQueryClient } from '../lib/query-client.ts';
import GuestAlbumsPage from '../guest/app/guest-albums-page.tsx';

export { albumPhoto } from './photo-fixtures.ts';

/** The album page for a link's query string, as the app renders it for `/?…`. */
export const renderAlbums = (search: string, eventName: string | null = null) =>
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <GuestAlbumsPage context={pageTypeFromQuery(search)} eventName={eventName} />
      </QueryClientProvider>
    </StrictMode>,
  );

/** A list reply: `photos` newest first. */
export const photoPage = (photos: Photo[], total = photos.length, page = 1) => ({
  photos,
  total_count: page === 1 ? total : null,
  page_number: page,
  max_size: 100,
  stock_images: [] as { uid: string; url: string; thumbnail_url: string }[],
});
