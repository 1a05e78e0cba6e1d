import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';
import {
  eventOptsSchema,
  eventSettingsShape,
  flagOutput,
  leadParamsSchema,
  notificationDataSchema,
  SECURE_FIELDS,
  shopifyShippingAddressSchema,
} from './event-settings.ts';
import { EVENT_LIMITS } from '../../rules/event-rules.ts';

// ---- shapes as returned -------------------------------------------------------------------------

const flag = flagOutput;

/** The event as the server returns it (owner-console §3). Secure fields never appear here. */
export const eventSchema = z.object({
  id: z.number().int(),
  name: z.string().describe('4-character short code'),
  organisation_id: z.number().int(),
  owner_api_key: z.string(),
  private_api_key: z.string(),
  public_api_key: z.string(),
  display_token: z
    .string()
    .describe(
      'Opens the lead gate for the organiser’s screens: kiosk, stream and slide-show links carry it as `display`',
    ),
  full_name: z.string(),
  is_visible: flag,
  empty_album_text: z.string(),
  logo_full_path: z.string().nullable(),
  logo_link: z.string(),
  email_for_reports: z.string(),
  hash_tag: z.string(),
  robot_id_array: z.array(z.number().int()),
  image_process_id_array: z.array(z.number().int()),
  enable_facial_recognition: flag,
  date_utc_diff_hours: z.number().int(),
  time_zone: z.string().describe('IANA time zone, or empty: `date_utc_diff_hours` applies'),
  email_subject: z.string(),
  email_from_address: z.string(),
  email_from_address_verified: z
    .boolean()
    .describe('Until verified, mail goes from the platform sender'),
  email_from_name: z.string(),
  email_body_template: z.string(),
  email_body_template_share: z.string(),
  receipt_email_body: z.string(),
  sharing_body_template: z.string(),
  sharing_video_body_template: z.string(),
  sharing_360_body_template: z.string(),
  sms_body_template: z.string(),
  is_sms_enabled: flag,
  photo_stream_available_minutes: z.number().int().nullable(),
  photo_auto_delete_days: z.number().int().nullable(),
  instant_archive_days: z.number().int().nullable(),
  collect_leads: flag,
  is_photo_printer_active: flag,
  print_from_all_albums: flag,
  is_printer_pool_enabled: flag,
  printer_pool_name_list: z.array(z.string()).nullable(),
  is_print_every_photo: flag,
  max_print_copies_count: z.number().int(),
  max_print_photos_count: z.number().int(),
  ppt_id_array: z.array(z.number().int()),
  place_holder_count: z.number().int(),
  is_free: flag,
  unlocked: flag,
  protector_watermark: z.string().nullable(),
  secret_code_list: z.string(),
  live_view_watermark: z.string().nullable(),
  photo_watermark: z.string().nullable(),
  watermark_pt_id: z.number().int().nullable(),
  stock_images_enable: flag,
  opts: eventOptsSchema,
  notification_data: notificationDataSchema,
  lead_params: leadParamsSchema,
  shopify_shipping_address: shopifyShippingAddressSchema,
  secure_fields_set: z
    .array(z.enum(SECURE_FIELDS))
    .describe('Which secure fields hold a value (never the values)'),
  updated_date: z.string().describe('ISO 8601; send back as event_last_updated_date on update'),
  created_date: z.string(),
});
export type FlashbulbEvent = z.infer<typeof eventSchema>;

export const basicEventSchema = eventSchema
  .pick({
    id: true,
    name: true,
    full_name: true,
    organisation_id: true,
    is_visible: true,
    logo_full_path: true,
    public_api_key: true,
    private_api_key: true,
    display_token: true,
    collect_leads: true,
    updated_date: true,
    created_date: true,
  })
  .extend({
    kiosk_stream_enabled: z
      .boolean()
      .default(false)
      .describe(
        'The kiosk stream is offered (`opts.kioskStreamEnabled`, which needs lead collection): the list shows its link only then',
      ),
  });
export type BasicEvent = z.infer<typeof basicEventSchema>;

// ---- write bodies -------------------------------------------------------------------------------

