import { z } from 'zod';
import {
  EVENT_LIMITS,
  isUnlockCode,
  normaliseTopicKey,
  parseUnlockCodes,
} from '../../rules/event-rules.ts';
import { isValidEmail } from '../../rules/identity.ts';
import { isValidTimeZone } from '../../rules/event-time.ts';
import { GUEST_LANGUAGES, TRANSLATABLE_SETTINGS } from '../../i18n/languages.ts';
import { pricingButtonIssues, pricingButtonsSchema } from '../../rules/pricing-buttons.ts';
import {
  hasPlaceholder,
  isValidFileName,
  isValidPersonName,
  isValidPrinterPoolName,
  isValidPublicUrl,
  isValidTag,
  PLACEHOLDERS,
  stripTags,
} from '../../rules/text-rules.ts';

/**
 * Event settings: every field the editor edits, the typed `opts`, `notification_data`,
 * `lead_params` and `shopify_shipping_address`, their defaults (owner-console §3, §9; albums spec
 * §3) and every validation rule (owner-console §5, albums spec §5) — defined once, used by the
 * server on the merged event and by the editor on its form.
 */

// ---- building blocks ---------------------------------------------------------------------------

/** 0/1 flags; the legacy clients send booleans or "0"/"1" too. */
export const flagSchema = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.literal('0'), z.literal('1')], {
    error: 'invalid_value',
  })
  .transform((v): 0 | 1 => (v === 1 || v === true || v === '1' ? 1 : 0));
export const flagOutput = z.union([z.literal(0), z.literal(1)]);

const text = (max = 10_000) => z.string({ error: 'invalid_value' }).max(max, 'invalid_value');
const optionalInt = (min: number, max: number, key: string) =>
  z.number({ error: key }).int(key).min(min, key).max(max, key).nullable();

// ---- opts ---------------------------------------------------------------------------------------

export const stockImagePolicySchema = z.union([
  z.object({ inc: z.array(z.string()) }),
  z.object({ exc: z.array(z.string()) }),
  z.object({}),
]);

export const stockImageSchema = z.object({
  uid: z.string().min(1).max(64),
  imgUrl: z.string().max(2048),
  imgTmbUrl: z.string().max(2048),
  imgSize: z.number().nonnegative().describe('KB'),
  imgTmbSize: z.number().nonnegative().describe('KB'),
  dateStart: z.string().nullable().describe('YYYY-MM-DD HH:mm or null'),
  dateEnd: z.string().nullable(),
  policy: stockImagePolicySchema,
});
export type StockImage = z.infer<typeof stockImageSchema>;

export const lookForTagsSchema = z.object({
  tags: z.array(z.string()),
  action: z
    .object({ kind: z.literal('createAStory'), poolName: z.string(), tags: z.array(z.string()) })
    .nullable(),
});

/** The ways to pay an album page and a kiosk can offer. */
export const ALBUM_PAYMENT_METHODS = ['qr', 'paypal'] as const;
export const KIOSK_PAYMENT_METHODS = ['qr', 'square', 'terminal', 'shopify'] as const;
export type PaymentMethod =
  (typeof ALBUM_PAYMENT_METHODS)[number] | (typeof KIOSK_PAYMENT_METHODS)[number];

