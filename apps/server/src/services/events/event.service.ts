import { ownerPatternUsable } from '../../lib/owner-pattern.ts';
import { randomInt } from 'node:crypto';
import {
  computeCachedTopicsData,
  defaultEventSettings,
  EVENT_CODE_ALPHABET,
  EVENT_CODE_LENGTH,
  EVENT_LIMITS,
  eventRuleIssues,
  eventSettingsShape,
  isErrorKey,
  normaliseTopicKey,
  Role,
  SECURE_FIELDS,
  syncTopicsWithChannels,
  type BasicEvent,
  type createEvent,
  type eventBasicList,
  type EventSettings,
  type FlashbulbEvent,
  type KeyEvent,
  type ParsedBodyOf,
  type publicEventFullData,
  type SecureField,
  type updateEvent,
} from '@flashbulb/shared';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/secret-box.ts';
import type {
  EventListFilter,
  EventRecord,
  EventRelations,
  EventRepository,
  EventRow,
} from '../../repositories/events/event.repository.ts';
import type { ImageProcessRepository } from '../../repositories/printing/image-process.repository.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import type { RobotRepository } from '../../repositories/events/robot.repository.ts';
import type { AccessControl } from '../../access/access-control.ts';
import { userPrincipal, type Principal } from '../../access/principal.ts';
import { presentEventForKey } from '../../presenters/event.presenter.ts';
import {
  resolveStorageReference,
  type ReferenceOptions,
  type ReferenceOwner,
} from '../../storage/owned-references.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { EventFromAddressService } from '../messaging/event-from-address.service.ts';
import {
  mapEventToBasic,
  mapEventToResponse,
  SETTINGS_COLUMN_KEYS,
  settingsOfRecord,
} from './event-mapper.ts';

export type CreateEventInput = ParsedBodyOf<typeof createEvent>;
export type UpdateEventInput = ParsedBodyOf<typeof updateEvent>;
export type EventListInput = ParsedBodyOf<typeof eventBasicList>;

/** Writes the public settings file of an event (share bucket); absent until storage is wired. */
export interface EventSettingsFilePublisher {
  publish(event: FlashbulbEvent): Promise<void>;
  remove(eventName: string): Promise<void>;
}

const CODE_ATTEMPTS = 20;
const generateEventCode = (): string =>
  Array.from(
    { length: EVENT_CODE_LENGTH },
    () => EVENT_CODE_ALPHABET[randomInt(EVENT_CODE_ALPHABET.length)],
  ).join('');

const SETTINGS_KEYS = new Set(Object.keys(eventSettingsShape));

/** The settings a body carries: present fields only (missing ones keep their value). */
const settingsPatch = (input: CreateEventInput | UpdateEventInput): Partial<EventSettings> =>
  Object.fromEntries(
    Object.entries(input).filter(([key, value]) => SETTINGS_KEYS.has(key) && value !== undefined),
  );

const unique = (ids: number[]): number[] => [...new Set(ids)];

/**
 * What the server makes of a merged event before checking it: printer pool defaults, topic keys
 * with underscores, topic channel copies refreshed from the channel list, the cached topic texts,
 * the stock-image switch kept in step in both places it lives, id lists without repeats.
 */
