/** Replies of the guest side's calls, shared by the guest pages' tests. */
import type { Photo } from '@flashbulb/shared';

/** The web-app page's event (`/webapp/event/retrieve`): event AB12, "Summer party". */
export const webappEvent = {
  name: 'AB12',
  full_name: 'Summer party',
  description: '',
  logo_full_path: null,
  logo_link: '',
  logo: null,
  background: null,
  banner_top: null,
  banner_bottom: null,
  share_title: '',
  og_title: 'Summer party',
  og_description: '',
  faq_text: '',
  agreement_text: '',
  support_link: '',
  registration_type: 'default',
  redirect_to_webapp: false,
  sms_enabled: false,
  sms_agreement: '',
};

/** An attendee's album (`/attendee/retrieve`): attendee ABCD-EFGH-JKMN-PQRS at event AB12. */
export const attendeeAlbum = (overrides: Record<string, unknown> = {}) => ({
  uid: 'ABCDEFGHJKMNPQRS',
  display_uid: 'ABCD-EFGH-JKMN-PQRS',
  organisation_id: 7,
  email: null,
  is_prepaid: 0,
  unlocked: 0,
  expires_date: null,
  events: [{ name: 'AB12', full_name: 'Summer party', empty_album_text: '', logo_full_path: null }],
  photo_count: 1,
  ...overrides,
});

/**
 * A mini-album link's answer (`/mini-album/retrieve`): `photos` of event AB12, "Summer party";
 * `more` adds the answer's other fields (photos still developing).
 */
export const miniAlbum = (photos: Photo[], more: Record<string, unknown> = {}) => ({
  ok: {
    event: {
      id: 1,
      name: 'AB12',
      full_name: 'Summer party',
      empty_album_text: '',
      logo_full_path: null,
    },
    photos,
    ...more,
    created_date: '2026-11-21T10:00:00.000Z',
  },
});
