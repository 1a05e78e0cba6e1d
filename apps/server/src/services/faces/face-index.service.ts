import { EVENT_LIMITS } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { FaceRepository } from '../../repositories/faces/face.repository.ts';
import type {
  DetectedFace,
  FaceEngineProvider,
} from '../../repositories/faces/engine/face-engine-provider.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { readAll } from '../photos/photo-files.ts';
import { minScoreForConfidence } from './face-similarity.ts';

/** Faces narrower or lower than this (preview pixels) are not indexed. */
export const MIN_FACE_PIXELS = 40;
/** Photos indexed per `faces.backfill` job; the job queues itself again while more remain. */
export const BACKFILL_BATCH = 20;
/** Events queued per sweep. */
const SWEEP_EVENTS = 100;
/** Previews are at most 2000 px JPEGs; anything far larger is not a preview. */
const MAX_PREVIEW_BYTES = 30 * 1024 * 1024;

/**
 * The event's forced index tags (owner console §3, `opts.forcedIndexTags`): every photo indexed
 * carries them (with or without faces), next to the tags it came with — album stock-image tag
 * policies and paid tag unlocks see them. Blank entries are ignored.
 */
export const forcedIndexTags = (
  opts: { forcedIndexTags?: unknown } | null | undefined,
): string[] =>
  Array.isArray(opts?.forcedIndexTags)
    ? opts.forcedIndexTags
        .filter((tag): tag is string => typeof tag === 'string')
        .map((tag) => tag.trim())
        .filter((tag) => tag.length > 0)
    : [];

export type IndexOutcome =
  | { status: 'indexed'; faces: number }
  | {
      status: 'skipped';
      reason:
        'photo_gone' | 'event_gone' | 'disabled' | 'not_an_image' | 'not_ready' | 'already_indexed';
    };

/**
 * Indexing of faces (docs/domains/faces.md): when a photo becomes ready in an event
 * with face recognition on, the `faces.index` job detects the faces of its preview and stores
 * those at or above the event's detection confidence and at least 40×40 preview pixels.
 * Idempotent: a photo already scanned with the same model and cut-off is left alone.
 */
export class FaceIndexService {
  constructor(
    private readonly deps: {
      faces: FaceRepository;
      photos: PhotoRepository;
      events: EventRepository;
      storage: StorageRepository;
      engine: FaceEngineProvider;
      jobs: JobSender;
      clock: Clock;
      logger: Logger;
      /** After a photo's faces are stored (attendee association). */
      onIndexed?: (
        photo: { id: number; eventId: number },
        model: string,
        faces: DetectedFace[],
      ) => Promise<unknown>;
    },
  ) {}

  /** `photo.ready`: queue the photo's indexing when its event has face recognition on. */
  async onPhotoReady(notice: { photoId: number; eventId: number }) {
    const event = await this.deps.events.findById(notice.eventId);
    if (!event || event.row.enable_facial_recognition !== 1) return;
    await this.deps.jobs.send('faces.index', { photoId: notice.photoId });
  }

  /**
   * `event.updated`: face recognition may have been switched on; queue a backfill when the event
   * has photos not yet indexed (the job itself is a no-op otherwise).
   */
  async onEventUpdated(eventId: number): Promise<void> {
    const event = await this.deps.events.findById(eventId);
    if (!event || event.row.enable_facial_recognition !== 1) return;
    const [pending] = await this.deps.faces.unscannedPhotoIds(
      eventId,
      this.deps.engine.model,
      1,
      this.minScoreFor(event.row.opts),
    );
    if (pending === undefined) return;
    await this.deps.jobs.send('faces.backfill', { eventId });
  }

