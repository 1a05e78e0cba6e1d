import type { FastifyBaseLogger as Logger } from 'fastify';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { PhotoStorageRepository } from '../../repositories/photos/photo-storage.repository.ts';
import { legacyTwin, protectedTwin } from '../../storage/key-space.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

const BATCH = 200;

/**
 * Moves the files of photos stored before ADR 0006 into protected space: originals
 * (`events/…/original.*` → `protected/events/…`), archived originals (`archive/events/…` →
 * `archive/protected/events/…`) and unwatermarked previews (`events/…/preview.jpg` →
 * `protected/events/…`). On S3 the copies are private (no public-read ACL).
 *
 * Crash-safe and idempotent, one photo at a time: copy (skipped when the copy exists), then switch
 * the row to the new keys in one conditional UPDATE, then delete the old objects. A crash leaves
 * the row on the old keys (whose objects still exist) or on the new ones (already copied); the old
 * keys are a fixed function of the new ones (`legacyTwin`), so a retried photo job still deletes
 * them. The sweep enqueues one `storage.protect-photo` job per photo, which pg-boss retries until
 * it completes.
 */
export class StorageMigration {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      rows: PhotoStorageRepository;
      storage: StorageRepository;
      logger: Logger;
      /** Enqueues the photo's job (`storage.protect-photo`). */
      enqueue(photoId: number): Promise<void>;
    },
  ) {}

  /** Job `storage.protect-legacy` (once per worker start): one photo job per legacy row. */
  async sweep(): Promise<number> {
    let afterId = 0;
    let queued = 0;
    for (;;) {
      const batch = await this.deps.rows.withLegacyKeys(afterId, BATCH);
      if (batch.length === 0) break;
      for (const row of batch) await this.deps.enqueue(row.id);
      queued += batch.length;
      afterId = batch.at(-1)!.id;
    }
    if (queued > 0) this.deps.logger.info({ photos: queued }, 'storage migration queued');
    return queued;
  }

  /** Job `storage.protect-photo`: moves one photo's protected files; safe to run again. */
  async protectPhoto(photoId: number): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = await this.deps.photos.findById(photoId);
      if (!row) return;
      if (await this.moveOnce(row)) return;
      // The row changed under us (retention archived it, another mover won): look again.
    }
    throw new Error(`storage migration of photo ${photoId} kept racing`);
  }

  /** Answers false when the row changed between read and switch. */
  private async moveOnce(row: PhotoRow): Promise<boolean> {
    const { storage } = this.deps;
    const moves: { from: string; to: string }[] = [];
    const plan = (key: string | undefined): string | undefined => {
      if (!key) return key;
      const to = protectedTwin(key);
      if (!to) return key;
      moves.push({ from: key, to });
      return to;
    };
    const storageKey = plan(row.storageKey) ?? row.storageKey;
    const preview = plan(row.derivatives.preview);

    if (moves.length === 0) {
      // Already switched: delete what a crash may have left at the old keys.
      for (const key of [row.storageKey, row.derivatives.preview]) {
        const old = key ? legacyTwin(key) : null;
        if (old) await storage.delete(old);
      }
      return true;
    }

    const done: { from: string; to: string }[] = [];
    for (const move of moves) {
      if (!(await storage.head(move.to))) {
        if (!(await storage.head(move.from))) {
          // Neither copy exists: nothing to move; the row keeps its key (nothing gets worse).
          this.deps.logger.warn({ photoId: row.id, key: move.from }, 'storage migration: missing');
          continue;
        }
        await storage.copy(move.from, move.to);
      }
      done.push(move);
    }
    const moved = new Set(done.map((m) => m.from));
    const next = {
      storageKey: moved.has(row.storageKey) ? storageKey : row.storageKey,
      derivatives: {
        ...row.derivatives,
        ...(preview && row.derivatives.preview && moved.has(row.derivatives.preview)
          ? { preview }
          : {}),
      },
    };
    if (done.length > 0 && !(await this.deps.rows.switchKeys(row, next))) return false;
    for (const move of done) await storage.delete(move.from);
    return true;
  }
}
