import {
  defaultEventSettings,
  SECURE_FIELDS,
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
  EventRepository,
  EventRow,
} from '../../repositories/events/event.repository.ts';
import type { ImageProcessRepository } from '../../repositories/printing/image-process.repository.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import type { RobotRepository } from '../../repositories/events/robot.repository.ts';
import type { AccessControl } from '../../access/access-control.ts';
import { userPrincipal, type Principal } from '../../access/principal.ts';
import { isSuperUser, seesOnlyOwnEvents } from '../../access/roles.ts';
import {
  presentBasicEvent,
  presentEvent,
  presentKeyEvent,
} from '../../presenters/event.presenter.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { EventFromAddressService } from '../messaging/event-from-address.service.ts';
import { settingsOfRecord } from './event-settings.ts';

import {
  CODE_ATTEMPTS,
  generateEventCode,
  settingsPatch,
  normalise,
  assertValid,
  assertStockImageEdits,
  assertStorageReferences,
  columnsOf,
  relationsOf,
} from './event-rules.ts';
export type CreateEventInput = ParsedBodyOf<typeof createEvent>;
export type UpdateEventInput = ParsedBodyOf<typeof updateEvent>;
export type EventListInput = ParsedBodyOf<typeof eventBasicList>;

/** Writes the public settings file of an event (share bucket); absent until storage is wired. */
export interface EventSettingsFilePublisher {
  publish(event: FlashbulbEvent): Promise<void>;
  remove(eventName: string): Promise<void>;
}

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
    if (isSuperUser(actor)) {
      if (input.organisation_id !== undefined) filter.organisationId = input.organisation_id;
    } else {
      if (actor.organisationId === null) return { events: [], total_count: 0 };
      if (input.organisation_id !== undefined && input.organisation_id !== actor.organisationId)
        throw new AppError('forbidden', 'organisation_id');
      filter.organisationId = actor.organisationId;
      if (seesOnlyOwnEvents(actor)) filter.ownerUserId = actor.userId;
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
      events: rows.map((row) => presentBasicEvent(row, this.deps.secrets)),
      total_count: total,
    };
  }

  async fullData(principal: Principal, eventName: string): Promise<FlashbulbEvent[]> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventName,
    });
    return [presentEvent(event, this.deps.secrets)];
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
    return [presentKeyEvent(keyType!, event, this.deps.secrets)];
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
    const response = presentEvent(event, this.deps.secrets);
    await this.deps.settingsFile?.publish(response);
    return response;
  }

  /** Super users name the organisation; admins and owners create in their own. */
  private async organisationForCreate(actor: SignedInUser, requested: number | undefined) {
    if (isSuperUser(actor)) {
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