const secureFieldsShape = Object.fromEntries(
  SECURE_FIELDS.map((f) => [
    f,
    z.string({ error: 'invalid_value' }).max(2000, 'invalid_value').optional(),
  ]),
) as Record<(typeof SECURE_FIELDS)[number], z.ZodOptional<z.ZodString>>;
// A staff PIN is typed on a kiosk's keypad: 4 to 8 digits (empty keeps the stored one).
secureFieldsShape.kiosk_staff_pin = z
  .string({ error: 'staff_pin_format' })
  .trim()
  .regex(/^(\d{4,8})?$/, 'staff_pin_format')
  .optional();

/** Each editable field optional: what is sent replaces, what is missing stays (create: defaults). */
const settingsPatch = z.object(eventSettingsShape).partial().extend(secureFieldsShape);

export const createEvent = defineEndpoint({
  path: `${OWNER_PREFIX}/event/create`,
  auth: 'owner',
  tag: 'events',
  summary: 'Create an event in an organisation; answers the event with its code and keys',
  body: settingsPatch.extend({ organisation_id: idSchema.optional() }),
  result: eventSchema,
  errors: [
    'forbidden',
    'organisation_not_found',
    'robot_not_found',
    'robot_serves_other_event',
    'storage_reference_invalid',
    'image_process_not_found',
    'template_not_found',
    'title_required',
  ],
});

export const updateEvent = defineEndpoint({
  path: `${OWNER_PREFIX}/event/update`,
  auth: 'owner',
  tag: 'events',
  summary: 'Update an event; a stale event_last_updated_date answers 409 and changes nothing',
  body: settingsPatch.extend({
    id: idSchema,
    organisation_id: idSchema
      .optional()
      .describe('The organisation never changes: a different one is refused (403)'),
    event_last_updated_date: z
      .string({ error: 'event_was_updated_by_another_user' })
      .min(1, 'event_was_updated_by_another_user'),
  }),
  result: eventSchema,
  errors: [
    'forbidden',
    'event_not_found',
    'event_was_updated_by_another_user',
    'robot_not_found',
    'robot_serves_other_event',
    'storage_reference_invalid',
    'title_required',
  ],
});

export const deleteEvent = defineEndpoint({
  path: `${OWNER_PREFIX}/event/delete`,
  auth: 'owner',
  tag: 'events',
  summary: 'Delete an event (its robots are disconnected)',
  body: z.object({ event_id: idSchema }),
  result: z.object({}),
  errors: ['forbidden', 'event_not_found'],
});

export const eventBasicList = defineEndpoint({
  path: `${OWNER_PREFIX}/event/basic-list/retrieve`,
  auth: 'owner',
  tag: 'events',
  summary: 'Events the user may see (super: all; admin: organisation; owner: own), newest first',
  body: z.object({
    max_size: z
      .number()
      .int()
      .min(1, 'invalid_value')
      .max(EVENT_LIMITS.eventListPageSize, 'invalid_value')
      .default(EVENT_LIMITS.eventListPageSize),
    page_number: z.number().int().min(1, 'invalid_value').default(1),
    visibility: z.enum(['all', 'visible', 'hidden'], { error: 'invalid_value' }).default('all'),
    private_api_key: z
      .string()
      .max(200)
      .optional()
      .describe('Only the event with this private key'),
    organisation_id: idSchema.optional(),
  }),
  result: z.object({ events: z.array(basicEventSchema), total_count: z.number().int() }),
  errors: [],
});

export const eventFullData = defineEndpoint({
  path: `${OWNER_PREFIX}/event/full-data/retrieve`,
  auth: 'owner',
  tag: 'events',
  summary: 'The whole event by its code; answers an array (the first item is the event)',
  body: z.object({
    event_name: z
      .string({ error: 'event_not_found' })
      .trim()
      .min(1, 'event_not_found')
      .max(20, 'event_not_found'),
  }),
  result: z.array(eventSchema),
  errors: ['event_not_found'],
});

export const publicKeyTypes = ['event_owner', 'private', 'public', 'attendee', 'robot'] as const;
export type PublicKeyType = (typeof publicKeyTypes)[number];
export const keyTypeSchema = z.enum(publicKeyTypes, { error: 'invalid_key' });
/** The public twins' key: a wrong or missing key opens nothing (`unauthorized_user`). */
export const keyBody = {
  key_type: keyTypeSchema,
  key_value: z
    .string({ error: 'unauthorized_user' })
    .min(1, 'unauthorized_user')
    .max(200, 'unauthorized_user'),
};
/**
 * The kiosk's calls (card checks, adding to albums, camera photos, checkout and every sale, and
 * the cashier and desk: unlock, print, e-mail, grouping, profile photos, counter sales): the
 * event's private key and its display token, which only the organiser's kiosk links carry. A
 * private key alone (a guest's private-album link) is refused with `invalid_key` (field
 * `display`). Calls other keys make too (an attendee's own checkout) take theirs without it.
 */
