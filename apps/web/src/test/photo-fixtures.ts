import type { Photo } from '@flashbulb/shared';

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

/** The paging fields of a photo-list call's body. */
export interface PhotoListBody {
  page_number: number;
  max_size: number;
  show_total_count?: number;
  before_id?: number;
}

/** One page of `all` (newest first) as the server pages it: a cursor wins over the page number. */
export const pageOfPhotos = (all: readonly Photo[], body: PhotoListBody) => {
  const start =
    body.before_id !== undefined
      ? all.findIndex((p) => p.id === body.before_id) + 1
      : (body.page_number - 1) * body.max_size;
  return {
    photos: all.slice(start, start + body.max_size),
    total_count: body.show_total_count ? all.length : null,
    page_number: body.page_number,
    max_size: body.max_size,
  };
};
