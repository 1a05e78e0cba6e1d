import { Readable } from 'node:stream';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { PrinterAdapter } from '../../repositories/printing/file-printer.adapter.ts';
import {
  type NewPrintJobRow,
  type PrintJobRepository,
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
import { fillTextSlots } from './sheet-texts.ts';
import {
  defaultPool,
  dispatchSheets,
  eventPools,
  photosPerSheet,
  printTemplateOf,
} from './print-sheets.ts';
import {
  gridLayout,
  type SheetImages,
  type SheetRenderer,
} from '../../repositories/printing/sheet-renderer.ts';

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

/**
 * Sheets to printers: stored unlock-and-print requests become sheets; the `print.render` job
 * composes each sheet (the SheetRenderer, sharp) and hands it to the pool's printer or leaves it
 * in storage for the pool's print station; the `print.resume` sweep resends what a crash lost; a
 * deleted photo's sheets are cancelled and their files removed.
 */
export class SheetPrintService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      albums: AlbumRepository;
      printJobs: PrintJobRepository;
      stations: Pick<PrintStationRepository, 'poolHasStation'>;
      templates: Pick<PrintTemplateRepository, 'findById'>;
      storage: StorageRepository;
      printer: PrinterAdapter;
      sheets: SheetRenderer;
      jobs: JobSender;
      bus: SignalEmitter;
      logger: Logger;
      clock: Clock;
    },
  ) {}

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
    const template = await printTemplateOf(this.deps.templates, event);
    const perSheet = photosPerSheet(event, template);
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
    if (!replayed) await dispatchSheets(this.deps.jobs, jobs);
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
    await dispatchSheets(this.deps.jobs, stale);
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
    // A template's header and footer slots print the event's print header and footer messages.
    const layout = template
      ? fillTextSlots(templateLayoutOf(template), event.row.opts)
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
}
