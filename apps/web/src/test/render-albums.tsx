import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { pageTypeFromQuery, type Photo } from '@flashbulb/shared';
import { createQueryClient } from '../lib/query-client.ts';
import GuestAlbumsPage from '../guest/app/guest-albums-page.tsx';

/** The album page for a link's query string, as the app renders it for `/?…`. */
export const renderAlbums = (search: string, eventName: string | null = null) =>
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <GuestAlbumsPage context={pageTypeFromQuery(search)} eventName={eventName} />
      </QueryClientProvider>
    </StrictMode>,
  );

/** A ready photo as the public list presents it. */
export const albumPhoto = (id: number, overrides: Partial<Photo> = {}): Photo => ({
  id,
  uid: `uid-${id}`,
  event_id: 1,
  full_path: `events/1/uid_${id}_uid.jpg`,
  file_name: `photo-${id}.jpg`,
  content_type: 'image/jpeg',
  media_type: 'image',
  width: 4000,
  height: 3000,
  size_bytes: 1000,
  robot_id: 1,
  attendee_uid: null,
  category: null,
  is_visible: 1,
  is_original: 1,
  is_curatable: 0,
  is_curated: 0,
  printable: 0,
  printed: 0,
  image_process_id: null,
  original_photo_id: null,
  status: 'ready',
  duration_ms: null,
  is_360: 0,
  created_date: `2026-11-21T10:${String(id % 60).padStart(2, '0')}:00.000Z`,
  available_date: `2026-11-21T10:${String(id % 60).padStart(2, '0')}:00.000Z`,
  urls: {
    original: null,
    preview: `/files/preview-${id}.jpg`,
    thumbnail: `/files/thumb-${id}.jpg`,
    live_view_watermark: null,
    photo_watermark: null,
    protector_watermark: null,
    video: null,
  },
  ...overrides,
});

/** A list reply: `photos` newest first. */
export const photoPage = (photos: Photo[], total = photos.length, page = 1) => ({
  photos,
  total_count: page === 1 ? total : null,
  page_number: page,
  max_size: 100,
  stock_images: [] as { uid: string; url: string; thumbnail_url: string }[],
});
