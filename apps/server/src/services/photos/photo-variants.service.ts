import { createHash, createHmac } from 'node:crypto';
import { PHOTO_MAX_BYTES } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Signals } from '../../signals/signals.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { ImageEngine } from '../../repositories/photos/image-engine.ts';
import type { ImageProcessRepository } from '../../repositories/printing/image-process.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { keyForJob } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import {
  deletedEvent,
  IMMUTABLE,
  photoFolder,
  protectedPhotoFolder,
  readAll,
  removePhotoFiles,
} from './photo-files.ts';

/** The process kinds that make a file; `original` is the photo itself (nothing to make). */
const VARIANT_KINDS = new Set(['resize', 'watermark', 'print'] as const);
type VariantKind = 'resize' | 'watermark' | 'print';
const isVariantKind = (kind: string): kind is VariantKind => VARIANT_KINDS.has(kind as VariantKind);

/**
 * Image processes that run: each process the event chose in `image_process_id_array`
 * runs on every new photo as a `photo.image-process` job and makes a variant — a photo row with
 * `image_process_id`, `original_photo_id` (its original) and `is_original = 0`, hidden from
 * albums (`is_visible = 0`), with its own preview and thumbnail. The variant is announced as
 * `photo.variant_ready` (not `photo.ready`: it is no new photo for faces, streams or mail), which
 * auto-print listens to.
 */
export class PhotoVariantsService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      events: Pick<EventRepository, 'findById'>;
      processes: Pick<ImageProcessRepository, 'listForEvent'>;
      storage: StorageRepository;
      images: ImageEngine;
      jobs: JobSender;
      bus: SignalEmitter;
      logger: Logger;
      uidSecret: Buffer;
    },
  ) {}

  /**
   * `photo.deleted`: an original's variants go with it — rows (audited, reason "original
   * deleted") and files; each is announced deleted in turn, so its print files go too.
   */
  async removeVariantsOf(notice: Signals['photo.deleted']): Promise<number> {
    const variants = await this.deps.photos.variantsOf(notice.photoId);
    if (variants.length === 0) return 0;
    const deleted = await this.deps.photos.deleteWithAudit(variants, 'original deleted', null);
    for (const row of variants)
      await this.deps.bus.emit('photo.deleted', deletedEvent(row, notice.reason));
    await removePhotoFiles(this.deps.storage, variants);
    return deleted;
  }

  /** `photo.ready`: one job per process of the event that makes a file. Variants get none. */
  async enqueueFor(photoId: number): Promise<number> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo || photo.mediaType !== 'image' || photo.imageProcessId !== null) return 0;
    const processes = await this.deps.processes.listForEvent(photo.eventId);
    let sent = 0;
    for (const process of processes) {
      if (!isVariantKind(process.kind)) continue;
      await this.deps.jobs.send('photo.image-process', {
        photoId: photo.id,
        imageProcessId: process.id,
      });
      sent += 1;
    }
    return sent;
  }

  /**
   * Job `photo.image-process`: makes one variant. Idempotent: a variant already made is announced
   * again (auto-print keys its sheet by the variant, so that prints once) and nothing is redone.
   */
  async run(photoId: number, imageProcessId: number): Promise<{ status: string }> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo || photo.status !== 'ready' || photo.mediaType !== 'image')
      return { status: 'skipped' };
    const process = (await this.deps.processes.listForEvent(photo.eventId)).find(
      (p) => p.id === imageProcessId,
    );
    // The event no longer runs this process: nothing to make.
    if (!process || !isVariantKind(process.kind)) return { status: 'skipped' };
    const existing = await this.deps.photos.findVariant(photo.id, process.id);
    if (existing) {
      await this.announce(existing.id, photo.eventId, photo.id, process.id);
      return { status: 'exists' };
    }
    const event = await this.deps.events.findById(photo.eventId);
    if (!event) return { status: 'skipped' };
    const object = await this.deps.storage.get(photo.storageKey);
    if (!object) return { status: 'original_missing' };
    const original = await readAll(object.body, PHOTO_MAX_BYTES);
    const overlay = process.kind === 'watermark' ? await this.watermarkOf(event) : undefined;
    const bytes = await this.deps.images.processVariant(original, process.kind, overlay);
    const made = await this.deps.images.makeDerivatives(bytes, {});

    const uid = createHmac('sha256', this.deps.uidSecret)
      .update(`${photo.uid}:process:${process.id}`)
      .digest('hex')
      .slice(0, 24);
    const hidden = protectedPhotoFolder(event.row.name, uid);
    const storageKey = `${hidden}original.jpg`;
    const derivatives = {
      preview: `${hidden}preview.jpg`,
      thumbnail: `${photoFolder(event.row.name, uid)}thumbnail.jpg`,
    };
    await this.deps.storage.put(storageKey, bytes, 'image/jpeg');
    await this.deps.storage.put(derivatives.preview, made.preview, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    await this.deps.storage.put(derivatives.thumbnail, made.thumbnail, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    const stem = photo.fileName.replace(/\.[^.]+$/, '');
    const dimensions = await this.deps.images.inspect(bytes);
    const { photo: variant } = await this.deps.photos.insertOrGet({
      uid,
      eventId: photo.eventId,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storageKey,
      fileName: `${stem}-${process.kind}.jpg`,
      contentType: 'image/jpeg',
      mediaType: 'image',
      width: typeof dimensions === 'string' ? made.width : dimensions.width,
      height: typeof dimensions === 'string' ? made.height : dimensions.height,
      sizeBytes: bytes.length,
      robotId: photo.robotId,
      attendeeUid: photo.attendeeUid,
      category: photo.category,
      tags: photo.tags,
      printable: photo.printable,
      isVisible: 0,
      isOriginal: 0,
      isCuratable: 0,
      imageProcessId: process.id,
      originalPhotoId: photo.id,
      status: 'ready',
      derivatives,
      createdAt: photo.createdAt,
      availableAt: photo.availableAt,
    });
    this.deps.logger.info(
      { photoId: photo.id, variantId: variant.id, imageProcessId: process.id },
      'image process: variant made',
    );
    await this.announce(variant.id, photo.eventId, photo.id, process.id);
    return { status: 'made' };
  }

  private announce(photoId: number, eventId: number, originalPhotoId: number, processId: number) {
    return this.deps.bus.emit('photo.variant_ready', {
      photoId,
      eventId,
      originalPhotoId,
      imageProcessId: processId,
    });
  }

  /**
   * The event's watermark image from storage when it lies in the event's own upload areas
   * (storage/owned-references.ts), else the built-in one.
   */
  private async watermarkOf(event: EventRecord): Promise<Buffer> {
    const field = event.row.photo_watermark ? 'photo_watermark' : 'live_view_watermark';
    const key = keyForJob(
      event.row[field],
      { organisationId: event.row.organisationId, eventCode: event.row.name },
      this.deps.storage.publicUrl('x').slice(0, -1),
      (details, message) => this.deps.logger.warn(details, message),
      { eventId: event.row.id, field },
    );
    if (key) {
      try {
        const object = await this.deps.storage.get(key);
        if (object) return await readAll(object.body, 20 * 1024 * 1024);
      } catch {
        // unreadable: the built-in watermark
      }
    }
    return this.deps.images.defaultWatermark();
  }
}