const optsShape = {
  // printing texts
  printHeaderMessage: text(2000).default(''),
  printFooterMessage: text(2000).default(''),
  printConfirmMessage: text(2000).default(''),
  printingConfirmationText: text(2000).default(''),
  // attendee ids
  attendeeIdRegex: text(500).default(''),
  attendeeIdVipRegex: text(500).default(''),
  vipToken: text(200).default(''),
  /** guests may delete photos of their album at a kiosk whose link allows it too. */
  allowKioskPhotoDelete: flagSchema.default(0),
  /**
   * What erasing an attendee (a privacy request) does with the photos uploaded with their id:
   * `delete` them, or `detach` them (the photo stays in the event, without the id).
   */
  erasePhotos: z.enum(['delete', 'detach'], { error: 'invalid_value' }).default('delete'),
  // shop
  shopDomain: text(255).default(''),
  shopOrderTags: text(500).default(''),
  shopPlusId: text(100).default(''),
  productCollections: z.array(z.string()).default([]),
  unitPrice: z.number().nonnegative().nullable().default(null),
  hideProductPrice: flagSchema.default(0),
  digitalProductMessage: text(2000).default(''),
  upsellEnabled: flagSchema.default(0),
  upsellMessage: text(2000).default(''),
  comboRequired: flagSchema.default(0),
  qrAtKioskCheckout: flagSchema.default(0),
  /**
   * the ways to pay the event's album page offers (`qr`: the phone checkout, Stripe or
   * the test provider; `paypal`: PayPal's card form) and its kiosks (`qr`, `square`: the paired
   * reader, `terminal`: the venue's payment terminal, `shopify`: the shop's draft orders). The
   * server refuses a start through a method not listed (`payment_method_not_offered`).
   */
  albumPaymentMethods: z
    .array(z.enum(ALBUM_PAYMENT_METHODS))
    .max(ALBUM_PAYMENT_METHODS.length)
    .default([...ALBUM_PAYMENT_METHODS]),
  kioskPaymentMethods: z
    .array(z.enum(KIOSK_PAYMENT_METHODS))
    .max(KIOSK_PAYMENT_METHODS.length)
    .default([...KIOSK_PAYMENT_METHODS]),
  /** What a paid event sells (albums spec §3): rules/pricing-buttons.ts. */
  pricingButtons: pricingButtonsSchema.default([]),
  // faces and selfies
  forcedIndexTags: z.array(z.string()).default([]),
  selfieExpirationMinutes: z.number().int().nonnegative().nullable().default(null),
  selfieAssociationMinutes: z.number().int().nonnegative().nullable().default(null),
  disableSelfies: flagSchema.default(0),
  faceRecognitionConfidence: z
    .number({ error: 'face_confidence_error' })
    .min(0, 'face_confidence_error')
    .max(100, 'face_confidence_error')
    .default(EVENT_LIMITS.defaultFaceConfidence),
  faceRecognitionText: text(2000).default(''),
  // web app behaviour
  redirectToWebApp: flagSchema.default(0),
  disableLinkPhotos: flagSchema.default(0),
  webappRegistrationType: z
    .enum(['default', 'byIdFirst'], { error: 'invalid_value' })
    .default('default'),
  sessionExpiryMinutes: z.number().int().positive().nullable().default(null),
  supportChatKey: text(500).default(''),
  agreementText: text(10_000).default(''),
  faqText: text(20_000).default(''),
  userContentTooltip: text(2000).default(''),
  userContentUploadMessage: text(2000).default(''),
  userContentProcessMessage: text(2000).default(''),
  timeInTimeText: text(2000).default(''),
  /**
   * Prints at a paid event: 0 (default) they follow the pricing — a locked album prints only the
   * prints a paid order bought; 1 the kiosk prints for free. A free event always prints freely.
   */
  printsFree: flagSchema.default(0),
  // stories
  storiesPrintPool: text(80).default(''),
  requiredTagsToGenerateStory: text(1000).default(''),
  lookForTagsInImages: lookForTagsSchema.nullable().default(null),
  // sizes, multipliers, links
  pictureSize: z.number().int().positive().default(EVENT_LIMITS.defaultPictureSize),
  eventMultiplier: z.number().positive().default(EVENT_LIMITS.defaultMultiplier),
  printMultiplier: z.number().positive().default(EVENT_LIMITS.defaultMultiplier),
  emailEnds: z
    .array(z.string())
    .default([
      'gmail.com',
      'yahoo.com',
      'hotmail.com',
      'msn.com',
      'mail.com',
      'icloud.com',
      'aol.com',
      'live.com',
    ]),
  pickupLocationNotificationTopic: text(200).default(''),
  supportLink: text(2048).default(''),
  description: text(5000).default(''),
  // flags stored as 1/0
  disableEventLabel: flagSchema.default(0),
  enableEmailCollect: flagSchema.default(0),
  enableAttendeeReminder: flagSchema.default(0),
  enablePhotoUpl: flagSchema.default(0),
  enableAttendeePhotoUpl: flagSchema.default(0),
  kioskWatermarkEnable: flagSchema.default(0),
  photoCashingForKioskEnabled: flagSchema.default(0),
  isPhotoDelayCheckTags: flagSchema.default(0),
  kioskStreamEnabled: flagSchema.default(0),
  // moderation: new photos wait for an operator's approval; operators' and roamers' may skip it
  moderationEnabled: flagSchema.default(0),
  moderationSkipOwnerUploads: flagSchema.default(0),
  // photo delay (minutes; null = off)
  photoDelayMinutes: optionalInt(
    0,
    EVENT_LIMITS.photoDelayMaxMinutes,
    'photo_delay_minutes_error',
  ).default(null),
  photoDelayVipMinutes: optionalInt(
    0,
    EVENT_LIMITS.photoDelayMaxMinutes,
    'photo_delay_minutes_error',
  ).default(null),
  photoDelayTagsMinutes: optionalInt(
    0,
    EVENT_LIMITS.photoDelayMaxMinutes,
    'photo_delay_minutes_error',
  ).default(null),
  photoDelayTags: z.array(z.string()).default([]),
  // slide show
  slideshowBg: text(2048).default(''),
  slideshowMinIntervalSeconds: z
    .number({ error: 'slideshow_interval_error' })
    .positive('slideshow_interval_error')
    .default(EVENT_LIMITS.defaultSlideshowMinSeconds),
  slideshowMaxIntervalSeconds: z
    .number({ error: 'slideshow_interval_error' })
    .positive('slideshow_interval_error')
    .default(EVENT_LIMITS.defaultSlideshowMaxSeconds),
  // guest pages: the event's accent colour, file names, public-album downloads and their size
  guestAccentColor: z
    .string({ error: 'invalid_value' })
    .regex(/^(#[0-9a-fA-F]{6})?$/, 'invalid_value')
    .default(''),
  guestShowFileNames: flagSchema.default(0),
  guestDownloadEnabled: flagSchema.default(1),
  /** Guests' album zips in the web size only, never originals (Pixieset's download size setting). */
  guestDownloadWebOnly: flagSchema.default(0),
  // guests' language: the event's default, whether the browser's preference may win, and the
  // operator's own texts per language ({ email_subject: { es: '…' } }, languages.ts)
  guestLanguage: z.enum(GUEST_LANGUAGES, { error: 'invalid_value' }).default('en'),
  guestLanguageAuto: flagSchema.default(1),
  textTranslations: z
    .partialRecord(
      z.enum(TRANSLATABLE_SETTINGS, { error: 'invalid_value' }),
      z.partialRecord(z.enum(GUEST_LANGUAGES, { error: 'invalid_value' }), text(20_000)),
    )
    .default({}),
  // web-app page (albums spec §2.6)
  webappLogoEnabled: flagSchema.default(0),
  webappLogoSrc: text(2048).default(''),
  webappBackgroundEnabled: flagSchema.default(0),
  webappBackgroundSrc: text(2048).default(''),
  webappBannerTopEnabled: flagSchema.default(0),
  webappBannerTopSrc: text(2048).default(''),
  webappBannerTopLink: text(2048).default(''),
  webappBannerBottomEnabled: flagSchema.default(0),
  webappBannerBottomSrc: text(2048).default(''),
  webappBannerBottomLink: text(2048).default(''),
  webappShareTitle: text(300).default(''),
  ogpTitle: text(300).default(''),
  ogpDescription: text(1000).default(''),
  webappSmsEnabled: flagSchema.default(0),
  webappSmsText: text(1000).default(''),
  webappSmsAgreement: text(2000).default(''),
  // attendee photo upload (only when enableAttendeePhotoUpl)
  attPhotoImgPrTag: text(100).default(''),
  attPhotoImgMaxWidth: z.number().int().positive().nullable().default(null),
  attPhotoImgMaxHeight: z.number().int().positive().nullable().default(null),
  // guests' own uploads (enablePhotoUpl, enableAttendeePhotoUpl): shown in the event's album (1),
  // or only in the uploader's own album (0; a public-album guest has none: operators only)
  guestUploadsPublic: flagSchema.default(1),
  // stock images (albums spec §3)
  stockImagesEnable: z.boolean().default(false),
  stockImages: z.array(stockImageSchema).default([]),
} as const;

export const eventOptsSchema = z.object(optsShape);
export type EventOpts = z.output<typeof eventOptsSchema>;
export const defaultEventOpts = (): EventOpts => eventOptsSchema.parse({});

// ---- notification data --------------------------------------------------------------------------

export const emailChannelSchema = z.object({
  id: z.string().regex(/^[0-9a-z]{10}$/, 'invalid_value'),
  name: z.string(),
  type: z.literal('email'),
  subject: z.string(),
  body: z.string(),
});
export const smsChannelSchema = z.object({
  id: z.string().regex(/^[0-9a-z]{10}$/, 'invalid_value'),
  name: z.string(),
  type: z.literal('sms'),
  message: z.string(),
});
export const channelSchema = z.discriminatedUnion('type', [emailChannelSchema, smsChannelSchema], {
  error: 'channel_type_invalid',
});
export type NotificationChannel = z.infer<typeof channelSchema>;

export const topicSchema = z.object({
  id: z.string().min(1).max(64),
  key: z.string(),
  emailChannel: emailChannelSchema.nullable(),
  smsChannel: smsChannelSchema.nullable(),
});
export type NotificationTopic = z.infer<typeof topicSchema>;

export const cachedTopicSchema = z.object({
  emailSubject: z.string(),
  emailBody: z.string(),
  SMSMessage: z.string(),
});

export const notificationDataSchema = z.object({
  topics: z.array(topicSchema).default([]),
  channels: z.array(channelSchema).default([]),
  cachedTopicsData: z.record(z.string(), cachedTopicSchema).default({}),
  smsSettings: z.object({ from: z.string().max(50).default('') }).default({ from: '' }),
});
export type NotificationData = z.output<typeof notificationDataSchema>;

/** Map from topic key to the texts of its attached channels, or empty strings (albums spec §3). */
export const computeCachedTopicsData = (
  topics: NotificationTopic[],
): NotificationData['cachedTopicsData'] =>
  Object.fromEntries(
    topics.map((t) => [
      t.key,
      {
        emailSubject: t.emailChannel?.subject ?? '',
        emailBody: t.emailChannel?.body ?? '',
        SMSMessage: t.smsChannel?.message ?? '',
      },
    ]),
  );

/** Topics carry copies of their channels: refresh them from the channel list, drop removed ones. */
export const syncTopicsWithChannels = (
  topics: NotificationTopic[],
  channels: NotificationChannel[],
): NotificationTopic[] =>
  topics.map((topic) => {
    const email = channels.find((c) => c.id === topic.emailChannel?.id && c.type === 'email');
    const sms = channels.find((c) => c.id === topic.smsChannel?.id && c.type === 'sms');
    return {
      ...topic,
      emailChannel: email && email.type === 'email' ? email : null,
      smsChannel: sms && sms.type === 'sms' ? sms : null,
    };
  });

// ---- lead params and shop address ---------------------------------------------------------------

export const DEFAULT_PRIVACY_POLICY_LINK = 'https://flashbulb.example/privacy';
export const DEFAULT_LEAD_TEXT = 'Please read and accept our privacy policy.';

export const leadParamsSchema = z.object({
  show_company_input_text: flagSchema.default(0),
  show_phone_input_text: flagSchema.default(0),
  show_agree_checkbox: flagSchema.default(0),
  please_read_text: text(2000).default(''),
  privacy_policy_link: text(2048).default(''),
});
export type LeadParams = z.output<typeof leadParamsSchema>;

export const shopifyShippingAddressSchema = z.object({
  shopifyFirstName: text(100).default(''),
  shopifyLastName: text(100).default(''),
  shopifyAddress1: text(200).default(''),
  shopifyAddress2: text(200).default(''),
  shopifyCountry: text(100).default(''),
  shopifyState: text(100).default(''),
  shopifyCity: text(100).default(''),
  shopifyZip: text(20).default(''),
  shopifyCompany: text(200).default(''),
  shopifyPhoneNumber: text(40).default(''),
});
export type ShopifyShippingAddress = z.output<typeof shopifyShippingAddressSchema>;

/** Fields the legacy client sends as JSON strings: accept a string or an object. */
export const jsonObject = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return {};
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return Symbol('invalid json');
    }
  }, schema);

