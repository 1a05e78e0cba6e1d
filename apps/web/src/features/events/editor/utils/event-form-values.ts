import {
  computeCachedTopicsData,
  DEFAULT_LEAD_TEXT,
  DEFAULT_PRINTER_POOL,
  DEFAULT_PRIVACY_POLICY_LINK,
  defaultEventSettings,
  eventRuleIssues,
  eventSettingsShape,
  isErrorKey,
  isValidTimeZone,
  SECURE_FIELDS,
  type BodyOf,
  type EventSettings,
  type FlashbulbEvent,
  type RuleIssue,
  type SecureField,
  type createEvent,
  type updateEvent,
} from '@flashbulb/shared';
import { z } from 'zod';

/** Add: a new event. Edit: an existing one. Copy: an edit turned into a create (owner-console §2). */
export type EditorMode = 'add' | 'edit' | 'copy';

/** Images filled in when their checkbox is ticked (shipped in apps/web/public). */
export const DEFAULT_WATERMARK_IMAGE = '/default-watermark.png';
export const DEFAULT_LOGO_IMAGE = '/default-logo.png';

export type WatermarkMode = 'template' | 'image';

/**
 * Checkbox states that are not stored as such: a number setting is "off" when null, but the box
 * may be ticked while the number is still being typed.
 */
export interface EditorUiState {
  streamOn: boolean;
  autoDeleteOn: boolean;
  archiveOn: boolean;
  photoDelayOn: boolean;
  vipDelayOn: boolean;
  watermarkMode: WatermarkMode;
}

export type SecureValues = Record<SecureField, string>;

/** The editor's form: the event settings as stored, plus organisation, secure inputs and UI state. */
export interface EventFormValues extends EventSettings {
  organisation_id: number | null;
  secure: SecureValues;
  ui: EditorUiState;
}

const emptySecure = (): SecureValues =>
  Object.fromEntries(SECURE_FIELDS.map((field) => [field, ''])) as SecureValues;

const settingKeys = Object.keys(eventSettingsShape) as (keyof EventSettings)[];

/** The editable part of an event as the server returned it. */
export const settingsOfEvent = (event: FlashbulbEvent): EventSettings =>
  structuredClone(
    Object.fromEntries(settingKeys.map((key) => [key, event[key]])) as unknown as EventSettings,
  );

/** Albums spec §4: a stored image source ticks its box, an empty one unticks it. */
const withWebAppImageFlags = (settings: EventSettings): EventSettings => {
  const o = settings.opts;
  const flag = (src: string): 0 | 1 => (src.trim() ? 1 : 0);
  return {
    ...settings,
    opts: {
      ...o,
      webappLogoEnabled: flag(o.webappLogoSrc),
      webappBackgroundEnabled: flag(o.webappBackgroundSrc),
      webappBannerTopEnabled: flag(o.webappBannerTopSrc),
      webappBannerBottomEnabled: flag(o.webappBannerBottomSrc),
    },
  };
};

/** A folder for a new event's uploads (`etc/new-x7k2q9/…`) until the event has its code. */
export const newUploadFolder = (): string =>
  `new-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36)).join('')}`;

/** The browser's own IANA zone: where a new event most likely happens. */
export const browserTimeZone = (): string => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimeZone(zone) ? zone : '';
};

export const formValuesOf = (
  event: FlashbulbEvent | null,
  organisationId: number | null,
): EventFormValues => {
  const settings = withWebAppImageFlags(
    event
      ? { ...settingsOfEvent(event), time_zone: event.time_zone ?? '' }
      : { ...defaultEventSettings(), time_zone: browserTimeZone() },
  );
  return {
    ...settings,
    organisation_id: event?.organisation_id ?? organisationId,
    secure: emptySecure(),
    ui: {
      streamOn: settings.photo_stream_available_minutes !== null,
      autoDeleteOn: settings.photo_auto_delete_days !== null,
      archiveOn: settings.instant_archive_days !== null,
      photoDelayOn: settings.opts.photoDelayMinutes !== null,
      vipDelayOn: settings.opts.photoDelayVipMinutes !== null,
      watermarkMode: settings.photo_watermark !== null ? 'image' : 'template',
    },
  };
};

/** Copy (owner-console §2): the title gets `_copy`, robots stay with the original event. */
export const copyOfValues = (values: EventFormValues): EventFormValues => ({
  ...structuredClone(values),
  full_name: `${values.full_name}_copy`,
  robot_id_array: [],
});

/**
 * The settings the form stands for: switched-off values are null or empty, defaults fill what the
 * spec says falls back to a default, derived data (cached topic texts) is recomputed.
 */
