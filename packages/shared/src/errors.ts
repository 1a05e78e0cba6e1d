/**
 * The error catalogue: every message key the API may answer, its HTTP status and English text.
 * The web app translates keys through i18next (see i18n/en.ts, built from this table).
 */
export const errorCatalogue = {
  // transport / generic
  'Internal Error': { status: 500, text: 'Something went wrong' },
  something_wrong: { status: 500, text: 'Something went wrong' },
  invalid_request: { status: 400, text: 'Please enter valid data' },
  invalid_value: { status: 400, text: 'Please enter valid data' },
  body_too_large: { status: 413, text: 'The request is too large' },
  headers_too_large: { status: 431, text: 'The request is too large' },
  request_timeout: { status: 408, text: 'The request took too long. Please try again' },
  not_found: { status: 404, text: 'Not found' },
  rate_limited: { status: 429, text: 'Too many requests. Please wait a moment and try again' },
  /** A quota of the organisation or key is used up for now (docs/security.md). */
  too_many_requests: {
    status: 429,
    text: 'Too many requests for now. Please try again later',
  },
  attendee_count_too_large: {
    status: 413,
    text: 'Too many attendees for one call. Generate them in smaller lists',
  },
  forbidden: { status: 403, text: 'You are not allowed to do this' },
  unauthorized_user: { status: 401, text: 'Your session has expired. Please log in again' },
  event_was_updated_by_another_user: {
    status: 409,
    text: 'This event was updated by another user. Reload it to see the changes?',
  },
  // identity
  user_name_or_password_incorrect: { status: 400, text: 'User Name or Password is incorrect' },
  too_many_attempts: { status: 429, text: 'Too many attempts. Please wait and try again later' },
  code_mismatch: { status: 400, text: 'The code is not correct. Please try again' },
  expired_code: { status: 400, text: 'The code has expired. Please request a new one' },
  user_exists: { status: 409, text: 'A user with this e-mail already exists' },
  user_not_found: { status: 404, text: 'User not found' },
  user_disabled: {
    status: 403,
    text: 'This account is disabled. Ask your administrator to enable it again',
  },
  invalid_password: {
    status: 400,
    text: 'Choose a password of at least 8 characters that is not a common password',
  },
  current_password_incorrect: { status: 400, text: 'Your current password is not correct' },
  password_too_long: { status: 400, text: 'The password may have at most 256 characters' },
  temporary_password_expired: {
    status: 400,
    text: 'The temporary password has expired. Ask your administrator for a new one',
  },
  invalid_session: { status: 400, text: 'This sign-in step has expired. Please sign in again' },
  invalid_challenge: { status: 400, text: 'This sign-in step is not expected now' },
  mfa_not_set_up: { status: 400, text: 'Set up your authenticator app first' },
  email_invalid: { status: 400, text: 'Enter a valid e-mail address' },
  too_many_recipients: { status: 400, text: 'Send to at most 5 addresses at once' },
  email_required: { status: 400, text: 'Enter your e-mail address' },
  code_required: { status: 400, text: 'Enter the 6-digit code' },
  code_format: { status: 400, text: 'The code has 6 digits' },
  recovery_code_required: { status: 400, text: 'Enter one of your recovery codes' },
  recovery_code_format: {
    status: 400,
    text: 'A recovery code has 10 letters and digits, like abcde-fgh0k',
  },
  recovery_code_mismatch: {
    status: 400,
    text: 'This recovery code is wrong or was already used',
  },
  password_required: { status: 400, text: 'Enter your password' },
  organisation_not_found: { status: 404, text: 'Organisation not found' },
  organisation_name_required: { status: 400, text: 'Enter the organisation name' },
  organisation_exists: { status: 409, text: 'An organisation with this name already exists' },
  role_invalid: { status: 400, text: 'Choose a valid role' },
  setup_already_done: {
    status: 409,
    text: 'Flashbulb already has an administrator. Please sign in',
  },
  setup_token_required: {
    status: 403,
    text: 'Enter the set-up token printed in the server log at start (not needed on the server machine itself)',
  },
  api_key_not_found: { status: 404, text: 'API key not found' },
  // events (owner-console §5, albums spec §5)
  event_not_found: { status: 404, text: 'Event not found' },
  robot_not_found: { status: 404, text: 'Robot not found' },
  robot_name_required: { status: 400, text: 'Please enter the robot name' },
  storage_reference_invalid: {
    status: 400,
    text: 'Choose a file uploaded to this organisation or event, or a default image',
  },
  robot_not_attached: {
    status: 403,
    text: 'This robot key is valid but the robot feeds no event. Attach it: Events → edit the event → General → Robots, then save',
  },
  robot_other_event: {
    status: 403,
    text: 'This robot key is valid but the robot feeds another event. Upload to its event, or attach it to this one in the event editor (General → Robots)',
  },
  robot_serves_other_event: {
    status: 403,
    text: 'This robot serves an event you do not manage. Ask its organiser to release it',
  },
  image_process_not_found: { status: 404, text: 'Image process not found' },
  template_not_found: { status: 404, text: 'Template not found' },
  print_job_not_cancellable: {
    status: 409,
    text: 'This sheet is already printing or finished and cannot be cancelled',
  },
  print_job_not_reprintable: {
    status: 409,
    text: 'Only printed, failed or cancelled sheets can be printed again',
  },
  reprint_reason_required: { status: 400, text: 'Please enter why the sheet is printed again' },
  template_name_required: { status: 400, text: 'Please enter the template name' },
  template_layout_invalid: {
    status: 400,
    text: 'The template sheet is not valid (size 1 to 24 inches, 72 to 1200 dpi, placeholders inside the sheet)',
  },
  template_placeholders_required: {
    status: 400,
    text: 'A template needs at least one placeholder',
  },
  template_image_invalid: {
    status: 400,
    text: 'Template images must be jpg or png files in the organisation’s watermarks folder',
  },
  title_required: { status: 400, text: 'Please enter the event title' },
  emptyText_required: { status: 400, text: 'Please enter the text shown while the album is empty' },
  description_required: { status: 400, text: 'Please enter valid data' },
  valid_url: { status: 400, text: 'Please enter valid url' },
  valid_privacy_url: { status: 400, text: 'Please enter valid url' },
  photos_copy_count_error: { status: 400, text: 'Copies per print must be between 1 and 20' },
  per_request_count_error: {
    status: 400,
    text: 'Photos per print request must be between 1 and 20',
  },
  print_count_placeholder_error: {
    status: 400,
    text: 'The print count must be a multiple of the template’s placeholder count',
  },
  story_photo_count_error: {
    status: 400,
    text: 'A story needs exactly as many photos as its template has placeholders (2 to 4 without a template)',
  },
  story_tags_missing: {
    status: 400,
    text: 'Every photo of a story must carry the event’s required story tags',
  },
  address_required: { status: 400, text: 'Please enter the from address' },
  name_required: { status: 400, text: 'Please enter the from name' },
  body_required: { status: 400, text: 'Please enter the e-mail body' },
  body_error: { status: 400, text: 'The e-mail body must contain {user_name} and {image_url}' },
  body_share_error: {
    status: 400,
    text: 'The share e-mail body is required and must contain {image_url}',
  },
  receipt_email_body_required: { status: 400, text: 'Please enter the receipt e-mail body' },
  receipt_email_body_error: {
    status: 400,
    text: 'The receipt e-mail body must contain {user_name}',
  },
  sharing_body_required: { status: 400, text: 'Please enter the photo sharing template' },
  sharing_video_body_required: { status: 400, text: 'Please enter the video sharing template' },
  sharing_360_body_required: { status: 400, text: 'Please enter the 360 sharing template' },
  sms_body_required: { status: 400, text: 'Please enter the SMS text' },
  sms_body_error: { status: 400, text: 'The SMS text must contain {user_name} and {image_url}' },
  webapp_sms_text_required: { status: 400, text: 'Please enter the SMS invitation text' },
  webapp_sms_text_placeholders_missing: {
    status: 400,
    text: 'The SMS invitation text must contain {userName} and {url}',
  },
  webapp_sms_text_user_name_missing: {
    status: 400,
    text: 'The SMS invitation text must contain {userName}',
  },
  webapp_sms_text_url_missing: { status: 400, text: 'The SMS invitation text must contain {url}' },
  max_photo_stream_avl_minutes_error: {
    status: 400,
    text: 'Photo stream availability must be between 1 and 1000000 minutes',
  },
  photo_delete_days_value_error: {
    status: 400,
    text: 'Auto-delete must be between 30 and 3000 days',
  },
  photo_delete_days_archive_error: {
    status: 400,
    text: 'Auto-delete days must be more than the instant archive days',
  },
  instant_archive_days_error: {
    status: 400,
    text: 'Instant archive must be between 1 and 3000 days',
  },
  photo_delay_minutes_error: {
    status: 400,
    text: 'A photo delay must be between 0 and 120 minutes',
  },
  slideshow_interval_error: {
    status: 400,
    text: 'The slide show maximum interval must be greater than the minimum',
  },
  slideshow_interval_too_long: {
    status: 400,
    text: 'A slide show interval can be at most 3600 seconds (one hour)',
  },
  file_name_invalid: {
    status: 400,
    text: 'File names cannot contain ~ " $ , # % & * : < > ? { | }',
  },
  printer_pool_name_invalid: {
    status: 400,
    text: 'Printer queue names have up to 80 letters, digits, hyphens and underscores',
  },
  printing_not_active: { status: 400, text: 'Printing is not turned on for this event' },
  prints_not_paid: {
    status: 400,
    text: 'These prints are not paid for yet: buy prints first, or ask at the desk',
  },
  combo_digital_required: {
    status: 400,
    text: 'Prints are sold with the digital photos: buy the digital photos first',
  },
  photo_not_printable: { status: 400, text: 'This photo cannot be printed' },
  printer_pool_name_duplicate: { status: 400, text: 'Each printer queue name may appear once' },
  topic_key_required: { status: 400, text: 'Please enter the topic key' },
  topic_key_exists: { status: 400, text: 'A topic with this key already exists' },
  channel_name_required: { status: 400, text: 'Please enter the channel name' },
  channel_name_exists: { status: 400, text: 'A channel with this name already exists' },
  channel_email_subject_required: { status: 400, text: 'Please enter the e-mail subject' },
  channel_email_body_required: { status: 400, text: 'Please enter the e-mail body' },
  channel_sms_message_required: { status: 400, text: 'Please enter the SMS message' },
  channel_type_invalid: { status: 400, text: 'A channel is either e-mail or SMS' },
  stock_image_tags_invalid: {
    status: 400,
    text: 'Tags may contain only letters, digits, hyphens and underscores',
  },
  stock_image_thumbnail_required: { status: 400, text: 'Need custom thumbnail!' },
  tags_invalid: {
    status: 400,
    text: 'Tags may contain only letters, digits, hyphens and underscores',
  },
  date_range_invalid: { status: 400, text: 'The end date must be after the start date' },
  regex_invalid: { status: 400, text: 'This is not a valid pattern' },
  vip_regex_needs_regex: { status: 400, text: 'Enter the attendee id pattern first' },
  unlock_code_invalid: { status: 400, text: 'Unlock codes have 4 upper-case letters or digits' },
  unlock_code_name_invalid: {
    status: 400,
    text: 'Names cannot contain digits or special characters',
  },
  time_zone_invalid: {
    status: 400,
    text: 'Choose a time zone from the list (an IANA name such as Europe/Berlin)',
  },
  timezone_invalid: { status: 400, text: 'Choose a time zone between UTC-12:00 and UTC+13:00' },
  face_confidence_error: { status: 400, text: 'Face-recognition confidence is between 0 and 100' },
  unsupported_picture_format: { status: 400, text: 'Invalid or unsupported picture format' },
  unsupported_media_size: { status: 413, text: 'unsupported media size' },
  /** Guests' own photos: the event takes none from the public album (`enablePhotoUpl` off). */
  photo_upload_disabled: { status: 403, text: 'This event does not take photos from guests' },
  guest_upload_too_large: {
    status: 413,
    text: 'This photo is too large. Photos up to 25 MB can be added',
  },
  /** Attendees' own photos: the event takes none into their albums (`enableAttendeePhotoUpl` off). */
  attendee_photo_upload_disabled: {
    status: 403,
    text: 'This event does not take photos into your album',
  },
  invalid_key: { status: 401, text: 'The key is not valid for this event' },
  delete_reason_required: { status: 400, text: 'Please give a reason for deleting' },
  photo_too_large: { status: 400, text: 'The picture has too many pixels' },
  photo_truncated: { status: 400, text: 'The file is incomplete' },
  unsubscribe_link_invalid: {
    status: 400,
    text: 'This unsubscribe link is not valid',
  },
  verification_link_invalid: {
    status: 400,
    text: 'This verification link is not valid or has expired',
  },

  api_key_name_required: { status: 400, text: 'Give the API key a name' },
  // albums: mini-album links, sharing
  photos_required: { status: 400, text: 'Choose at least one photo' },
  recipient_required: { status: 400, text: 'Enter an e-mail address or a phone number' },
  phone_invalid: { status: 400, text: 'Enter a valid US phone number' },
  consent_required: { status: 400, text: 'Please agree before we send your photos' },
  sms_not_enabled: { status: 400, text: 'Sending by SMS is not enabled for this event' },
  email_not_collected: {
    status: 400,
    text: 'This event does not ask for e-mail addresses. Leave the e-mail field empty',
  },
  // leads
  lead_required: { status: 403, text: 'Please tell us who you are to open the album' },
  leads_not_collected: { status: 400, text: 'This event does not collect visitor details' },
  full_name_required: { status: 400, text: 'Please enter your name' },
  company_required: { status: 400, text: 'Please enter your company' },
  consent_outdated: {
    status: 400,
    text: 'The privacy text has changed: read and accept it again',
  },
  // attendees: attendee albums and kiosk cards
  invalid_attendee_id: { status: 404, text: 'This attendee id is not valid' },
  too_many_attendees: {
    status: 400,
    text: 'Name at most 20 attendees for one photo',
  },
  attendee_locked: { status: 403, text: 'This album has been locked by the event organiser' },
  attendee_expired: { status: 403, text: 'This album link has expired' },
  attendee_group_too_old: {
    status: 400,
    text: 'Cards older than 3 days cannot be grouped',
  },
  attendee_group_needs_two: { status: 400, text: 'Scan at least two different cards to group' },
  // the kiosk's staff controls
  invalid_staff_pin: { status: 403, text: 'This staff PIN is not right' },
  kiosk_staff_pin_not_set: {
    status: 409,
    text: 'No staff PIN is set for this event. Set one in the event settings (Options, Kiosk)',
  },
  staff_pin_format: { status: 400, text: 'A staff PIN is 4 to 8 digits' },
  // kiosk media and pass codes
  image_field_not_allowed: {
    status: 400,
    text: 'Only jpg, jpeg, png files are allowed.',
  },
  profile_photo_too_wide: { status: 400, text: 'Profile photos are at most 1500 pixels wide' },
  kiosk_photo_delete_off: {
    status: 403,
    text: 'Deleting photos at the kiosk is not allowed for this event',
  },
  vip_token_invalid: { status: 403, text: 'This VIP token is not valid for this event' },
  pass_code_taken: { status: 409, text: 'This pass code is already used at this event' },
  attendee_count_invalid: { status: 400, text: 'Generate between 1 and 1,000,000 attendees' },
  unlink_single_event: {
    status: 400,
    text: 'Unlinking photos is not allowed with more than one event selected',
  },
  // faces
  invalid_url: { status: 400, text: 'Only photos stored for this event can be used' },
  face_recognition_off: { status: 400, text: 'Face recognition is not enabled for this event' },
  face_not_found: { status: 400, text: 'No face was found in this photo' },
  several_faces: { status: 400, text: 'More than one face is in this photo. Take one of just you' },
  face_consent_required: {
    status: 400,
    text: 'Face recognition needs your consent first: accept the text to look up your photos',
  },
  face_consent_outdated: {
    status: 400,
    text: 'The face-recognition text has changed: read and accept it again',
  },
  // paid albums
  price_formula_invalid: {
    status: 400,
    text: 'This price formula does not parse. Use numbers, + - * / ( ), min, max, {Final_Amount} and {USER_TYPE}',
  },
  price_formula_division_by_zero: { status: 400, text: 'This price formula divides by zero' },
  price_formula_negative: { status: 400, text: 'This price formula comes out negative' },
  price_formula_too_large: {
    status: 400,
    text: 'This price formula comes to more than $1,000,000',
  },
  pricing_button_text_required: { status: 400, text: 'Please enter the button text' },
  pricing_button_product_required: {
    status: 400,
    text: 'A pricing button sells digital photos, prints or both',
  },
  pricing_buttons_too_many: { status: 400, text: 'An event has at most 20 pricing buttons' },
  invalid_unlock_code: { status: 400, text: 'This unlock code is not valid' },
  payment_provider_unavailable: {
    status: 409,
    text: 'Payments are not set up on this installation',
  },
  payment_method_not_offered: {
    status: 409,
    text: 'This way to pay is not offered for this event',
  },
  payment_amount_below_minimum: {
    status: 400,
    text: 'This amount is below the payment provider’s minimum ($0.50 online, $1.00 on a Square reader)',
  },
  payment_provider_error: {
    status: 502,
    text: 'The payment provider did not answer; please try again',
  },
  payment_provider_refused: {
    status: 502,
    text: 'The payment provider refused this payment; check the event’s payment settings',
  },
  square_access_token_required: { status: 400, text: 'Please enter the Square access token' },
  square_device_name_required: { status: 400, text: 'Please enter the card reader’s name' },
  square_location_required: { status: 400, text: 'Please choose the Square location' },
  square_create_device_error: {
    status: 502,
    text: 'Square did not create the device code; please try again',
  },
  square_device_required: {
    status: 400,
    text: 'This kiosk has no paired Square reader; open it with the link shown after pairing',
  },
  square_get_device_error: {
    status: 502,
    text: 'Square did not answer about the device code; please try again',
  },
  // organisation payment connections
  payment_secret_required: { status: 400, text: 'Please enter the provider’s key or token' },
  shopify_shop_invalid: {
    status: 400,
    text: 'Enter the shop’s myshopify.com domain (for example my-shop.myshopify.com)',
  },
  payment_connection_not_found: {
    status: 404,
    text: 'This provider is not connected for the organisation',
  },
  card_reader_not_found: { status: 404, text: 'Card reader not found' },
  // outgoing webhooks (operations)
  webhook_not_found: { status: 404, text: 'Webhook endpoint not found' },
  webhook_url_invalid: {
    status: 400,
    text: 'Enter the endpoint’s full http:// or https:// address',
  },
  webhook_url_private: {
    status: 400,
    text: 'This address is private or local; webhooks go to addresses on the internet',
  },
  webhook_event_types_required: { status: 400, text: 'Choose at least one kind of event' },
  webhook_disabled: { status: 409, text: 'Enable the endpoint first' },
  // backups and the integrity check (operations)
  backup_not_found: { status: 404, text: 'No backup was found in that folder' },
  backup_version_unsupported: {
    status: 409,
    text: 'This backup was made by a newer version of Flashbulb; upgrade first',
  },
  backup_schema_newer: {
    status: 409,
    text: 'This backup holds a newer database schema than this version of Flashbulb; upgrade first',
  },
  backup_corrupt: {
    status: 409,
    text: 'The backup does not match its checksums; nothing was restored',
  },
  backup_target_not_empty: {
    status: 409,
    text: 'This installation already holds data; restore onto an empty one (or force it)',
  },
  backup_secret_mismatch: {
    status: 409,
    text: 'The backup was made under another secret key; set the same FLASHBULB_SECRET_KEY',
  },
  backup_running: { status: 409, text: 'A backup is running already; wait for it to finish' },
  backup_busy: {
    status: 409,
    text: 'Jobs or uploads are still running; try the restore again when they have finished',
  },
  maintenance: {
    status: 503,
    text: 'Flashbulb is being restored from a backup; try again in a few minutes',
  },
  integrity_object_unknown: {
    status: 404,
    text: 'This object is not in the last integrity report; run the check again',
  },
  integrity_action_unavailable: {
    status: 409,
    text: 'This action does not apply to this object',
  },
  payment_not_paid: { status: 409, text: 'Only a paid payment can be refunded' },
  payment_refund_unsupported: {
    status: 409,
    text: 'This payment provider cannot refund from here; refund it in the provider’s dashboard',
  },
  card_invalid: {
    status: 400,
    text: 'Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined',
  },
  // album download
  download_not_allowed: {
    status: 403,
    text: 'Downloading is not available for these photos',
  },
  too_many_photos: { status: 400, text: 'Choose at most 500 photos to download at once' },
} as const satisfies Record<string, { status: number; text: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export const isErrorKey = (value: string): value is ErrorKey =>
  Object.prototype.hasOwnProperty.call(errorCatalogue, value);

export const errorStatus = (key: ErrorKey): number => errorCatalogue[key].status;
export const errorText = (key: ErrorKey): string => errorCatalogue[key].text;