// ---- the settings -------------------------------------------------------------------------------

export const SECURE_FIELDS = [
  'shopify_api_pass',
  'shopify_api_key',
  'stripe_secret_key',
  'flashbulb_api_token',
  'monobank_token',
  'square_access_token',
  /** The kiosk's staff PIN: opens the staff controls on the event's kiosks (checked by the server). */
  'kiosk_staff_pin',
] as const;
export type SecureField = (typeof SECURE_FIELDS)[number];

const idArray = z
  .array(z.number({ error: 'invalid_value' }).int('invalid_value').positive('invalid_value'), {
    error: 'invalid_value',
  })
  .max(500, 'invalid_value');

/** Every field the editor edits, with its type and field-level rule. */
export const eventSettingsShape = {
  full_name: text(200).describe('The event title'),
  is_visible: flagSchema.describe('Hidden events stay out of the default event list'),
  empty_album_text: text(5000),
  logo_full_path: text(2048).nullable(),
  logo_link: text(2048),
  email_for_reports: text(1000),
  hash_tag: text(200),
  robot_id_array: idArray,
  image_process_id_array: idArray,
  enable_facial_recognition: flagSchema,
  date_utc_diff_hours: z
    .number({ error: 'timezone_invalid' })
    .int('timezone_invalid')
    .min(EVENT_LIMITS.timezoneMinHours, 'timezone_invalid')
    .max(EVENT_LIMITS.timezoneMaxHours, 'timezone_invalid'),
  time_zone: z
    .string({ error: 'time_zone_invalid' })
    .trim()
    .refine((zone) => zone === '' || isValidTimeZone(zone), 'time_zone_invalid')
    .default('')
    .describe(
      'IANA time zone (`Europe/Berlin`); when set it wins over `date_utc_diff_hours`, daylight saving included',
    ),
  // e-mail
  email_subject: text(300),
  email_from_address: text(254),
  email_from_name: text(200),
  email_body_template: text(50_000),
  email_body_template_share: text(50_000),
  receipt_email_body: text(50_000),
  // sharing
  sharing_body_template: text(50_000),
  sharing_video_body_template: text(50_000),
  sharing_360_body_template: text(50_000),
  // sms
  sms_body_template: text(1000),
  is_sms_enabled: flagSchema,
  // photo
  photo_stream_available_minutes: z
    .number({ error: 'max_photo_stream_avl_minutes_error' })
    .int('max_photo_stream_avl_minutes_error')
    .nullable(),
  photo_auto_delete_days: z
    .number({ error: 'photo_delete_days_value_error' })
    .int('photo_delete_days_value_error')
    .nullable(),
  instant_archive_days: z
    .number({ error: 'instant_archive_days_error' })
    .int('instant_archive_days_error')
    .min(1, 'instant_archive_days_error')
    .max(EVENT_LIMITS.autoDeleteDaysMax, 'instant_archive_days_error')
    .nullable(),
  collect_leads: flagSchema,
  // printing
  is_photo_printer_active: flagSchema,
  print_from_all_albums: flagSchema,
  is_printer_pool_enabled: flagSchema,
  is_print_every_photo: flagSchema,
  printer_pool_name_list: z
    .array(z.string({ error: 'printer_pool_name_invalid' }), { error: 'printer_pool_name_invalid' })
    .max(100, 'printer_pool_name_invalid')
    .nullable(),
  max_print_copies_count: z
    .number({ error: 'photos_copy_count_error' })
    .int('photos_copy_count_error'),
  max_print_photos_count: z
    .number({ error: 'per_request_count_error' })
    .int('per_request_count_error'),
  ppt_id_array: idArray,
  place_holder_count: z
    .number({ error: 'invalid_value' })
    .int('invalid_value')
    .min(1, 'invalid_value')
    .max(20, 'invalid_value'),
  // paid
  is_free: flagSchema,
  protector_watermark: text(2048).nullable(),
  secret_code_list: text(20_000),
  // watermarks
  live_view_watermark: text(2048).nullable(),
  photo_watermark: text(2048).nullable(),
  watermark_pt_id: z
    .number({ error: 'invalid_value' })
    .int('invalid_value')
    .positive('invalid_value')
    .nullable(),
  stock_images_enable: flagSchema,
  // structured
  opts: jsonObject(eventOptsSchema),
  notification_data: jsonObject(notificationDataSchema),
  lead_params: jsonObject(leadParamsSchema),
  shopify_shipping_address: jsonObject(shopifyShippingAddressSchema),
} as const;