export const kioskKeyBody = {
  ...keyBody,
  display: z
    .string({ error: 'invalid_key' })
    .trim()
    .max(200, 'invalid_key')
    .optional()
    .describe(
      'The event’s display token (`display_token`, in the organiser’s kiosk links as `display`): with the private key it makes the caller the kiosk',
    ),
};
/** Either a key (public twin) or an owner `Authorization` header: both key fields optional. */
export const optionalKeyBody = {
  key_type: keyTypeSchema.optional(),
  key_value: z.string().max(200, 'invalid_key').optional(),
};

// ---- what each key sees of its event (guest-safe presenters, docs/domains/access.md) ---------

const pickMask = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, true])) as { [P in K]: true };

/** Options the album and kiosk pages need: branding, texts, slide show, stock images. */
export const GUEST_EVENT_OPTS = [
  'description',
  'disableEventLabel',
  'supportLink',
  'agreementText',
  'faqText',
  'enableEmailCollect',
  'enablePhotoUpl',
  'enableAttendeePhotoUpl',
  'guestUploadsPublic',
  'userContentTooltip',
  'userContentUploadMessage',
  'userContentProcessMessage',
  'timeInTimeText',
  'redirectToWebApp',
  'disableLinkPhotos',
  'webappRegistrationType',
  'faceRecognitionText',
  'disableSelfies',
  'slideshowBg',
  'slideshowMinIntervalSeconds',
  'slideshowMaxIntervalSeconds',
  'guestAccentColor',
  'guestShowFileNames',
  'guestDownloadEnabled',
  'guestDownloadWebOnly',
  // The guests' language: the event's default, the browser's say, the operator's own texts.
  'guestLanguage',
  'guestLanguageAuto',
  'textTranslations',
  'webappLogoEnabled',
  'webappLogoSrc',
  'webappBackgroundEnabled',
  'webappBackgroundSrc',
  'webappBannerTopEnabled',
  'webappBannerTopSrc',
  'webappBannerTopLink',
  'webappBannerBottomEnabled',
  'webappBannerBottomSrc',
  'webappBannerBottomLink',
  'webappShareTitle',
  'ogpTitle',
  'ogpDescription',
  'webappSmsEnabled',
  'webappSmsText',
  'webappSmsAgreement',
  'kioskStreamEnabled',
  // A kiosk album opens with the public key too: its watermarked pictures and its photo cache.
  'kioskWatermarkEnable',
  'photoCashingForKioskEnabled',
  // The endings every guest e-mail input offers to complete an address with.
  'emailEnds',
  // The stock images themselves reach guests through the photo list: only those shown now.
  'stockImagesEnable',
] as const;
/** The private key is the kiosk's: printing texts, shop display, selfie timing besides. */
export const KIOSK_EVENT_OPTS = [
  ...GUEST_EVENT_OPTS,
  'printHeaderMessage',
  'printFooterMessage',
  'printConfirmMessage',
  'printingConfirmationText',
  'storiesPrintPool',
  'unitPrice',
  'hideProductPrice',
  'digitalProductMessage',
  'upsellEnabled',
  'upsellMessage',
  'comboRequired',
  'qrAtKioskCheckout',
  'albumPaymentMethods',
  'kioskPaymentMethods',
  'productCollections',
  'selfieExpirationMinutes',
  'selfieAssociationMinutes',
  'faceRecognitionConfidence',
  'sessionExpiryMinutes',
] as const;
/** A robot processes and prints what it uploads. */
export const ROBOT_EVENT_OPTS = [
  ...KIOSK_EVENT_OPTS,
  'pictureSize',
  'eventMultiplier',
  'printMultiplier',
  'attPhotoImgPrTag',
  'attPhotoImgMaxWidth',
  'attPhotoImgMaxHeight',
  'lookForTagsInImages',
  'requiredTagsToGenerateStory',
  'forcedIndexTags',
  'attendeeIdRegex',
  'isPhotoDelayCheckTags',
  'photoDelayMinutes',
  'photoDelayVipMinutes',
  'photoDelayTagsMinutes',
  'photoDelayTags',
] as const;

