import { Readable } from 'node:stream';
import {
  DEFAULT_PRINTER_POOL,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type PrintJob,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { DomainEventEmitter } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { ImageProcessRepository } from '../../repositories/printing/image-process.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { PrinterAdapter } from '../../repositories/printing/file-printer.adapter.ts';
import {
  TAG_STORY_KEY,
  type NewPrintJobRow,
  type PrintJobRepository,
  type PrintJobRow,
  type TagStoryCandidate,
} from '../../repositories/printing/print-job.repository.ts';
import type { PrintStationRepository } from '../../repositories/printing/print-station.repository.ts';
import type { PrintRequestRow } from '../../repositories/printing/print-request.repository.ts';
import { templateImageKey } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type {
  PrintTemplateRepository,
  PrintTemplateRow,
} from '../../repositories/printing/print-template.repository.ts';
import { templateLayoutOf } from './print-template.service.ts';
import { printJobForOwner, type SheetPhotos } from '../../presenters/print.presenter.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import {
  gridLayout,
  type SheetImages,
  type SheetRenderer,
} from '../../repositories/printing/sheet-renderer.ts';

type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
type PrintInput = Omit<Body<'publicPrintWithQueue'>, 'key_type' | 'key_value'>;
type StoryInput = Omit<Body<'publicPrintStory'>, 'key_type' | 'key_value'>;

/** A story without a story template: a grid of this many photos on a 4×6 (docs/adr). */
export const STORY_GRID_MIN = 2;
export const STORY_GRID_MAX = 4;

