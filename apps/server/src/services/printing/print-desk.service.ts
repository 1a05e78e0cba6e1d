import {
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type PrintJob,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import {
  type PrintJobRepository,
  type PrintJobRow,
} from '../../repositories/printing/print-job.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { printJobForOwner, type SheetPhotos } from '../../presenters/print.presenter.ts';
import { dispatchSheets, eventPools } from './print-sheets.ts';

type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/**
 * The owner's print desk: the event's sheets with their photos and counts, cancel, reprint, and
 * pausing a pool (a paused pool renders and hands out nothing).
 */
export class PrintDeskService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      albums: AlbumRepository;
      printJobs: PrintJobRepository;
      storage: StorageRepository;
      jobs: JobSender;
      logger: Logger;
      clock: Clock;
    },
  ) {}

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
    await dispatchSheets(this.deps.jobs, [row]);
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
      await dispatchSheets(
        this.deps.jobs,
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
}
