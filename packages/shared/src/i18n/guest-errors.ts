import { errorCatalogue, type ErrorKey } from '../errors.ts';

/**
 * The error keys a guest can meet: every key a call made with an event's key (album, kiosk,
 * web-app page, checkout, Find me, uploads through a guest's grant) may answer, plus the
 * transport's own. Guest pages show these in the guest's language; the rest of the catalogue is
 * the console's and stays English. `test/i18n-keys.test.ts` fails when a guest call names a key
 * this list lacks, or a language lacks one of these.
 */
export const GUEST_ERROR_KEYS = [
  'Internal Error',
  'something_wrong',
  'invalid_request',
  'invalid_value',
  'body_too_large',
  'request_timeout',
  'not_found',
  'rate_limited',
  'too_many_requests',
  'forbidden',
  'unauthorized_user',
  'invalid_key',
  'attendee_expired',
  'attendee_group_needs_two',
  'attendee_group_too_old',
  'attendee_locked',
  'card_invalid',
  'combo_digital_required',
  'company_required',
  'consent_outdated',
  'consent_required',
  'download_not_allowed',
  'email_invalid',
  'email_not_collected',
  'email_required',
  'event_not_found',
  'face_consent_outdated',
  'face_consent_required',
  'face_not_found',
  'face_recognition_off',
  'file_name_invalid',
  'full_name_required',
  'image_field_not_allowed',
  'invalid_attendee_id',
  'invalid_staff_pin',
  'invalid_unlock_code',
  'invalid_url',
  'kiosk_photo_delete_off',
  'kiosk_staff_pin_not_set',
  'lead_required',
  'leads_not_collected',
  'payment_amount_below_minimum',
  'payment_method_not_offered',
  'payment_provider_error',
  'payment_provider_refused',
  'payment_provider_unavailable',
  'per_request_count_error',
  'phone_invalid',
  'photo_not_printable',
  'photo_too_large',
  'photo_truncated',
  'photos_copy_count_error',
  'photos_required',
  'price_formula_division_by_zero',
  'price_formula_invalid',
  'price_formula_negative',
  'price_formula_too_large',
  'print_count_placeholder_error',
  'printer_pool_name_invalid',
  'printing_not_active',
  'profile_photo_too_wide',
  'recipient_required',
  'robot_not_attached',
  'robot_other_event',
  'several_faces',
  'sms_not_enabled',
  'square_device_required',
  'story_photo_count_error',
  'story_tags_missing',
  'tags_invalid',
  'too_many_attempts',
  'too_many_attendees',
  'too_many_photos',
  'too_many_recipients',
  'unsupported_media_size',
  'unsupported_picture_format',
  'vip_token_invalid',
] as const satisfies readonly ErrorKey[];

export type GuestErrorKey = (typeof GUEST_ERROR_KEYS)[number];

/** A language's texts of the guest error keys (i18next namespace `errors`). */
export type GuestErrorTexts = Readonly<Record<GuestErrorKey, string>>;

/** The English texts: the catalogue's own. */
export const englishGuestErrors: GuestErrorTexts = Object.fromEntries(
  GUEST_ERROR_KEYS.map((key) => [key, errorCatalogue[key].text]),
) as Record<GuestErrorKey, string>;