export const settingsOfValues = (values: EventFormValues): EventSettings => {
  const { organisation_id: _org, secure: _secure, ui, ...rest } = structuredClone(values);
  const s: Mutable<EventSettings> = rest;
  if (!ui.streamOn) s.photo_stream_available_minutes = null;
  if (!ui.autoDeleteOn) s.photo_auto_delete_days = null;
  if (!ui.archiveOn) s.instant_archive_days = null;
  if (!ui.photoDelayOn) s.opts.photoDelayMinutes = null;
  if (!ui.vipDelayOn) s.opts.photoDelayVipMinutes = null;
  if (s.opts.isPhotoDelayCheckTags !== 1) s.opts.photoDelayTagsMinutes = null;
  if (ui.watermarkMode === 'template') s.photo_watermark = null;
  else s.watermark_pt_id = null;
  if (s.is_photo_printer_active !== 1) s.is_print_every_photo = 0;
  if (s.is_printer_pool_enabled === 1) {
    const pools = (s.printer_pool_name_list ?? []).map((p) => p.trim()).filter(Boolean);
    s.printer_pool_name_list = pools.length ? pools : [DEFAULT_PRINTER_POOL];
  } else s.printer_pool_name_list = null;
  if (s.is_free === 1) s.protector_watermark = null;
  // A disabled field is not sent: the VIP pattern only counts next to an attendee-id pattern.
  if (!s.opts.attendeeIdRegex.trim()) s.opts.attendeeIdVipRegex = '';
  if (s.opts.enableAttendeePhotoUpl !== 1) {
    s.opts.attPhotoImgPrTag = '';
    s.opts.attPhotoImgMaxWidth = null;
    s.opts.attPhotoImgMaxHeight = null;
  }
  s.opts.stockImagesEnable = s.stock_images_enable === 1;
  // Albums spec §4: no kiosk stream without lead collection.
  if (s.collect_leads !== 1) s.opts.kioskStreamEnabled = 0;
  if (!s.lead_params.please_read_text.trim()) s.lead_params.please_read_text = DEFAULT_LEAD_TEXT;
  if (!s.lead_params.privacy_policy_link.trim())
    s.lead_params.privacy_policy_link = DEFAULT_PRIVACY_POLICY_LINK;
  s.notification_data.cachedTopicsData = computeCachedTopicsData(s.notification_data.topics);
  return s;
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const fieldRules = z.object(eventSettingsShape);

/** Stock-image date windows are typed as YYYY-MM-DD HH:mm (albums spec §3). */
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

const isMissing = (value: number | null): boolean => value === null || Number.isNaN(value);

/**
 * Every problem with the form, with the server's keys and field paths: the field rules of the
 * shared settings shape, then `eventRuleIssues` (so the editor refuses what the server refuses),
 * plus a ticked box whose number was left empty. One issue per field, in tab order.
 */
export const editorIssues = (values: EventFormValues): RuleIssue[] => {
  const settings = settingsOfValues(values);
  const issues: RuleIssue[] = [];
  const { ui } = values;
  if (ui.streamOn && isMissing(values.photo_stream_available_minutes))
    issues.push({
      field: 'photo_stream_available_minutes',
      key: 'max_photo_stream_avl_minutes_error',
    });
  if (ui.autoDeleteOn && isMissing(values.photo_auto_delete_days))
    issues.push({ field: 'photo_auto_delete_days', key: 'photo_delete_days_value_error' });
  if (ui.archiveOn && isMissing(values.instant_archive_days))
    issues.push({ field: 'instant_archive_days', key: 'instant_archive_days_error' });
  if (ui.photoDelayOn && isMissing(values.opts.photoDelayMinutes))
    issues.push({ field: 'opts.photoDelayMinutes', key: 'photo_delay_minutes_error' });
  if (ui.vipDelayOn && isMissing(values.opts.photoDelayVipMinutes))
    issues.push({ field: 'opts.photoDelayVipMinutes', key: 'photo_delay_minutes_error' });
  if (values.opts.isPhotoDelayCheckTags === 1 && isMissing(values.opts.photoDelayTagsMinutes))
    issues.push({ field: 'opts.photoDelayTagsMinutes', key: 'photo_delay_minutes_error' });

  values.opts.stockImages.forEach((image, i) => {
    for (const end of ['dateStart', 'dateEnd'] as const) {
      const value = image[end];
      if (value && !DATE_TIME_PATTERN.test(value))
        issues.push({ field: `opts.stockImages.${i}.${end}`, key: 'date_time_format_invalid' });
    }
  });

  const parsed = fieldRules.safeParse(settings);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      issues.push({
        field: issue.path.map(String).join('.'),
        key: isErrorKey(issue.message) ? issue.message : 'invalid_value',
      });
    }
  }
  issues.push(...eventRuleIssues(settings));

  const seen = new Set<string>();
  return issues.filter((issue) => {
    if (seen.has(issue.field)) return false;
    seen.add(issue.field);
    return true;
  });
};

export type CreateEventBody = BodyOf<typeof createEvent>;
export type UpdateEventBody = BodyOf<typeof updateEvent>;

/** Owner-console §3: secure fields are sent only when something was typed into them. */
export const secureFieldsToSend = (secure: SecureValues): Partial<SecureValues> =>
  Object.fromEntries(
    SECURE_FIELDS.filter((field) => secure[field].trim() !== '').map((field) => [
      field,
      secure[field],
    ]),
  );

export const createBody = (values: EventFormValues): CreateEventBody => ({
  ...settingsOfValues(values),
  ...secureFieldsToSend(values.secure),
  ...(values.organisation_id !== null ? { organisation_id: values.organisation_id } : {}),
});

export const updateBody = (values: EventFormValues, event: FlashbulbEvent): UpdateEventBody => ({
  ...settingsOfValues(values),
  ...secureFieldsToSend(values.secure),
  id: event.id,
  event_last_updated_date: event.updated_date,
});