type SettingsShape = typeof eventSettingsShape;
export type EventSettings = { [K in keyof SettingsShape]: z.output<SettingsShape[K]> };
export type EventSettingsInput = { [K in keyof SettingsShape]?: z.input<SettingsShape[K]> };

export const DEFAULT_EMAIL_SUBJECT = 'Your photo from Flashbulb';
export const DEFAULT_EMAIL_FROM_NAME = 'Flashbulb Robot';

/** What a new event starts with (owner-console §9; templates are ours, the spec does not show them). */
export const defaultEventSettings = (): EventSettings => ({
  full_name: '',
  is_visible: 1,
  empty_album_text: 'Your photos will appear here soon.',
  logo_full_path: null,
  logo_link: '',
  email_for_reports: '',
  hash_tag: '',
  robot_id_array: [],
  image_process_id_array: [],
  enable_facial_recognition: 0,
  date_utc_diff_hours: 0,
  time_zone: '',
  email_subject: DEFAULT_EMAIL_SUBJECT,
  email_from_address: '',
  email_from_name: DEFAULT_EMAIL_FROM_NAME,
  email_body_template:
    '<p>Hi {user_name},</p><p>your photo is ready: <a href="{image_url}">{image_url}</a></p>',
  email_body_template_share:
    '<p>A photo was shared with you: <a href="{image_url}">{image_url}</a></p>',
  receipt_email_body: '<p>Hi {user_name}, thank you for your purchase.</p>',
  sharing_body_template: 'My photo: {image_url}',
  sharing_video_body_template: 'My video: {image_url}',
  sharing_360_body_template: 'My 360° photo: {image_url}',
  sms_body_template: 'Hi {user_name}, your photo: {image_url}',
  is_sms_enabled: 0,
  photo_stream_available_minutes: null,
  photo_auto_delete_days: null,
  instant_archive_days: null,
  collect_leads: 0,
  is_photo_printer_active: 0,
  print_from_all_albums: 0,
  is_printer_pool_enabled: 0,
  is_print_every_photo: 0,
  printer_pool_name_list: null,
  max_print_copies_count: EVENT_LIMITS.defaultCopiesCount,
  max_print_photos_count: EVENT_LIMITS.defaultPrintCount,
  ppt_id_array: [],
  place_holder_count: 1,
  is_free: 1,
  protector_watermark: null,
  secret_code_list: '',
  live_view_watermark: null,
  photo_watermark: null,
  watermark_pt_id: null,
  stock_images_enable: 0,
  opts: defaultEventOpts(),
  notification_data: notificationDataSchema.parse({}),
  lead_params: leadParamsSchema.parse({}),
  shopify_shipping_address: shopifyShippingAddressSchema.parse({}),
});

