import type {
  bulkCreateActivity,
  createActivity,
  curationReprocess,
  curationUpdate,
  deletePhoto,
  deletePhotoList,
  ParsedBodyOf,
  Photo,
  publicUpdatePhotoList,
  updatePhoto,
  updatePhotoList,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { Actor } from '../actor.ts';
import type { EventAccess } from '../event-access.ts';
import type { PhotoCallers } from './photo-callers.ts';
import { announcePhotos, removePhotoFiles, type PhotoNotices } from './photo-files.ts';
import { presentPhoto } from './photo-presenter.ts';
import type { PhotoUrls } from './photo-urls.ts';

/**
 * Changes to photos: category and visibility, curation, reprocessing, deletion with an audit
 * trail, and robot activities. Albums spec §7.1.
 */
export class PhotoChangesService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      access: EventAccess;
      callers: PhotoCallers;
      storage: StorageRepository;
      urls: PhotoUrls;
      jobs: JobQueue;
      logger: Logger;
      /** Told when a photo becomes visible (live album streams). */
      photoEvents?: PhotoNotices;
    },
  ) {}

  private present(row: PhotoRow): Photo {
    return presentPhoto(row, 'owner', this.deps.urls);
  }

  private announce(rows: PhotoRow[]): Promise<void> {
    return announcePhotos(this.deps.photoEvents, this.deps.logger, rows);
  }

  private async photosOfActor(actor: Actor, ids: number[], field: string): Promise<PhotoRow[]> {
    const rows = await this.deps.photos.findByIds([...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw new AppError('not_found', field);
    const eventIds = [...new Set(rows.map((r) => r.eventId))];
    for (const eventId of eventIds) {
      try {
        await this.deps.access.visibleById(actor, eventId);
      } catch {
        throw new AppError('not_found', field);
      }
    }
    return rows;
  }

  /** `photo/delete`: one photo, the reason optional. */
  async deleteOne(actor: Actor, input: ParsedBodyOf<typeof deletePhoto>): Promise<number> {
    return this.delete(actor, [input.photo_id], input.delete_reason ?? null, 'photo_id');
  }

  /** `photo/list/delete`: many photos, the reason required. */
  async deleteMany(actor: Actor, input: ParsedBodyOf<typeof deletePhotoList>): Promise<number> {
    return this.delete(actor, input.photo_id_array, input.delete_reason, 'photo_id_array');
  }

  private async delete(
    actor: Actor,
    ids: number[],
    reason: string | null,
    field: string,
  ): Promise<number> {
    const rows = await this.photosOfActor(actor, ids, field);
    // Rows (with the audit entry) first: a crash then leaves unreachable files, never rows
    // pointing at missing files.
    const deleted = await this.deps.photos.deleteWithAudit(rows, reason, actor.userId);
    await removePhotoFiles(this.deps.storage, rows);
    return deleted;
  }

  async update(actor: Actor, input: ParsedBodyOf<typeof updatePhoto>): Promise<Photo> {
    const [row] = await this.photosOfActor(actor, [input.id], 'id');
    const updated = await this.deps.photos.update(row!.id, {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    });
    if (input.is_visible === 1 && row!.isVisible !== 1) await this.announce([row!]);
    return this.present(updated ?? row!);
  }

  async updateMany(actor: Actor, input: ParsedBodyOf<typeof updatePhotoList>): Promise<number> {
    const rows = await this.photosOfActor(actor, input.id_array, 'id_array');
    const changes = {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    };
    if (Object.keys(changes).length === 0) return 0;
    const updated = await this.deps.photos.updateMany(
      [...new Set(rows.map((r) => r.eventId))],
      rows.map((r) => r.id),
      changes,
    );
    if (input.is_visible === 1) await this.announce(rows.filter((r) => r.isVisible !== 1));
    return updated;
  }

  /** The curation page (event-owner key of the link): hide, show or categorise; answers the photos. */
  async updateManyByKey(
    input: ParsedBodyOf<typeof publicUpdatePhotoList>,
  ): Promise<{ photos: Photo[] }> {
    const caller = await this.deps.callers.byKey(input.key_type, input.key_value);
    if (input.key_type !== 'event_owner') throw new AppError('forbidden', 'key_type');
    const ids = [...new Set(input.id_array)];
    const rows = await this.deps.photos.findByIds(ids);
    if (rows.length !== ids.length || rows.some((r) => r.eventId !== caller.event.row.id)) {
      throw new AppError('not_found', 'id_array');
    }
    const changes = {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await this.deps.photos.updateMany([caller.event.row.id], ids, changes);
      if (input.is_visible === 1) await this.announce(rows.filter((r) => r.isVisible !== 1));
    }
    const updated = await this.deps.photos.findByIds(ids);
    return { photos: updated.map((row) => this.present(row)) };
  }

  async curationUpdate(
    actor: Actor | null,
    input: ParsedBodyOf<typeof curationUpdate>,
  ): Promise<Photo> {
    const { photo, caller } = await this.deps.callers.ownedPhoto(
      actor,
      input,
      input.original_photo_id,
      'original_photo_id',
    );
    const event = caller.event.row;
    if (input.full_path) {
      if (
        // The event's own files: a new version's original lies in protected space (ADR 0006).
        !(
          input.full_path.startsWith(`events/${event.name}/`) ||
          input.full_path.startsWith(`protected/events/${event.name}/`)
        ) ||
        !(await this.deps.storage.head(input.full_path))
      ) {
        throw new AppError('not_found', 'full_path');
      }
    }
    const updated = await this.deps.photos.update(photo.id, {
      isCurated: 1,
      ...(input.print_requested !== undefined ? { printRequested: input.print_requested } : {}),
      ...(input.full_path
        ? { derivatives: { ...photo.derivatives, curated: input.full_path } }
        : {}),
    });
    return this.present(updated ?? photo);
  }

  async reprocess(
    actor: Actor | null,
    input: ParsedBodyOf<typeof curationReprocess>,
  ): Promise<Photo> {
    const { photo } = await this.deps.callers.ownedPhoto(actor, input, input.photo_id, 'photo_id');
    const updated = await this.deps.photos.update(photo.id, { status: 'processing' });
    await this.deps.jobs.send('photo.derivatives', { photoId: photo.id });
    return this.present(updated ?? photo);
  }

  /** `activity/create-by-robot-id`: one activity, on a photo or on none. */
  async createActivity(input: ParsedBodyOf<typeof createActivity>): Promise<{ id: number }> {
    const [id] = await this.addActivities({
      ...input,
      photo_ids: input.photo_id ? [input.photo_id] : [],
    });
    return { id: id ?? 0 };
  }

  /** `activity/bulk-create-by-robot-id`: one activity on many photos. */
  async bulkCreateActivity(
    input: ParsedBodyOf<typeof bulkCreateActivity>,
  ): Promise<{ created: number }> {
    const ids = await this.addActivities({ ...input, photo_ids: input.photo_id_array });
    return { created: ids.length };
  }

  private async addActivities(input: {
    key_type: ParsedBodyOf<typeof createActivity>['key_type'];
    key_value: string;
    robot_id: number;
    photo_ids: number[];
    activity_name: string;
    type: string;
  }): Promise<number[]> {
    if (input.key_type !== 'robot') throw new AppError('invalid_key');
    const caller = await this.deps.callers.byKey('robot', input.key_value);
    if (caller.robotId !== input.robot_id) throw new AppError('invalid_key');
    const rows = await this.deps.photos.findByIds(input.photo_ids);
    if (
      rows.length !== new Set(input.photo_ids).size ||
      rows.some((r) => r.eventId !== caller.event.row.id)
    ) {
      throw new AppError('not_found', 'photo_id');
    }
    const ids = input.photo_ids.length ? input.photo_ids : [null];
    return this.deps.photos.addActivities(
      ids.map((photoId) => ({
        eventId: caller.event.row.id,
        robotId: input.robot_id,
        photoId,
        name: input.activity_name,
        type: input.type,
      })),
    );
  }
}