/** A tag as stories compare it: no case, blanks or leading `#` (hash tags are tags too). */
const tagKey = (tag: string) => tag.trim().replace(/^#/, '').toLowerCase();

/** `requiredTagsToGenerateStory`: a comma list of tags. */
export const storyTags = (list: string): string[] => [
  ...new Set(list.split(',').map(tagKey).filter(Boolean)),
];

/**
 * Automatic stories (`lookForTagsInImages`, ADR 0009 addendum): a story's photos were all uploaded
 * within this time of its first one — one booth session. A group that does not fill its sheet in
 * time is dropped and the next photo starts a new one.
 */
export const TAG_STORY_WINDOW_MS = 10 * 60_000;

/** Who a photo belongs to for automatic stories: its attendee, else the robot that sent it. */
const storyOwner = (p: { attendeeUid: string | null; robotId: number | null }) =>
  p.attendeeUid
    ? `attendee:${p.attendeeUid.toUpperCase()}`
    : p.robotId
      ? `robot:${p.robotId}`
      : 'event';

/**
 * Groups automatic-story candidates (ADR 0009 addendum): in upload order, consecutive photos of
 * one owner and one watched tag, `size` at a time, all within `TAG_STORY_WINDOW_MS` of the
 * group's first photo. Answers the complete groups only.
 */
export const tagStoryGroups = <P extends TagStoryCandidate>(
  photos: readonly P[],
  size: number,
  watchedTagOf: (photo: P) => string | null,
): P[][] => {
  const open = new Map<string, P[]>();
  const complete: P[][] = [];
  for (const photo of photos) {
    const tag = watchedTagOf(photo);
    if (tag === null) continue;
    const key = `${tag}|${storyOwner(photo)}`;
    let group = open.get(key) ?? [];
    if (group[0] && photo.createdAt.getTime() - group[0].createdAt.getTime() > TAG_STORY_WINDOW_MS)
      group = [];
    group.push(photo);
    if (group.length === size) {
      complete.push(group);
      group = [];
    }
    open.set(key, group);
  }
  return complete;
};

/** A photo to print is at most this big (originals of booth cameras are far smaller). */
const MAX_PRINT_SOURCE_BYTES = 80 * 1024 * 1024;

const readAll = async (body: Readable, max: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > max) throw new Error('print source is too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
};

/** The pools a print may name: the event's list (when pools are on) and always `Default`. */
export const eventPools = (event: EventRecord): string[] => {
  const list =
    event.row.is_printer_pool_enabled === 1 ? (event.row.printer_pool_name_list ?? []) : [];
  return [...new Set([...list, DEFAULT_PRINTER_POOL])];
};

/** Where an event prints unless told otherwise: its first pool, or `Default`. */
export const defaultPool = (event: EventRecord): string => eventPools(event)[0]!;

/**
 * Printing (docs/domains/printing.md): print calls queue sheets (print jobs) of the
 * event's placeholder count of photos; the `print.render` job renders each sheet with sharp and
 * hands it to the pool's printer (the embedded file printer); the sheet's photos are marked
 * printed with their print count. Auto-print (`is_print_every_photo`) queues a sheet per new
 * photo on `photo.ready`; unlock-and-print requests are sent to the queue.
 */
export class PrintService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      events: EventRepository;
      photos: PhotoRepository;
      albums: AlbumRepository;
      printJobs: PrintJobRepository;
      stations: Pick<PrintStationRepository, 'poolHasStation'>;
      templates: Pick<PrintTemplateRepository, 'findById'>;
      processes: Pick<ImageProcessRepository, 'listAutoPrintForEvent'>;
      storage: StorageRepository;
      printer: PrinterAdapter;
      sheets: SheetRenderer;
      jobs: Pick<JobQueue, 'send'>;
      bus: DomainEventEmitter;
      logger: Logger;
      clock: Clock;
    },
  ) {}

  /** `flashbulb-owner/photo/print-with-queue`. */
  async ownerPrint(principal: Principal, input: Body<'printWithQueue'>) {
    return this.queue(await this.printingEvent(principal, input.event_id), input, 'owner');
  }

  /** `/photo/print-with-queue`: the kiosk twin (the event's private key with its display token). */
  async keyPrint(principal: Principal, input: PrintInput) {
    return this.queue(await this.printingEvent(principal), input, 'kiosk');
  }

  /** `flashbulb-owner/photo/print-story`. */
  async ownerStory(principal: Principal, input: Body<'printStory'>) {
    return this.story(await this.printingEvent(principal, input.event_id), input, 'owner');
  }

  /** `/photo/print-story`: the kiosk twin. */
  async keyStory(principal: Principal, input: StoryInput) {
    return this.story(await this.printingEvent(principal), input, 'kiosk');
  }

  /**
   * The kiosk prints what its album shows: a photo the owner hid (or still inside its delay) is
   * not there for the kiosk (`not_found`), whatever uid it sends.
   */
  private refuseUnshown(event: EventRecord, rows: PhotoRow[]): void {
    const now = this.deps.clock.now();
    if (
      rows.some((p) => !albumDecision(p, event.row, 'private', now, { streamWindow: false }).show)
    )
      throw new AppError('not_found', 'printable_photo_uid_array');
  }

  /** The event a print call may print in: the one an operator names, or the key's own. */
  private async printingEvent(principal: Principal, eventId?: number) {
    const { event } = await this.deps.access.requireEventAccess(
      principal,
      'photo.print',
      eventId === undefined ? { keyEvent: true } : { eventId, field: 'event_id' },
    );
    return event;
  }

  /** The print desk's list. */
  async list(principal: Principal, input: Body<'printJobList'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const rows = await this.deps.printJobs.forEvent(event.row.id, input.printer_pool_name);
    const photos = await this.photosOf(event.row.id, rows);
    const counts: Record<string, number> = {};
    const perPrinter = new Map<string, number>();
    for (const r of rows) {
      counts[r.state] = (counts[r.state] ?? 0) + 1;
      if (r.state === 'printed' && r.printer)
        perPrinter.set(r.printer, (perPrinter.get(r.printer) ?? 0) + r.copies);
    }
    const paused = new Set(await this.deps.printJobs.pausedPools(event.row.id));
    return {
      jobs: rows.map((r): PrintJob => this.present(r, photos)),
      counts,
      pools: eventPools(event).map((name) => ({
        name,
        paused: paused.has(name) ? (1 as const) : (0 as const),
      })),
      printed_per_printer: [...perPrinter]
        .map(([printer, sheets]) => ({ printer, sheets }))
        .sort((a, b) => a.printer.localeCompare(b.printer)),
    };
  }

  /** The print desk: cancels a sheet not yet printing (compare-and-set against the renderer). */
  async cancel(principal: Principal, input: Body<'printJobCancel'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const job = await this.deps.printJobs.findInEvent(event.row.id, input.print_job_id);
    if (!job) throw new AppError('not_found', 'print_job_id');
    const moved = await this.deps.printJobs.move(
      job.id,
      ['queued', 'rendering', 'sent'],
      'cancelled',
    );
    if (!moved) throw new AppError('print_job_not_cancellable', 'print_job_id');
    return this.present(moved, await this.photosOf(event.row.id, [moved]));
  }

  /**
   * The print desk: a finished sheet printed again as a new job (same photos, pool and template),
   * its reason logged on the new job. The event's copy limit and printing switch still apply.
   */
  async reprint(principal: Principal, input: Body<'printJobReprint'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const job = await this.deps.printJobs.findInEvent(event.row.id, input.print_job_id);
    if (!job) throw new AppError('not_found', 'print_job_id');
    if (!['printed', 'failed', 'cancelled'].includes(job.state))
      throw new AppError('print_job_not_reprintable', 'print_job_id');
    if (event.row.is_photo_printer_active !== 1) throw new AppError('printing_not_active');
    const copies = input.printing_count ?? job.copies;
    if (copies > event.row.max_print_copies_count)
      throw new AppError('photos_copy_count_error', 'printing_count');
    const row = await this.deps.printJobs.insertOne({
      eventId: event.row.id,
      pool: job.pool,
      photoIds: job.photoIds,
      copies,
      state: 'queued',
      source: 'reprint',
      requestKey: null,
      sheetIndex: 0,
      templateId: job.templateId,
      reprintReason: input.reason,
    });
    this.deps.logger.info(
      { printJobId: row.id, reprintOf: job.id, eventId: event.row.id },
      'print: reprint queued',
    );
    await this.dispatch([row]);
    return this.present(row, await this.photosOf(event.row.id, [row]));
  }

  /** The print desk: a paused pool renders and hands out nothing; resuming sends its queue on. */
  async pause(principal: Principal, input: Body<'printPoolPause'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    if (!eventPools(event).includes(input.printer_pool_name))
      throw new AppError('printer_pool_name_invalid', 'printer_pool_name');
    await this.deps.printJobs.setPaused(
      event.row.id,
      input.printer_pool_name,
      input.paused === 1,
      this.deps.clock.now(),
    );
    if (input.paused === 0)
      await this.dispatch(
        await this.deps.printJobs.queuedInPool(event.row.id, input.printer_pool_name),
      );
    return { printer_pool_name: input.printer_pool_name, paused: input.paused };
  }

  private async photosOf(eventId: number, rows: PrintJobRow[]) {
    const ids = [...new Set(rows.flatMap((r) => r.photoIds))];
    const photos = await this.deps.albums.photosByIds(eventId, ids);
    return new Map(photos.map((p) => [p.id, p]));
  }

  private present(r: PrintJobRow, photos: SheetPhotos): PrintJob {
    return printJobForOwner(r, photos, (key) => this.deps.storage.publicUrl(key));
  }

  /**
   * Every limit is checked before anything is stored: printing on, the pool one of the event's,
   * photos and copies within the event's maxima, the photo count a multiple of the placeholder
   * count, every photo the event's, ready, an image and printable.
   */
  private async queue(event: EventRecord, input: PrintInput, source: 'owner' | 'kiosk') {
    const e = event.row;
    if (e.is_photo_printer_active !== 1) throw new AppError('printing_not_active');
    const pool = input.printer_pool_name ?? defaultPool(event);
    if (!eventPools(event).includes(pool))
      throw new AppError('printer_pool_name_invalid', 'printer_pool_name');
    const uids = [...new Set(input.printable_photo_uid_array)];
    if (uids.length > e.max_print_photos_count)
      throw new AppError('per_request_count_error', 'printable_photo_uid_array');
    const copies = input.printing_count ?? 1;
    if (copies > e.max_print_copies_count)
      throw new AppError('photos_copy_count_error', 'printing_count');
    const template = await this.printTemplate(event);
    const perSheet = this.perSheet(event, template);
    if (uids.length % perSheet !== 0)
      throw new AppError('print_count_placeholder_error', 'printable_photo_uid_array');
    const rows = await this.deps.albums.photosByUids(e.id, uids);
    if (rows.length !== uids.length) throw new AppError('not_found', 'printable_photo_uid_array');
    if (source === 'kiosk') this.refuseUnshown(event, rows);
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    const ordered = uids.map((uid) => byUid.get(uid)!);
    for (const photo of ordered)
      if (photo.status !== 'ready' || photo.mediaType !== 'image' || photo.printable !== 1)
        throw new AppError('photo_not_printable', 'printable_photo_uid_array');

    const requestKey = input.client_request_id ? `${source}:${input.client_request_id}` : null;
    const sheets: NewPrintJobRow[] = [];
    for (let i = 0; i < ordered.length; i += perSheet)
      sheets.push({
        eventId: e.id,
        pool,
        photoIds: ordered.slice(i, i + perSheet).map((p) => p.id),
        copies,
        state: 'queued',
        source,
        requestKey,
        sheetIndex: i / perSheet,
        templateId: template?.id ?? null,
      });
    const { jobs, replayed } = await this.deps.printJobs.insertSheets(sheets);
    if (!replayed) await this.dispatch(jobs);
    return {
      event_id: e.id,
      printer_pool_name: jobs[0]?.pool ?? pool,
      print_job_ids: jobs.map((j) => j.id),
      sheet_count: jobs.length,
      copies: jobs[0]?.copies ?? copies,
      replayed: replayed ? (1 as const) : (0 as const),
    };
  }

  /**
   * A story (docs/adr/0009-story-sheets.md): ONE sheet combining the guest's chosen photos on the
   * event's story template — the first print template of `ppt_id_array` with more than one
   * placeholder (exactly that many photos), else a grid of 2 to 4 photos on a 4×6 — printed on the
   * kiosk's chosen stories pool, else the event's `storiesPrintPool`, else its first pool. Every
   * photo must carry each of `requiredTagsToGenerateStory`. All checked before anything is stored.
   */
  private async story(event: EventRecord, input: StoryInput, by: 'owner' | 'kiosk') {
    const e = event.row;
    if (e.is_photo_printer_active !== 1) throw new AppError('printing_not_active');
    const pools = eventPools(event);
    const pool = input.printer_pool_name ?? (e.opts.storiesPrintPool.trim() || defaultPool(event));
    if (!pools.includes(pool)) throw new AppError('printer_pool_name_invalid', 'printer_pool_name');
    const uids = [...new Set(input.printable_photo_uid_array)];
    if (uids.length > e.max_print_photos_count)
      throw new AppError('per_request_count_error', 'printable_photo_uid_array');
    const copies = input.printing_count ?? 1;
    if (copies > e.max_print_copies_count)
      throw new AppError('photos_copy_count_error', 'printing_count');
    const template = await this.storyTemplate(event);
    const fits = template
      ? uids.length === template.placeholderCounts
      : uids.length >= STORY_GRID_MIN && uids.length <= STORY_GRID_MAX;
    if (!fits) throw new AppError('story_photo_count_error', 'printable_photo_uid_array');
    const rows = await this.deps.albums.photosByUids(e.id, uids);
    if (rows.length !== uids.length) throw new AppError('not_found', 'printable_photo_uid_array');
    if (by === 'kiosk') this.refuseUnshown(event, rows);
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    const ordered = uids.map((uid) => byUid.get(uid)!);
    for (const photo of ordered)
      if (photo.status !== 'ready' || photo.mediaType !== 'image' || photo.printable !== 1)
        throw new AppError('photo_not_printable', 'printable_photo_uid_array');
    const required = storyTags(e.opts.requiredTagsToGenerateStory);
    for (const photo of ordered) {
      const has = new Set(photo.tags.map(tagKey));
      if (!required.every((tag) => has.has(tag)))
        throw new AppError('story_tags_missing', 'printable_photo_uid_array');
    }
    const { jobs, replayed } = await this.deps.printJobs.insertSheets([
      {
        eventId: e.id,
        pool,
        photoIds: ordered.map((p) => p.id),
        copies,
        state: 'queued',
        source: 'story',
        requestKey: input.client_request_id ? `story:${by}:${input.client_request_id}` : null,
        sheetIndex: 0,
        templateId: template?.id ?? null,
      },
    ]);
    if (!replayed) await this.dispatch(jobs);
    return {
      event_id: e.id,
      printer_pool_name: jobs[0]?.pool ?? pool,
      print_job_ids: jobs.map((j) => j.id),
      sheet_count: jobs.length,
      copies: jobs[0]?.copies ?? copies,
      replayed: replayed ? (1 as const) : (0 as const),
    };
  }

  /** The event's story template: its first print template with more than one placeholder. */
  private async storyTemplate(event: EventRecord): Promise<PrintTemplateRow | null> {
    for (const id of event.pptIds) {
      const row = await this.deps.templates.findById(id);
      if (row && !row.isWatermark && row.placeholderCounts > 1) return row;
    }
    return null;
  }

  /**
   * The sheet an event prints on: the first print template of its `ppt_id_array` (albums spec
   * §2.6), or none (a grid of the event's placeholder count on a 4×6).
   */
  private async printTemplate(event: EventRecord): Promise<PrintTemplateRow | null> {
    const id = event.pptIds[0];
    if (id === undefined) return null;
    const row = await this.deps.templates.findById(id);
    return row && !row.isWatermark ? row : null;
  }

  /** Photos per sheet: the template's placeholders, else the event's placeholder count. */
  private perSheet(event: EventRecord, template: PrintTemplateRow | null): number {
    return Math.max(1, template ? template.placeholderCounts : event.row.place_holder_count);
  }

  /**
   * A template image from storage, read only inside the template's organisation's watermark
   * folder (storage/owned-references.ts); a missing or refused one renders the sheet without it.
   */
  private async templateImage(
    value: string | null,
    template: PrintTemplateRow | null | undefined,
  ): Promise<Buffer | null> {
    if (!value || !template) return null;
    const key = templateImageKey(value, template.organisationId);
    if (!key) {
      this.deps.logger.warn(
        { templateId: template.id, reference: value },
        'storage reference refused: outside the template’s organisation',
      );
      return null;
    }
    const object = await this.deps.storage.get(key);
    if (!object) {
      this.deps.logger.warn({ key }, 'print: template image missing');
      return null;
    }
    return readAll(object.body, 20 * 1024 * 1024);
  }

  /** Hands queued jobs to the renderer (one registry job each; the job is idempotent). */
  private async dispatch(jobs: PrintJobRow[]) {
    for (const job of jobs)
      if (job.state === 'queued') await this.deps.jobs.send('print.render', { printJobId: job.id });
  }

  /**
   * `photo.ready`: with auto-print on (`is_print_every_photo`), the new photo's own sheet goes to
   * the event's pool — unless the event has auto-print image processes: then each of their
   * variants prints instead (`onVariantReady`), so a photo is never printed twice.
   */
  async onPhotoReady(notice: { photoId: number; eventId: number }): Promise<void> {
    const event = await this.autoPrintEvent(notice.eventId);
    if (!event) return;
    if ((await this.deps.processes.listAutoPrintForEvent(event.row.id)).length > 0) return;
    const photo = await this.deps.photos.findById(notice.photoId);
    if (!photo || photo.imageProcessId !== null) return;
    await this.autoPrint(event, photo);
  }

  /** `photo.variant_ready`: a variant of one of the event's auto-print processes is printed. */
  async onVariantReady(notice: {
    photoId: number;
    eventId: number;
    imageProcessId: number;
  }): Promise<void> {
    const event = await this.autoPrintEvent(notice.eventId);
    if (!event) return;
    const auto = await this.deps.processes.listAutoPrintForEvent(event.row.id);
    if (!auto.some((p) => p.id === notice.imageProcessId)) return;
    const photo = await this.deps.photos.findById(notice.photoId);
    if (!photo) return;
    await this.autoPrint(event, photo);
  }

  private async autoPrintEvent(eventId: number): Promise<EventRecord | null> {
    const event = await this.deps.events.findById(eventId);
    if (!event) return null;
    const e = event.row;
    return e.is_photo_printer_active === 1 && e.is_print_every_photo === 1 ? event : null;
  }

  private async autoPrint(
    event: EventRecord,
    photo: { id: number; mediaType: string; printable: number },
  ): Promise<void> {
    if (photo.mediaType !== 'image' || photo.printable !== 1) return;
    // One photo per auto-printed sheet: the event's template when it has one placeholder.
    const template = await this.printTemplate(event);
    const { jobs, replayed } = await this.deps.printJobs.insertSheets([
      {
        eventId: event.row.id,
        pool: defaultPool(event),
        photoIds: [photo.id],
        copies: 1,
        state: 'queued',
        source: 'auto',
        // One auto-print per photo, however often it is announced.
        requestKey: `auto:${photo.id}`,
        sheetIndex: 0,
        templateId: template?.placeholderCounts === 1 ? template.id : null,
      },
    ]);
    if (!replayed) await this.dispatch(jobs);
  }

  /**
   * `photo.ready` with `lookForTagsInImages` set to create stories: the `print.tag-stories` job
   * looks for a complete group (the listener only decides whether to ask).
   */
  async onPhotoReadyForStories(notice: { photoId: number; eventId: number }): Promise<void> {
    const event = await this.deps.events.findById(notice.eventId);
    if (!event || !this.tagStorySettings(event)) return;
    await this.deps.jobs.send('print.tag-stories', notice);
  }

  /** The event's automatic-story setting when it is on and can print, else null. */
  private tagStorySettings(event: EventRecord) {
    const look = event.row.opts.lookForTagsInImages;
    if (event.row.is_photo_printer_active !== 1) return null;
    if (!look || look.action?.kind !== 'createAStory') return null;
    const watched = [...new Set(look.tags.map(tagKey).filter(Boolean))];
    if (watched.length === 0) return null;
    return { watched, action: look.action };
  }

  /**
   * The `print.tag-stories` job (`lookForTagsInImages` with a `createAStory` action; ADR 0009
   * addendum): the ready photo's group — photos of the same attendee (else robot) carrying the
   * same watched tag, uploaded within `TAG_STORY_WINDOW_MS` of the group's first — becomes ONE
   * story sheet on the action's pool once it fills the story template (else the event's
   * placeholder count, 2–4, as a grid). Every photo must also carry the action's tags and
   * `requiredTagsToGenerateStory`. Printing off, a pool not the event's or a story over the
   * event's photo maximum queue nothing. Once: photos already in an automatic story are never
   * grouped again, under a lock per event, and each story's request key is its first photo.
   */
  async tagStories(eventId: number, photoId: number): Promise<{ status: string; stories: number }> {
    const event = await this.deps.events.findById(eventId);
    if (!event) return { status: 'gone', stories: 0 };
    const settings = this.tagStorySettings(event);
    if (!settings) return { status: 'off', stories: 0 };
    const photo = await this.deps.photos.findById(photoId);
    if (!photo || photo.eventId !== event.row.id) return { status: 'gone', stories: 0 };
    const e = event.row;
    const pool =
      settings.action.poolName.trim() || e.opts.storiesPrintPool.trim() || defaultPool(event);
    if (!eventPools(event).includes(pool)) {
      this.deps.logger.warn({ eventId, pool }, 'print: automatic story pool is not the event’s');
      return { status: 'pool_invalid', stories: 0 };
    }
    const template = await this.storyTemplate(event);
    const size = template
      ? template.placeholderCounts
      : Math.min(STORY_GRID_MAX, Math.max(STORY_GRID_MIN, e.place_holder_count));
    if (size > e.max_print_photos_count) return { status: 'over_limit', stories: 0 };
    const required = [
      ...storyTags(e.opts.requiredTagsToGenerateStory),
      ...settings.action.tags.map(tagKey).filter(Boolean),
    ];
    const watchedTagOf = (p: TagStoryCandidate) => {
      const has = new Set(p.tags.map(tagKey));
      if (!required.every((tag) => has.has(tag))) return null;
      return settings.watched.find((tag) => has.has(tag)) ?? null;
    };
    if (watchedTagOf(photo) === null) return { status: 'untagged', stories: 0 };
    const owner = storyOwner(photo);
    const stories = await this.deps.printJobs.insertTagStories(
      e.id,
      new Date(photo.createdAt.getTime() - TAG_STORY_WINDOW_MS),
      (candidates) =>
        tagStoryGroups(
          candidates.filter((c) => storyOwner(c) === owner),
          size,
          watchedTagOf,
        ).map((group) => ({
          eventId: e.id,
          pool,
          photoIds: group.map((p) => p.id),
          copies: 1,
          state: 'queued',
          source: 'story',
          requestKey: `${TAG_STORY_KEY}${group[0]!.id}`,
          sheetIndex: 0,
          templateId: template?.id ?? null,
        })),
    );
    if (stories.length > 0)
      this.deps.logger.info(
        { eventId, printJobIds: stories.map((s) => s.id) },
        'print: automatic story queued',
      );
    await this.dispatch(stories);
    return { status: stories.length > 0 ? 'queued' : 'waiting', stories: stories.length };
  }

  /**
   * `photo.deleted` (the photo itself, or a variant deleted with its original): sheets holding it
   * that have not reached a printer are cancelled, and every sheet file of its jobs is removed —
   * the rendered sheet waiting in storage for an agent and the file printer's copies — so a
   * deleted photo leaves no printable copy behind.
   */
  async onPhotoDeleted(notice: { photoId: number; eventId: number }): Promise<number> {
    const jobs = await this.deps.printJobs.withPhoto(notice.eventId, notice.photoId);
    for (const job of jobs) {
      await this.deps.printJobs.move(job.id, ['queued', 'rendering', 'sent'], 'cancelled', {
        error: 'photo_deleted',
      });
      if (job.sheetKey) await this.deps.storage.delete(job.sheetKey);
      await this.deps.printer.discard({
        jobId: job.id,
        printer: job.printer,
        output: job.output,
        copies: job.copies,
      });
      if (job.sheetKey || job.output) await this.deps.printJobs.forgetFiles(job.id);
    }
    return jobs.length;
  }

  /** `print.requested`: the stored request goes to the queue. */
  async onPrintRequested(notice: { printRequestId: number }): Promise<void> {
    const request = await this.deps.printJobs.printRequestById(notice.printRequestId);
    if (request && request.status === 'queued') await this.sendPrintRequest(request);
  }

  /**
   * A stored unlock-and-print request goes to the queue: sheets of the event's
   * placeholder count (the last may be partly empty), `copies` each, on its pool. Once per
   * request (its id is the request key).
   */
  async sendPrintRequest(request: PrintRequestRow): Promise<void> {
    const event = await this.deps.events.findById(request.eventId);
    if (!event) return;
    const pools = eventPools(event);
    const pool =
      request.printerPool && pools.includes(request.printerPool)
        ? request.printerPool
        : defaultPool(event);
    const photos = await this.deps.albums.photosByUids(event.row.id, request.photoUids);
    const byUid = new Map(photos.map((p) => [p.uid, p]));
    const ids = request.photoUids.flatMap((uid) => byUid.get(uid)?.id ?? []);
    const template = await this.printTemplate(event);
    const perSheet = this.perSheet(event, template);
    const sheets: NewPrintJobRow[] = [];
    for (let i = 0; i < ids.length; i += perSheet)
      sheets.push({
        eventId: event.row.id,
        pool,
        photoIds: ids.slice(i, i + perSheet),
        copies: request.copies,
        state: 'queued',
        source: 'unlock',
        requestKey: `request:${request.id}`,
        sheetIndex: i / perSheet,
        printRequestId: request.id,
        templateId: template?.id ?? null,
      });
    if (sheets.length === 0) return;
    const { jobs, replayed } = await this.deps.printJobs.insertSheets(sheets, {
      printRequestId: request.id,
    });
    if (!replayed) await this.dispatch(jobs);
  }

  /**
   * The `print.resume` sweep: stored requests not yet queued (a crash between storing and
   * sending), and jobs still `queued` a minute on (their render job was lost) are sent again.
   */
  async resume(): Promise<{ requests: number; jobs: number }> {
    const pending = await this.deps.printJobs.unsentRequests();
    for (const request of pending) await this.sendPrintRequest(request);
    const stale = await this.deps.printJobs.queuedBefore(
      new Date(this.deps.clock.now().getTime() - 60_000),
    );
    await this.dispatch(stale);
    return { requests: pending.length, jobs: stale.length };
  }

  /**
   * The `print.render` job: queued → rendering → sent → printed, each move compare-and-set so a
   * cancelled job stops and a retried one never prints twice. The file printer overwrites its own
   * files, so a retry after `sent` is safe. A photo gone or unreadable fails the job.
   */
  async renderAndPrint(printJobId: number): Promise<{ status: string }> {
    const job = await this.deps.printJobs.findById(printJobId);
    if (!job) return { status: 'gone' };
    if (!['queued', 'rendering', 'sent'].includes(job.state)) return { status: job.state };
    // A paused pool keeps its sheets queued; resuming the pool sends them again.
    if (job.state === 'queued' && (await this.deps.printJobs.isPaused(job.eventId, job.pool)))
      return { status: 'paused' };
    const rendering = await this.deps.printJobs.move(
      job.id,
      ['queued', 'rendering', 'sent'],
      'rendering',
    );
    if (!rendering) return { status: 'moved' };
    const event = await this.deps.events.findById(job.eventId);
    if (!event) return { status: 'gone' };
    const photos = await this.deps.albums.photosByIds(job.eventId, job.photoIds);
    const sources: Buffer[] = [];
    for (const photo of photos) {
      const object = await this.deps.storage.get(photo.storageKey);
      if (!object) {
        await this.deps.printJobs.move(job.id, ['rendering'], 'failed', {
          error: 'photo_missing',
        });
        return { status: 'failed' };
      }
      sources.push(await readAll(object.body, MAX_PRINT_SOURCE_BYTES));
    }
    if (sources.length === 0) {
      await this.deps.printJobs.move(job.id, ['rendering'], 'failed', { error: 'photo_missing' });
      return { status: 'failed' };
    }
    const template = job.templateId ? await this.deps.templates.findById(job.templateId) : null;
    const layout = template
      ? templateLayoutOf(template)
      : gridLayout(
          job.source === 'auto'
            ? 1
            : job.source === 'story'
              ? job.photoIds.length
              : Math.max(1, event.row.place_holder_count),
        );
    let bytes: Buffer;
    try {
      const images: SheetImages = {
        background: await this.templateImage(layout.background_image, template),
        overlay: await this.templateImage(layout.overlay_image, template),
      };
      bytes = await this.deps.sheets.render(sources, layout, images);
    } catch (error) {
      this.deps.logger.warn({ printJobId, err: error }, 'print: sheet not rendered');
      await this.deps.printJobs.move(job.id, ['rendering'], 'failed', { error: 'render_failed' });
      return { status: 'failed' };
    }
    // A pool with a print station is printed by its agent: the sheet waits in storage for a lease.
    if (await this.deps.stations.poolHasStation(job.eventId, job.pool)) {
      const sheetKey = `prints/${job.eventId}/job-${job.id}.jpg`;
      await this.deps.storage.put(sheetKey, bytes, 'image/jpeg');
      const waiting = await this.deps.printJobs.move(job.id, ['rendering'], 'sent', { sheetKey });
      return { status: waiting ? 'sent' : 'moved' };
    }
    const sent = await this.deps.printJobs.move(job.id, ['rendering'], 'sent');
    if (!sent) return { status: 'moved' };
    const result = await this.deps.printer.print({
      jobId: job.id,
      pool: job.pool,
      copies: job.copies,
      bytes,
    });
    const printed = await this.deps.printJobs.markPrinted(job.id, ['sent'], result);
    if (!printed) return { status: 'moved' };
    await this.deps.bus.emit('print.finished', { printJobId: job.id, eventId: job.eventId });
    return { status: 'printed' };
  }
}