  /**
   * Job `faces.sweep` (every ten minutes): queues a backfill for every event with face
   * recognition on and photos not yet indexed — an event switched on later, a lost job, a new
   * model. Answers the events queued.
   */
  async sweep(): Promise<number[]> {
    const model = this.deps.engine.model;
    const eventIds = new Set(await this.deps.faces.eventsNeedingIndex(model, SWEEP_EVENTS));
    // Events whose confidence setting changed since their photos were scanned.
    for (const scan of await this.deps.faces.scanCutOffs(model, SWEEP_EVENTS * 10)) {
      const wanted = Math.fround(
        this.minScoreFor(scan.opts as { faceRecognitionConfidence?: number } | null),
      );
      if (Math.fround(scan.minScore) !== wanted) eventIds.add(scan.eventId);
    }
    for (const eventId of eventIds) await this.deps.jobs.send('faces.backfill', { eventId });
    return [...eventIds];
  }

  /**
   * Job `faces.backfill`: indexes up to BACKFILL_BATCH photos of the event not yet scanned, and
   * queues itself again while more remain and the batch made progress. Answers how many were
   * indexed. Progress is visible through the counts (`faceDataInfo`).
   */
  async backfill(eventId: number): Promise<number> {
    const event = await this.deps.events.findById(eventId);
    if (!event || event.row.enable_facial_recognition !== 1) return 0;
    const ids = await this.deps.faces.unscannedPhotoIds(
      eventId,
      this.deps.engine.model,
      BACKFILL_BATCH,
      this.minScoreFor(event.row.opts),
    );
    let indexed = 0;
    for (const id of ids) {
      const outcome = await this.indexPhoto(id);
      if (outcome.status === 'indexed') indexed++;
    }
    // The next batch under its own key: this job is still active under the event's key.
    if (ids.length === BACKFILL_BATCH && indexed > 0)
      await this.deps.jobs.send(
        'faces.backfill',
        { eventId },
        { singletonKey: `faces.backfill:${eventId}:after:${ids.at(-1)}` },
      );
    return indexed;
  }

  /** The detector score a face needs in this event (its confidence setting, mapped). */
  minScoreFor(opts: { faceRecognitionConfidence?: number } | null | undefined): number {
    return minScoreForConfidence(
      opts?.faceRecognitionConfidence ?? EVENT_LIMITS.defaultFaceConfidence,
    );
  }

  /** Job `faces.index`. Unreadable previews are indexed as faceless (the job must not loop). */
  async indexPhoto(photoId: number): Promise<IndexOutcome> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo) return { status: 'skipped', reason: 'photo_gone' };
    if (photo.status !== 'ready') return { status: 'skipped', reason: 'not_ready' };
    const event = await this.deps.events.findById(photo.eventId);
    if (!event) return { status: 'skipped', reason: 'event_gone' };
    if (event.row.enable_facial_recognition !== 1) return { status: 'skipped', reason: 'disabled' };
    const previewKey = photo.derivatives.preview;
    if (photo.mediaType === 'video' || !previewKey)
      return { status: 'skipped', reason: 'not_an_image' };
    const minScore = this.minScoreFor(event.row.opts);
    const { engine } = this.deps;
    const previous = await this.deps.faces.scanOf(photo.id);
    if (previous && previous.model === engine.model && previous.minScore === Math.fround(minScore))
      return { status: 'skipped', reason: 'already_indexed' };
    const object = await this.deps.storage.get(previewKey);
    if (!object) return { status: 'skipped', reason: 'photo_gone' };
    const preview = await readAll(object.body, MAX_PREVIEW_BYTES);
    let faces: DetectedFace[];
    try {
      faces = await engine.detect(preview, { minScore, minSize: MIN_FACE_PIXELS });
    } catch (error) {
      if (error instanceof ProviderError && error.permanent) {
        this.deps.logger.warn(
          { photoId, reason: error.message },
          'face indexing: unreadable preview',
        );
        faces = [];
      } else throw error;
    }
    const stored = await this.deps.faces.replacePhotoFaces(
      photo,
      { model: engine.model, minScore, scannedAt: this.deps.clock.now() },
      faces,
      forcedIndexTags(event.row.opts),
    );
    if (!stored) return { status: 'skipped', reason: 'photo_gone' };
    await this.deps.onIndexed?.(photo, engine.model, faces);
    return { status: 'indexed', faces: faces.length };
  }
}