/** Public and attendee keys: what an album page shows. Never keys, templates, addresses or tokens. */
export const GUEST_EVENT_FIELDS = [
  'id',
  'name',
  'organisation_id',
  'full_name',
  'is_visible',
  'empty_album_text',
  'logo_full_path',
  'logo_link',
  'hash_tag',
  'date_utc_diff_hours',
  'time_zone',
  'enable_facial_recognition',
  'is_sms_enabled',
  'collect_leads',
  'lead_params',
  'photo_stream_available_minutes',
  'is_free',
  'unlocked',
  'live_view_watermark',
  'photo_watermark',
  'protector_watermark',
  'stock_images_enable',
  'opts',
] as const;
/** The private key (private albums, kiosks): the guest fields and the printing controls. */
export const PRIVATE_EVENT_FIELDS = [
  ...GUEST_EVENT_FIELDS,
  'is_photo_printer_active',
  'print_from_all_albums',
  'is_printer_pool_enabled',
  'printer_pool_name_list',
  'is_print_every_photo',
  'max_print_copies_count',
  'max_print_photos_count',
  'place_holder_count',
] as const;
/** Robot keys: the private fields and the processing set-up. */
export const ROBOT_EVENT_FIELDS = [
  ...PRIVATE_EVENT_FIELDS,
  'image_process_id_array',
  'ppt_id_array',
  'watermark_pt_id',
] as const;

const optsOf = (keys: readonly (keyof typeof eventOptsSchema.shape)[]) =>
  eventOptsSchema.pick(pickMask(keys));

export const guestEventSchema = eventSchema
  .pick(pickMask(GUEST_EVENT_FIELDS))
  .extend({ opts: optsOf(GUEST_EVENT_OPTS) });
export const privateEventSchema = eventSchema
  .pick(pickMask(PRIVATE_EVENT_FIELDS))
  .extend({ opts: optsOf(KIOSK_EVENT_OPTS) });
export const robotEventSchema = eventSchema
  .pick(pickMask(ROBOT_EVENT_FIELDS))
  .extend({ opts: optsOf(ROBOT_EVENT_OPTS) });
/**
 * The event-owner key is the event's operator credential (curation page, editor helpers), handed
 * to roaming photographers: no other key, no unlock codes, no display token (the kiosk's).
 */
export const ownerKeyEventSchema = eventSchema.omit({
  private_api_key: true,
  public_api_key: true,
  secret_code_list: true,
  display_token: true,
});
/** Widest first: an answer parses as the audience whose fields it has. */
export const keyEventSchema = z.union([
  ownerKeyEventSchema,
  robotEventSchema,
  privateEventSchema,
  guestEventSchema,
]);
export type KeyEvent = z.infer<typeof keyEventSchema>;

export const publicEventFullData = defineEndpoint({
  path: '/event/full-data/retrieve',
  auth: 'key',
  tag: 'events',
  summary:
    'Public twin: the event configuration for a robot, kiosk or album by key (the key alone names the event; event_name, when given, must match). Each key type gets its own allow-list of fields: public and attendee keys the album fields, the private key those and printing, robots those and processing, the event-owner key the event without the other keys, the unlock codes or the display token.',
  body: z.object({
    ...keyBody,
    event_name: z
      .string()
      .trim()
      .min(1, 'event_not_found')
      .max(20, 'event_not_found')
      .optional()
      .describe('Optional: album links carry only the key'),
  }),
  result: z.array(keyEventSchema),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'event_not_found',
    'robot_not_attached',
    'robot_other_event',
  ],
});

export const secureProps = defineEndpoint({
  path: `${OWNER_PREFIX}/event/secure-props/retrieve`,
  auth: 'owner',
  tag: 'events',
  summary: 'Decrypted secure fields of an event (admins of its organisation and super users only)',
  body: z.object({
    event_name: z.string().trim().min(1, 'event_not_found').max(20, 'event_not_found'),
  }),
  result: z.object(
    Object.fromEntries(SECURE_FIELDS.map((f) => [f, z.string()])) as Record<
      (typeof SECURE_FIELDS)[number],
      z.ZodString
    >,
  ),
  errors: ['forbidden', 'event_not_found'],
});
