// The rules of an event's settings, pure: the code, the patch a body carries, normalising,
// validation, stock-image edits, the stored objects a setting names, and the columns and
// relations a save writes. EventService applies them.
import { ownerPatternUsable } from '../../lib/owner-pattern.ts';
import { randomInt } from 'node:crypto';
import {
  computeCachedTopicsData,
  EVENT_CODE_ALPHABET,
  EVENT_CODE_LENGTH,
  EVENT_LIMITS,
  eventRuleIssues,
  eventSettingsShape,
  isErrorKey,
  normaliseTopicKey,
  syncTopicsWithChannels,
  type createEvent,
  type EventSettings,
  type ParsedBodyOf,
  type updateEvent,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EventRelations } from '../../repositories/events/event.repository.ts';
import { signedInUserOf, type Principal } from '../../access/principal.ts';
import { isSuperUser } from '../../access/roles.ts';
import {
  resolveStorageReference,
  type ReferenceOptions,
  type ReferenceOwner,
} from '../../storage/owned-references.ts';
import { SETTINGS_COLUMN_KEYS } from './event-settings.ts';

type CreateEventInput = ParsedBodyOf<typeof createEvent>;
type UpdateEventInput = ParsedBodyOf<typeof updateEvent>;

export const CODE_ATTEMPTS = 20;
export const generateEventCode = (): string =>
  Array.from(
    { length: EVENT_CODE_LENGTH },
    () => EVENT_CODE_ALPHABET[randomInt(EVENT_CODE_ALPHABET.length)],
  ).join('');

const SETTINGS_KEYS = new Set(Object.keys(eventSettingsShape));

/** The settings a body carries: present fields only (missing ones keep their value). */
export const settingsPatch = (input: CreateEventInput | UpdateEventInput): Partial<EventSettings> =>
  Object.fromEntries(
    Object.entries(input).filter(([key, value]) => SETTINGS_KEYS.has(key) && value !== undefined),
  );

const unique = (ids: number[]): number[] => [...new Set(ids)];

/**
 * What the server makes of a merged event before checking it: printer pool defaults, topic keys
 * with underscores, topic channel copies refreshed from the channel list, the cached topic texts,
 * the stock-image switch kept in step in both places it lives, id lists without repeats.
 */
export const normalise = (
  settings: EventSettings,
  patch: Partial<EventSettings>,
): EventSettings => {
  const poolNames = (settings.printer_pool_name_list ?? []).map((n) => n.trim()).filter(Boolean);
  const topics = syncTopicsWithChannels(
    settings.notification_data.topics.map((t) => ({ ...t, key: normaliseTopicKey(t.key.trim()) })),
    settings.notification_data.channels,
  );
  const stockImagesOn =
    patch.stock_images_enable !== undefined
      ? patch.stock_images_enable === 1
      : patch.opts !== undefined
        ? patch.opts.stockImagesEnable
        : settings.stock_images_enable === 1;
  return {
    ...settings,
    printer_pool_name_list:
      settings.is_printer_pool_enabled === 1
        ? poolNames.length
          ? poolNames
          : [EVENT_LIMITS.defaultPrinterPool]
        : null,
    notification_data: {
      ...settings.notification_data,
      topics,
      cachedTopicsData: computeCachedTopicsData(topics),
    },
    stock_images_enable: stockImagesOn ? 1 : 0,
    opts: { ...settings.opts, stockImagesEnable: stockImagesOn },
    robot_id_array: unique(settings.robot_id_array),
    image_process_id_array: unique(settings.image_process_id_array),
    ppt_id_array: unique(settings.ppt_id_array),
  };
};

/** The first rule the event breaks, as the editor would report it. */
export const assertValid = (settings: EventSettings): void => {
  const [issue] = eventRuleIssues(settings);
  if (issue) throw new AppError(isErrorKey(issue.key) ? issue.key : 'invalid_value', issue.field);
  // Attendee-id patterns run on RE2 (lib/owner-pattern.ts): one it cannot compile is refused here.
  for (const field of ['attendeeIdRegex', 'attendeeIdVipRegex'] as const) {
    const pattern = settings.opts[field];
    if (pattern && !ownerPatternUsable(pattern))
      throw new AppError('regex_invalid', `opts.${field}`);
  }
};