// ---- the rules ----------------------------------------------------------------------------------

export interface RuleIssue {
  /** Dotted path, e.g. `opts.supportLink`. */
  field: string;
  key: string;
}

const within = (value: number, min: number, max: number) => value >= min && value <= max;

/**
 * Every cross-field and content rule on a complete event (owner-console §5, albums spec §5), in
 * tab order. The server refuses the first; the editor marks them all.
 */
export const eventRuleIssues = (e: EventSettings): RuleIssue[] => {
  const issues: RuleIssue[] = [];
  const add = (field: string, key: string) => issues.push({ field, key });
  const L = EVENT_LIMITS;

  // General
  if (!e.full_name.trim()) add('full_name', 'title_required');
  if (!stripTags(e.empty_album_text).trim()) add('empty_album_text', 'emptyText_required');
  if (!e.opts.description.trim()) add('opts.description', 'description_required');
  if (e.logo_link.trim() && !isValidPublicUrl(e.logo_link)) add('logo_link', 'valid_url');
  if (e.opts.supportLink.trim() && !isValidPublicUrl(e.opts.supportLink))
    add('opts.supportLink', 'valid_url');
  if (
    e.email_for_reports.trim() &&
    !e.email_for_reports.split(',').every((a) => isValidEmail(a.trim()))
  ) {
    add('email_for_reports', 'email_invalid');
  }
  if (e.opts.attendeeIdRegex && !isValidRegex(e.opts.attendeeIdRegex))
    add('opts.attendeeIdRegex', 'regex_invalid');
  if (e.opts.attendeeIdVipRegex) {
    if (!e.opts.attendeeIdRegex.trim()) add('opts.attendeeIdVipRegex', 'vip_regex_needs_regex');
    else if (!isValidRegex(e.opts.attendeeIdVipRegex))
      add('opts.attendeeIdVipRegex', 'regex_invalid');
  }
  // Lead
  if (
    e.lead_params.privacy_policy_link.trim() &&
    !isValidPublicUrl(e.lead_params.privacy_policy_link)
  ) {
    add('lead_params.privacy_policy_link', 'valid_privacy_url');
  }
  // E-mail
  if (!e.email_from_address.trim()) add('email_from_address', 'address_required');
  else if (!isValidEmail(e.email_from_address)) add('email_from_address', 'email_invalid');
  if (!e.email_from_name.trim()) add('email_from_name', 'name_required');
  if (!e.email_body_template.trim()) add('email_body_template', 'body_required');
  else if (
    !hasPlaceholder(e.email_body_template, PLACEHOLDERS.userName) ||
    !hasPlaceholder(e.email_body_template, PLACEHOLDERS.imageUrl)
  ) {
    add('email_body_template', 'body_error');
  }
  if (
    !e.email_body_template_share.trim() ||
    !hasPlaceholder(e.email_body_template_share, PLACEHOLDERS.imageUrl)
  ) {
    add('email_body_template_share', 'body_share_error');
  }
  if (!e.receipt_email_body.trim()) add('receipt_email_body', 'receipt_email_body_required');
  else if (!hasPlaceholder(e.receipt_email_body, PLACEHOLDERS.userName))
    add('receipt_email_body', 'receipt_email_body_error');
  // Sharing
  if (!e.sharing_body_template.trim()) add('sharing_body_template', 'sharing_body_required');
  if (!e.sharing_video_body_template.trim())
    add('sharing_video_body_template', 'sharing_video_body_required');
  if (!e.sharing_360_body_template.trim())
    add('sharing_360_body_template', 'sharing_360_body_required');
  // SMS
  if (e.is_sms_enabled === 1) {
    if (!e.sms_body_template.trim()) add('sms_body_template', 'sms_body_required');
    else if (
      !hasPlaceholder(e.sms_body_template, PLACEHOLDERS.userName) ||
      !hasPlaceholder(e.sms_body_template, PLACEHOLDERS.imageUrl)
    ) {
      add('sms_body_template', 'sms_body_error');
    }
  }
  // Web-app SMS
  if (e.opts.webappSmsEnabled === 1) {
    const t = e.opts.webappSmsText.trim();
    const hasUser = t.includes(PLACEHOLDERS.webAppUserName);
    const hasUrl = t.includes(PLACEHOLDERS.url);
    if (!t) add('opts.webappSmsText', 'webapp_sms_text_required');
    else if (!hasUser && !hasUrl) add('opts.webappSmsText', 'webapp_sms_text_placeholders_missing');
    else if (!hasUser) add('opts.webappSmsText', 'webapp_sms_text_user_name_missing');
    else if (!hasUrl) add('opts.webappSmsText', 'webapp_sms_text_url_missing');
  }
  // Photo
  if (
    e.photo_stream_available_minutes !== null &&
    !within(e.photo_stream_available_minutes, L.streamMinutesMin, L.streamMinutesMax)
  ) {
    add('photo_stream_available_minutes', 'max_photo_stream_avl_minutes_error');
  }
  if (
    e.photo_auto_delete_days !== null &&
    !within(e.photo_auto_delete_days, L.autoDeleteDaysMin, L.autoDeleteDaysMax)
  ) {
    add('photo_auto_delete_days', 'photo_delete_days_value_error');
  } else if (
    e.photo_auto_delete_days !== null &&
    e.instant_archive_days !== null &&
    e.photo_auto_delete_days <= e.instant_archive_days
  ) {
    add('photo_auto_delete_days', 'photo_delete_days_archive_error');
  }
  if (e.opts.isPhotoDelayCheckTags === 1 && e.opts.photoDelayTags.some((t) => !isValidTag(t)))
    add('opts.photoDelayTags', 'tags_invalid');
  // Faces: forced index tags land on every indexed photo (letters, digits, - and _ only).
  if (e.opts.forcedIndexTags.some((t) => !isValidTag(t)))
    add('opts.forcedIndexTags', 'tags_invalid');
  // Printing
  if (!within(e.max_print_copies_count, L.printCountMin, L.printCountMax))
    add('max_print_copies_count', 'photos_copy_count_error');
  if (!within(e.max_print_photos_count, L.printCountMin, L.printCountMax))
    add('max_print_photos_count', 'per_request_count_error');
  else if (e.max_print_photos_count % e.place_holder_count !== 0)
    add('max_print_photos_count', 'print_count_placeholder_error');
  if (e.is_printer_pool_enabled === 1 && e.printer_pool_name_list) {
    if (e.printer_pool_name_list.some((n) => !isValidPrinterPoolName(n)))
      add('printer_pool_name_list', 'printer_pool_name_invalid');
    else if (new Set(e.printer_pool_name_list).size !== e.printer_pool_name_list.length)
      add('printer_pool_name_list', 'printer_pool_name_duplicate');
  }
  if (e.opts.storiesPrintPool && !isValidPrinterPoolName(e.opts.storiesPrintPool))
    add('opts.storiesPrintPool', 'printer_pool_name_invalid');
  // Paid
  for (const entry of parseUnlockCodes(e.secret_code_list)) {
    if (!isValidPersonName(entry.firstName) || !isValidPersonName(entry.lastName)) {
      add('secret_code_list', 'unlock_code_name_invalid');
      break;
    }
    if (!isUnlockCode(entry.code)) {
      add('secret_code_list', 'unlock_code_invalid');
      break;
    }
  }
  for (const issue of pricingButtonIssues(e.opts.pricingButtons, {
    unitPrice: e.opts.unitPrice,
    multiplier: e.opts.eventMultiplier,
    printMultiplier: e.opts.printMultiplier,
  }))
    add(issue.field, issue.key);
  // Slide show: each interval at most an hour, the maximum above the minimum.
  const slideshowLimit = EVENT_LIMITS.slideshowIntervalMaxSeconds;
  if (e.opts.slideshowMinIntervalSeconds > slideshowLimit)
    add('opts.slideshowMinIntervalSeconds', 'slideshow_interval_too_long');
  if (e.opts.slideshowMaxIntervalSeconds > slideshowLimit)
    add('opts.slideshowMaxIntervalSeconds', 'slideshow_interval_too_long');
  else if (e.opts.slideshowMaxIntervalSeconds <= e.opts.slideshowMinIntervalSeconds)
    add('opts.slideshowMaxIntervalSeconds', 'slideshow_interval_error');
  // Notifications
  const topicKeys = new Set<string>();
  e.notification_data.topics.forEach((topic, i) => {
    // Blank is blank, not "_": trim first, then spaces become underscores.
    const key = normaliseTopicKey(topic.key.trim());
    if (!key) add(`notification_data.topics.${i}.key`, 'topic_key_required');
    else if (topicKeys.has(key)) add(`notification_data.topics.${i}.key`, 'topic_key_exists');
    topicKeys.add(key);
  });
  const channelNames = new Set<string>();
  e.notification_data.channels.forEach((channel, i) => {
    const name = channel.name.trim();
    if (!name) add(`notification_data.channels.${i}.name`, 'channel_name_required');
    else if (channelNames.has(name))
      add(`notification_data.channels.${i}.name`, 'channel_name_exists');
    channelNames.add(name);
    if (channel.type === 'email') {
      if (!channel.subject.trim())
        add(`notification_data.channels.${i}.subject`, 'channel_email_subject_required');
      if (!channel.body.trim())
        add(`notification_data.channels.${i}.body`, 'channel_email_body_required');
    } else if (!channel.message.trim()) {
      add(`notification_data.channels.${i}.message`, 'channel_sms_message_required');
    }
  });
  // Stock images
  e.opts.stockImages.forEach((image, i) => {
    if (!image.imgTmbUrl.trim())
      add(`opts.stockImages.${i}.imgTmbUrl`, 'stock_image_thumbnail_required');
    const tags =
      'inc' in image.policy ? image.policy.inc : 'exc' in image.policy ? image.policy.exc : [];
    if (tags.some((t) => !isValidTag(t)))
      add(`opts.stockImages.${i}.policy`, 'stock_image_tags_invalid');
    const fileName = image.imgUrl.split('/').pop() ?? '';
    if (fileName && !isValidFileName(decodeURIComponentSafe(fileName)))
      add(`opts.stockImages.${i}.imgUrl`, 'file_name_invalid');
    if (image.dateStart && image.dateEnd && image.dateEnd < image.dateStart)
      add(`opts.stockImages.${i}.dateEnd`, 'date_range_invalid');
  });
  return issues;
};

/**
 * An operator's attendee-id pattern: it must compile, and use nothing the server's linear-time
 * engine (RE2) lacks — back-references (`\1`, `\k<name>`) and look-around (`(?=`, `(?!`, `(?<=`,
 * `(?<!`) — so the editor says so before saving. The server also compiles it with RE2 at save.
 */
const isValidRegex = (pattern: string): boolean => {
  try {
    new RegExp(pattern);
  } catch {
    return false;
  }
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return false;
      i += 1;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(' && pattern[i + 1] === '?') {
      const after = pattern.slice(i + 2, i + 4);
      if (/^[=!]/.test(after) || after === '<=' || after === '<!') return false;
    }
  }
  return true;
};

const decodeURIComponentSafe = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** Checks a merged event; for zod `superRefine` users and the server. */
export const eventSettingsSchema = z.object(eventSettingsShape).superRefine((value, ctx) => {
  for (const issue of eventRuleIssues(value)) {
    ctx.addIssue({
      code: 'custom',
      message: issue.key,
      path: issue.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    });
  }
});
