import type { FastifyBaseLogger as Logger } from 'fastify';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { ImageProcessRepository } from '../../repositories/printing/image-process.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import {
  TAG_STORY_KEY,
  type PrintJobRepository,
  type TagStoryCandidate,
} from '../../repositories/printing/print-job.repository.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import {
  defaultPool,
  dispatchSheets,
  eventPools,
  printTemplateOf,
  storyTags,
  storyTemplateOf,
  STORY_GRID_MAX,
  STORY_GRID_MIN,
  tagKey,
} from './print-sheets.ts';

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

/**
 * Auto-print (`is_print_every_photo`): a sheet per new photo on `photo.ready`, or per variant of
 * the event's auto-print image processes; automatic stories (`lookForTagsInImages`): the
 * `print.tag-stories` job groups tagged photos of one owner into story sheets.
 */
export class AutoPrintService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      photos: PhotoRepository;
      printJobs: PrintJobRepository;
      templates: Pick<PrintTemplateRepository, 'findById'>;
      processes: Pick<ImageProcessRepository, 'listAutoPrintForEvent'>;
      jobs: JobSender;
      logger: Logger;
    },
  ) {}

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
    const template = await printTemplateOf(this.deps.templates, event);
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
    if (!replayed) await dispatchSheets(this.deps.jobs, jobs);
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
    const template = await storyTemplateOf(this.deps.templates, event);
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
    await dispatchSheets(this.deps.jobs, stories);
    return { status: stories.length > 0 ? 'queued' : 'waiting', stories: stories.length };
  }
}
