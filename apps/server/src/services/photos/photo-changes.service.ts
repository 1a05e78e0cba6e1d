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
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Permission } from '../../access/permissions.ts';
import type { Principal } from '../../access/principal.ts';
import { deletedEvent, removePhotoFiles } from './photo-files.ts';
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
      access: AccessControl;
      storage: StorageRepository;
      urls: PhotoUrls;
      jobs: JobSender;
      bus: SignalEmitter;
    },
  ) {}

  private present(row: PhotoRow): Photo {
    return presentPhoto(row, 'owner', this.deps.urls);
  }

  /** `photo.shown` / `photo.hidden` for the rows whose visibility the change flips. */
  private async visibilityChanged(rows: PhotoRow[], isVisible: 0 | 1 | undefined): Promise<void> {
    if (isVisible === undefined) return;
    for (const row of rows) {
      if (row.isVisible === isVisible) continue;
      await this.deps.bus.emit(isVisible === 1 ? 'photo.shown' : 'photo.hidden', {
        photoId: row.id,
        eventId: row.eventId,
      });
    }
  }

  /** Photos by id, each of an event the caller holds `permission` on; `not_found` otherwise. */
  private async photosOf(
    principal: Principal,
    permission: Permission,
    ids: number[],
    field: string,
  ): Promise<{ rows: PhotoRow[]; userId: number | null }> {
    const rows = await this.deps.photos.findByIds([...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw new AppError('not_found', field);
    let userId: number | null = null;
    const checked = new Set<number>();
    for (const row of rows) {
      if (checked.has(row.eventId)) continue;
      const grant = await this.deps.access.requireEventAccess(principal, permission, {
        photo: row,
        field,
      });
      userId = grant.actor?.userId ?? null;
      checked.add(row.eventId);
    }
    return { rows, userId };
  }

  /** `photo/delete`: one photo, the reason optional. */
  async deleteOne(principal: Principal, input: ParsedBodyOf<typeof deletePhoto>): Promise<number> {
    return this.delete(principal, [input.photo_id], input.delete_reason ?? null, 'photo_id');
  }

  /** `photo/list/delete`: many photos, the reason required. */
  async deleteMany(
    principal: Principal,
    input: ParsedBodyOf<typeof deletePhotoList>,
  ): Promise<number> {
    return this.delete(principal, input.photo_id_array, input.delete_reason, 'photo_id_array');
  }

  private async delete(
    principal: Principal,
    ids: number[],
    reason: string | null,
    field: string,
  ): Promise<number> {
    const { rows, userId } = await this.photosOf(principal, 'photo.delete', ids, field);
    // Rows (with the audit entry) first: a crash then leaves unreachable files, never rows
    // pointing at missing files.
    const deleted = await this.deps.photos.deleteWithAudit(rows, reason, userId);
    for (const row of rows) await this.deps.bus.emit('photo.deleted', deletedEvent(row, 'owner'));
    await removePhotoFiles(this.deps.storage, rows);
    return deleted;
  }

  async update(principal: Principal, input: ParsedBodyOf<typeof updatePhoto>): Promise<Photo> {
    const {
      rows: [row],
    } = await this.photosOf(principal, 'photo.curate', [input.id], 'id');
    const updated = await this.deps.photos.update(row!.id, {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    });
    await this.visibilityChanged([row!], input.is_visible);
    return this.present(updated ?? row!);
  }

  async updateMany(
    principal: Principal,
    input: ParsedBodyOf<typeof updatePhotoList>,
  ): Promise<number> {
    const { rows } = await this.photosOf(principal, 'photo.curate', input.id_array, 'id_array');
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
    await this.visibilityChanged(rows, input.is_visible);
    return updated;
  }

  /** The curation page (event-owner key of the link): hide, show or categorise; answers the photos. */
  async updateManyByKey(
    principal: Principal,
    input: ParsedBodyOf<typeof publicUpdatePhotoList>,
  ): Promise<{ photos: Photo[] }> {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.curate', {
      keyEvent: true,
    });
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
      await this.visibilityChanged(rows, input.is_visible);
    }
    const updated = await this.deps.photos.findByIds(ids);
    return { photos: updated.map((row) => this.present(row)) };
  }

  /** A photo the caller may curate (operators and event-owner keys of its event), else `not_found`. */
  private async curatedPhoto(principal: Principal, photoId: number, field: string) {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo) throw new AppError('not_found', field);
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.curate', {
      photo,
      field,
    });
    return { photo, event: grant.event };
  }

  async curationUpdate(
    principal: Principal,
    input: ParsedBodyOf<typeof curationUpdate>,
  ): Promise<Photo> {
    const { photo, event: record } = await this.curatedPhoto(
      principal,
      input.original_photo_id,
      'original_photo_id',
    );
    const event = record.row;
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
    principal: Principal,
    input: ParsedBodyOf<typeof curationReprocess>,
  ): Promise<Photo> {
    const { photo } = await this.curatedPhoto(principal, input.photo_id, 'photo_id');
    const updated = await this.deps.photos.update(photo.id, { status: 'processing' });
    await this.deps.jobs.send('photo.derivatives', { photoId: photo.id });
    return this.present(updated ?? photo);
  }

  /** `activity/create-by-robot-id`: one activity, on a photo or on none. */
  async createActivity(
    principal: Principal,
    input: ParsedBodyOf<typeof createActivity>,
  ): Promise<{ id: number }> {
    const [id] = await this.addActivities(principal, {
      ...input,
      photo_ids: input.photo_id ? [input.photo_id] : [],
    });
    return { id: id ?? 0 };
  }

  /** `activity/bulk-create-by-robot-id`: one activity on many photos. */
  async bulkCreateActivity(
    principal: Principal,
    input: ParsedBodyOf<typeof bulkCreateActivity>,
  ): Promise<{ created: number }> {
    const ids = await this.addActivities(principal, { ...input, photo_ids: input.photo_id_array });
    return { created: ids.length };
  }

  private async addActivities(
    principal: Principal,
    input: Pick<ParsedBodyOf<typeof createActivity>, 'robot_id' | 'activity_name' | 'type'> & {
      photo_ids: number[];
    },
  ): Promise<number[]> {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.activity', {
      keyEvent: true,
    });
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