/**
 * Stock images: only super users upload or change an image or its thumbnail, add rows or delete
 * them (albums spec §6); others may change a row's date window and tag policy. The first row
 * that breaks this is named.
 */
export const assertStockImageEdits = (
  principal: Principal,
  before: EventSettings['opts']['stockImages'],
  after: EventSettings['opts']['stockImages'],
): void => {
  const actor = signedInUserOf(principal);
  if (actor && isSuperUser(actor)) return;
  const old = new Map(before.map((image) => [image.uid, image]));
  after.forEach((image, i) => {
    const was = old.get(image.uid);
    if (!was) throw new AppError('forbidden', `opts.stockImages.${i}.uid`);
    if (was.imgTmbUrl !== image.imgTmbUrl || was.imgTmbSize !== image.imgTmbSize)
      throw new AppError('forbidden', `opts.stockImages.${i}.imgTmbUrl`);
    if (was.imgUrl !== image.imgUrl || was.imgSize !== image.imgSize)
      throw new AppError('forbidden', `opts.stockImages.${i}.imgUrl`);
    old.delete(image.uid);
  });
  if (old.size > 0) throw new AppError('forbidden', 'opts.stockImages');
};

/** Every setting that names a stored object, and whether the browser (not a job) loads it. */
const storageReferenceFields = (
  settings: EventSettings,
): { field: string; value: string | null; external: ReferenceOptions['external'] }[] => [
  // Read by the derivatives and image-process jobs: stored or bundled only.
  { field: 'photo_watermark', value: settings.photo_watermark, external: false },
  { field: 'live_view_watermark', value: settings.live_view_watermark, external: false },
  { field: 'protector_watermark', value: settings.protector_watermark, external: false },
  // Loaded by browsers and mail readers: a URL elsewhere is theirs to fetch.
  { field: 'logo_full_path', value: settings.logo_full_path, external: 'image' },
  { field: 'opts.webappLogoSrc', value: settings.opts.webappLogoSrc, external: 'http' },
  { field: 'opts.webappBackgroundSrc', value: settings.opts.webappBackgroundSrc, external: 'http' },
  { field: 'opts.webappBannerTopSrc', value: settings.opts.webappBannerTopSrc, external: 'http' },
  {
    field: 'opts.webappBannerBottomSrc',
    value: settings.opts.webappBannerBottomSrc,
    external: 'http',
  },
  ...settings.opts.stockImages.flatMap((image, i) => [
    { field: `opts.stockImages.${i}.imgUrl`, value: image.imgUrl, external: 'http' as const },
    { field: `opts.stockImages.${i}.imgTmbUrl`, value: image.imgTmbUrl, external: 'http' as const },
  ]),
];

/**
 * A setting naming a stored object names one of the owner's own (storage/owned-references.ts).
 * Values kept from before are not re-judged here (a job re-checks whatever it reads), so an event
 * saved long ago stays editable; every new value is.
 */
export const assertStorageReferences = (
  settings: EventSettings,
  before: EventSettings | null,
  owner: ReferenceOwner,
  publicPrefix: string | undefined,
): void => {
  const kept = new Set(
    before ? storageReferenceFields(before).map((f) => `${f.field}\u0000${f.value ?? ''}`) : [],
  );
  for (const { field, value, external } of storageReferenceFields(settings)) {
    if (kept.has(`${field}\u0000${value ?? ''}`)) continue;
    const options = publicPrefix === undefined ? { external } : { external, publicPrefix };
    if (!resolveStorageReference(value, owner, options))
      throw new AppError('storage_reference_invalid', field);
  }
};

export const columnsOf = (settings: EventSettings) => {
  const columns = {} as Record<(typeof SETTINGS_COLUMN_KEYS)[number], unknown>;
  for (const key of SETTINGS_COLUMN_KEYS) columns[key] = settings[key];
  return columns as Omit<
    EventSettings,
    'robot_id_array' | 'image_process_id_array' | 'ppt_id_array'
  >;
};

export const relationsOf = (settings: EventSettings): EventRelations => ({
  robotIds: settings.robot_id_array,
  imageProcessIds: settings.image_process_id_array,
  pptIds: settings.ppt_id_array,
});
