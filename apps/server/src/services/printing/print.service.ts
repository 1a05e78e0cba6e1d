import { type EndpointName, type Endpoints, type ParsedBodyOf } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PaymentRepository } from '../../repositories/payments/payment.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import {
  type NewPrintJobRow,
  type PrintJobRepository,
} from '../../repositories/printing/print-job.repository.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import {
  coveringPurchases,
  printPolicy,
  printPurchaseOf,
  printsNeeded,
} from './print-allowance.ts';
import {
  defaultPool,
  dispatchSheets,
  eventPools,
  photosPerSheet,
  printTemplateOf,
  storyTags,
  storyTemplateOf,
  STORY_GRID_MAX,
  STORY_GRID_MIN,
  tagKey,
} from './print-sheets.ts';

type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
type PrintInput = Omit<Body<'publicPrintWithQueue'>, 'key_type' | 'key_value'>;
type StoryInput = Omit<Body<'publicPrintStory'>, 'key_type' | 'key_value'>;

/** The call's photos (each once) and copies, refused over the event's per-request limits. */
const withinLimits = (event: EventRecord, input: PrintInput | StoryInput) => {
  const e = event.row;
  const uids = [...new Set(input.printable_photo_uid_array)];
  if (uids.length > e.max_print_photos_count)
    throw new AppError('per_request_count_error', 'printable_photo_uid_array');
  const copies = input.printing_count ?? 1;
  if (copies > e.max_print_copies_count)
    throw new AppError('photos_copy_count_error', 'printing_count');
  return { uids, copies };
};

/**
 * Print calls (docs/domains/printing.md): the owner's and the kiosk's prints and stories queue
 * sheets (print jobs) of the event's placeholder count of photos, every limit checked before
 * anything is stored. The desk: PrintDeskService; auto-print and automatic stories:
 * AutoPrintService; rendering and handing sheets to printers: SheetPrintService.
 */
export class PrintService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      albums: AlbumRepository;
      printJobs: PrintJobRepository;
      templates: Pick<PrintTemplateRepository, 'findById'>;
      /** The guest's paid orders with prints: what a kiosk may print at a paid event. */
      purchases: Pick<PaymentRepository, 'printPurchases'>;
      jobs: JobSender;
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

  /**
   * The photos of `uids`, in that order: every one the event's (and, for a kiosk, shown in its
   * album), ready, an image and printable.
   */
  private async printablePhotos(
    event: EventRecord,
    uids: string[],
    by: 'owner' | 'kiosk',
  ): Promise<PhotoRow[]> {
    const rows = await this.deps.albums.photosByUids(event.row.id, uids);
    if (rows.length !== uids.length) throw new AppError('not_found', 'printable_photo_uid_array');
    if (by === 'kiosk') this.refuseUnshown(event, rows);
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    const ordered = uids.map((uid) => byUid.get(uid)!);
    for (const photo of ordered)
      if (photo.status !== 'ready' || photo.mediaType !== 'image' || photo.printable !== 1)
        throw new AppError('photo_not_printable', 'printable_photo_uid_array');
    return ordered;
  }

  /**
   * What pays for a guest's print at a paid event (print-allowance.ts): nothing to pay where
   * prints are free; else the attendee's (`attUid`) paid orders that bought every photo with
   * enough prints left — none, and the print is refused before anything is stored.
   */
  private async paidBy(
    event: EventRecord,
    attendeeUid: string | undefined,
    uids: string[],
    copies: number,
  ): Promise<{ orderIds: number[]; prints: number } | undefined> {
    if (printPolicy(event.row) === 'free') return undefined;
    const refused = new AppError('prints_not_paid', 'printable_photo_uid_array');
    if (!attendeeUid) throw refused;
    const { record } = await this.deps.access.attendeeById(attendeeUid, {
      eventId: event.row.id,
    });
    if (!record || record.row.organisationId !== event.row.organisationId) throw refused;
    const orders = await this.deps.purchases.printPurchases(record.row.id, event.row.id);
    const orderIds = coveringPurchases(orders.map(printPurchaseOf), uids, copies);
    if (orderIds.length === 0) throw refused;
    return { orderIds, prints: printsNeeded(uids, copies) };
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
    const { uids, copies } = withinLimits(event, input);
    const template = await printTemplateOf(this.deps.templates, event);
    const perSheet = photosPerSheet(event, template);
    if (uids.length % perSheet !== 0)
      throw new AppError('print_count_placeholder_error', 'printable_photo_uid_array');
    const ordered = await this.printablePhotos(event, uids, source);

    const spend =
      source === 'kiosk' ? await this.paidBy(event, input.attUid, uids, copies) : undefined;

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
    return this.queueSheets(e.id, sheets, spend, pool, copies);
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
    const { uids, copies } = withinLimits(event, input);
    const template = await storyTemplateOf(this.deps.templates, event);
    const fits = template
      ? uids.length === template.placeholderCounts
      : uids.length >= STORY_GRID_MIN && uids.length <= STORY_GRID_MAX;
    if (!fits) throw new AppError('story_photo_count_error', 'printable_photo_uid_array');
    const ordered = await this.printablePhotos(event, uids, by);
    const required = storyTags(e.opts.requiredTagsToGenerateStory);
    for (const photo of ordered) {
      const has = new Set(photo.tags.map(tagKey));
      if (!required.every((tag) => has.has(tag)))
        throw new AppError('story_tags_missing', 'printable_photo_uid_array');
    }
    const spend = by === 'kiosk' ? await this.paidBy(event, input.attUid, uids, copies) : undefined;
    const sheet: NewPrintJobRow = {
      eventId: e.id,
      pool,
      photoIds: ordered.map((p) => p.id),
      copies,
      state: 'queued',
      source: 'story',
      requestKey: input.client_request_id ? `story:${by}:${input.client_request_id}` : null,
      sheetIndex: 0,
      templateId: template?.id ?? null,
    };
    return this.queueSheets(e.id, [sheet], spend, pool, copies);
  }

  /**
   * Stores the sheets, with the kiosk's spend of paid prints in the same transaction, hands the
   * new ones to the printers and answers the call; a replayed request answers its first sheets.
   */
  private async queueSheets(
    eventId: number,
    sheets: NewPrintJobRow[],
    spend: { orderIds: readonly number[]; prints: number } | undefined,
    pool: string,
    copies: number,
  ) {
    const { jobs, replayed, paid } = await this.deps.printJobs.insertSheets(
      sheets,
      undefined,
      spend,
    );
    // Another kiosk spent the last prints between the check and now.
    if (!paid) throw new AppError('prints_not_paid', 'printable_photo_uid_array');
    if (!replayed) await dispatchSheets(this.deps.jobs, jobs);
    return {
      event_id: eventId,
      printer_pool_name: jobs[0]?.pool ?? pool,
      print_job_ids: jobs.map((j) => j.id),
      sheet_count: jobs.length,
      copies: jobs[0]?.copies ?? copies,
      replayed: replayed ? (1 as const) : (0 as const),
    };
  }
}
