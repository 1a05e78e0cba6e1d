import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { deletedEvent, removePhotoFiles } from './photo-files.ts';

const RETENTION_BATCH = 200;

/** Events with a retention rule (instant_archive_days, photo_auto_delete_days). */
export type RetentionEvents = () => Promise<
  {
    id: number;
    name: string;
    instantArchiveDays: number | null;
    autoDeleteDays: number | null;
  }[]
>;

/** Retention: archives originals and deletes photos after the event's days. Albums §7.2. */
export class PhotoRetentionService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      storage: StorageRepository;
      clock: Clock;
      bus: SignalEmitter;
      retentionEvents: RetentionEvents;
    },
  ) {}

  /** Job `photos.retention`: archive originals after instant_archive_days, delete after photo_auto_delete_days. */
  async runRetention(): Promise<{ archived: number; deleted: number }> {
    const now = this.deps.clock.now().getTime();
    let archived = 0;
    let deleted = 0;
    for (const event of await this.deps.retentionEvents()) {
      if (event.autoDeleteDays !== null) {
        const before = new Date(now - event.autoDeleteDays * 86_400_000);
        for (;;) {
          const batch = await this.deps.photos.dueForDeletion(event.id, before, RETENTION_BATCH);
          if (batch.length === 0) break;
          deleted += await this.deps.photos.deleteWithAudit(
            batch,
            'photo_auto_delete_days',
            null,
            'auto_delete',
          );
          for (const photo of batch)
            await this.deps.bus.emit('photo.deleted', deletedEvent(photo, 'auto_delete'));
          await removePhotoFiles(this.deps.storage, batch);
        }
      }
      if (event.instantArchiveDays !== null) {
        const before = new Date(now - event.instantArchiveDays * 86_400_000);
        for (;;) {
          const batch = await this.deps.photos.dueForArchive(event.id, before, RETENTION_BATCH);
          if (batch.length === 0) break;
          for (const photo of batch) {
            const archiveKey = `archive/${photo.storageKey}`;
            // Copy, point the row at the copy, then remove the original: each step can be repeated.
            if (!(await this.deps.storage.head(archiveKey)))
              await this.deps.storage.copy(photo.storageKey, archiveKey);
            await this.deps.photos.update(photo.id, {
              storageKey: archiveKey,
              archivedAt: new Date(now),
            });
            await this.deps.storage.delete(photo.storageKey);
            archived += 1;
          }
        }
      }
    }
    return { archived, deleted };
  }
}