const normalise = (settings: EventSettings, patch: Partial<EventSettings>): EventSettings => {
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
const assertValid = (settings: EventSettings): void => {
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
const assertStockImageEdits = (
  principal: Principal,
  before: EventSettings['opts']['stockImages'],
  after: EventSettings['opts']['stockImages'],
): void => {
  if (principal.kind === 'user' && principal.actor.role === Role.SUPER_USER) return;
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
const assertStorageReferences = (
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

const columnsOf = (settings: EventSettings) => {
  const columns = {} as Record<(typeof SETTINGS_COLUMN_KEYS)[number], unknown>;
  for (const key of SETTINGS_COLUMN_KEYS) columns[key] = settings[key];
  return columns as Omit<
    EventSettings,
    'robot_id_array' | 'image_process_id_array' | 'ppt_id_array'
  >;
};

const relationsOf = (settings: EventSettings): EventRelations => ({
  robotIds: settings.robot_id_array,
  imageProcessIds: settings.image_process_id_array,
  pptIds: settings.ppt_id_array,
});

/** Events: create, update (optimistic concurrency), delete, lists and reads. */
export class EventService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      robots: RobotRepository;
      imageProcesses: ImageProcessRepository;
      templates: PrintTemplateRepository;
      organisations: OrganisationRepository;
      access: AccessControl;
      fromAddress: EventFromAddressService;
      secrets: SecretBox;
      clock: Clock;
      settingsFile?: EventSettingsFilePublisher | undefined;
      /** `storage.publicUrl('x')` minus the `x`: pasted public URLs of owned files are accepted. */
      publicStoragePrefix?: string;
      /** `event.updated` after a saved update. */
      bus?: SignalEmitter;
    },
  ) {}

  async create(actor: SignedInUser, input: CreateEventInput): Promise<FlashbulbEvent> {
    const organisationId = await this.organisationForCreate(actor, input.organisation_id);
    const patch = settingsPatch(input);
    const settings = normalise({ ...defaultEventSettings(), ...patch }, patch);
    assertValid(settings);
    assertStorageReferences(
      settings,
      null,
      { organisationId, eventCode: null },
      this.deps.publicStoragePrefix,
    );
    await this.assertRelationsUsable(userPrincipal(actor), settings, organisationId, null);

    const now = this.deps.clock.now();
    let created: EventRecord | undefined;
    // 31^4 codes: a collision is rare, and a new code is drawn each time.
    for (let attempt = 0; attempt < CODE_ATTEMPTS && !created; attempt++) {
      created = await this.deps.events.create(
        {
          name: generateEventCode(),
          organisationId,
          ownerUserId: actor.userId,
          keys: { owner: this.newKey(), private: this.newKey(), public: this.newKey() },
          settings: columnsOf(settings),
          secureFields: this.sealSecureFields({}, input),
          createdAt: now,
        },
        relationsOf(settings),
      );
    }
    if (!created) throw new Error('No free event code after several attempts');
    await this.deps.fromAddress.requestVerification(created.row);
    return this.afterSave(created);
  }

  /**
   * Fields present replace, missing ones stay. The merged event is checked as a whole; then it
   * is written only if nobody saved since `event_last_updated_date` (checked in the same
   * statement as the write), else 409 and nothing changes.
   */
  async update(principal: Principal, input: UpdateEventInput): Promise<FlashbulbEvent> {
    const { event: current } = await this.deps.access.requireEventAccess(
      principal,
      'event.manage',
      { eventId: input.id, field: 'id' },
    );
    const row = current.row;
    // The organisation of an event never changes (owner-console §2): saying otherwise is refused.
    if (input.organisation_id !== undefined && input.organisation_id !== row.organisationId)
      throw new AppError('forbidden', 'organisation_id');
    const patch = settingsPatch(input);
    const stored = settingsOfRecord(current);
    const settings = normalise({ ...stored, ...patch }, patch);
    assertValid(settings);
    assertStockImageEdits(principal, stored.opts.stockImages, settings.opts.stockImages);
    assertStorageReferences(
      settings,
      stored,
      { organisationId: row.organisationId, eventCode: row.name },
      this.deps.publicStoragePrefix,
    );
    await this.assertRelationsUsable(principal, settings, row.organisationId, row.id);

    const expected = new Date(input.event_last_updated_date);
    if (Number.isNaN(expected.getTime()))
      throw new AppError('event_was_updated_by_another_user', 'event_last_updated_date');
    const addressChanged = settings.email_from_address !== row.email_from_address;
    const updated = await this.deps.events.update(
      row.id,
      expected,
      {
        settings: columnsOf(settings),
        secureFields: this.sealSecureFields(row.secureFields, input),
        emailFromAddressVerified: addressChanged ? false : row.emailFromAddressVerified,
      },
      relationsOf(settings),
      this.deps.clock.now(),
    );
    if (!updated)
      throw new AppError('event_was_updated_by_another_user', 'event_last_updated_date');
    if (addressChanged) await this.deps.fromAddress.requestVerification(updated.row);
    await this.deps.bus?.emit('event.updated', { eventId: updated.row.id });
    return this.afterSave(updated);
  }

  async delete(principal: Principal, eventId: number): Promise<void> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    await this.deps.events.delete(event.row.id);
    await this.deps.settingsFile?.remove(event.row.name);
  }

  /** Super users: all (or one organisation); admins: their organisation; owners: their events. */
  async basicList(
    actor: SignedInUser,
    input: EventListInput,
  ): Promise<{ events: BasicEvent[]; total_count: number }> {
    const filter: EventListFilter = {};
    if (actor.role === Role.SUPER_USER) {
      if (input.organisation_id !== undefined) filter.organisationId = input.organisation_id;
    } else {
      if (actor.organisationId === null) return { events: [], total_count: 0 };
      if (input.organisation_id !== undefined && input.organisation_id !== actor.organisationId)
        throw new AppError('forbidden', 'organisation_id');
      filter.organisationId = actor.organisationId;
      if (actor.role === Role.EVENT_OWNER) filter.ownerUserId = actor.userId;
    }
    if (input.visibility !== 'all') filter.isVisible = input.visibility === 'visible' ? 1 : 0;
    if (input.private_api_key !== undefined)
      filter.privateKeyHash = hashToken(input.private_api_key.trim());
    const { rows, total } = await this.deps.events.list(
      filter,
      input.max_size,
      (input.page_number - 1) * input.max_size,
    );
    return {
      events: rows.map((row) => mapEventToBasic(row, this.deps.secrets)),
      total_count: total,
    };
  }

  async fullData(principal: Principal, eventName: string): Promise<FlashbulbEvent[]> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventName,
    });
    return [mapEventToResponse(event, this.deps.secrets)];
  }

  /**
   * Public twin: the event for the holder of one of its keys, through the key type's allow-list
   * (presenters/event.presenter.ts). With `event_name` the key must be that event's.
   */
  async fullDataByKey(
    principal: Principal,
    input: Pick<ParsedBodyOf<typeof publicEventFullData>, 'event_name'>,
  ): Promise<KeyEvent[]> {
    const { event, keyType } = await this.deps.access.requireEventAccess(
      principal,
      'event.read_by_key',
      input.event_name ? { eventName: input.event_name } : { keyEvent: true },
    );
    return [presentEventForKey(keyType!, mapEventToResponse(event, this.deps.secrets))];
  }

  /** Decrypted secure fields: admins of the event's organisation and super users only. */
  async secureProps(principal: Principal, eventName: string): Promise<Record<SecureField, string>> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.secure_fields', {
      eventName,
    });
    const sealed = event.row.secureFields;
    return Object.fromEntries(
      SECURE_FIELDS.map((f) => {
        const value = sealed[f];
        return [f, value ? this.deps.secrets.decrypt(value) : ''];
      }),
    ) as Record<SecureField, string>;
  }

  async stockImages(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    const settings = settingsOfRecord(event);
    return {
      stock_images_enable: settings.stock_images_enable === 1,
      stock_images: settings.opts.stockImages,
    };
  }

  private async afterSave(event: EventRecord): Promise<FlashbulbEvent> {
    const response = mapEventToResponse(event, this.deps.secrets);
    await this.deps.settingsFile?.publish(response);
    return response;
  }

  /** Super users name the organisation; admins and owners create in their own. */
  private async organisationForCreate(actor: SignedInUser, requested: number | undefined) {
    if (actor.role === Role.SUPER_USER) {
      if (requested === undefined) throw new AppError('organisation_not_found', 'organisation_id');
      if (!(await this.deps.organisations.findById(requested)))
        throw new AppError('organisation_not_found', 'organisation_id');
      return requested;
    }
    if (actor.organisationId === null) throw new AppError('forbidden');
    if (requested !== undefined && requested !== actor.organisationId)
      throw new AppError('forbidden', 'organisation_id');
    return actor.organisationId;
  }

  /**
   * Robots, image processes and templates named by the event must be its organisation's. A robot
   * serving another event moves only for a caller who may manage that event too: otherwise anyone
   * able to edit one event could take a colleague's booth, whose next photos would land in theirs.
   */
  private async assertRelationsUsable(
    principal: Principal,
    settings: EventSettings,
    organisationId: number,
    eventId: number | null,
  ) {
    const missing = (wanted: number[], found: number[]) => wanted.some((id) => !found.includes(id));
    const [places, processes, templates, watermark] = await Promise.all([
      this.deps.robots.placesInOrganisation(settings.robot_id_array, organisationId),
      this.deps.imageProcesses.idsInOrganisation(settings.image_process_id_array, organisationId),
      this.deps.templates.usableIds(settings.ppt_id_array, organisationId, false),
      settings.watermark_pt_id === null
        ? Promise.resolve([])
        : this.deps.templates.usableIds([settings.watermark_pt_id], organisationId, true),
    ]);
    if (
      missing(
        settings.robot_id_array,
        places.map((p) => p.id),
      )
    )
      throw new AppError('robot_not_found', 'robot_id_array');
    const servedElsewhere = new Set(
      places.flatMap((p) => (p.eventId !== null && p.eventId !== eventId ? [p.eventId] : [])),
    );
    for (const otherEventId of servedElsewhere) {
      try {
        await this.deps.access.requireEventAccess(principal, 'event.manage', {
          eventId: otherEventId,
        });
      } catch (error) {
        if (error instanceof AppError)
          throw new AppError('robot_serves_other_event', 'robot_id_array');
        throw error;
      }
    }
    if (missing(settings.image_process_id_array, processes))
      throw new AppError('image_process_not_found', 'image_process_id_array');
    if (missing(settings.ppt_id_array, templates))
      throw new AppError('template_not_found', 'ppt_id_array');
    if (settings.watermark_pt_id !== null && !watermark.length)
      throw new AppError('template_not_found', 'watermark_pt_id');
  }

  /** Secure fields sent non-empty replace the stored value; empty or absent keep it. */
  private sealSecureFields(
    stored: EventRow['secureFields'],
    input: Partial<Record<SecureField, string | undefined>>,
  ): EventRow['secureFields'] {
    const next = { ...stored };
    for (const field of SECURE_FIELDS) {
      const value = input[field]?.trim();
      if (value) next[field] = this.deps.secrets.encrypt(value);
    }
    return next;
  }

  private newKey() {
    const key = randomToken(24);
    return { key, hash: hashToken(key), sealed: this.deps.secrets.encrypt(key) };
  }
}
