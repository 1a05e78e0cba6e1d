import type { FastifyBaseLogger as Logger } from 'fastify';
import type { StorageDeletionRepository } from '../../repositories/photos/storage-deletion.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

const BATCH = 200;

/**
 * Deletes storage a committed change left unreachable (a privacy erasure's selfies, profile
 * photos and photo folders). The change wrote what to delete in its own transaction, so a crash
 * after the commit loses nothing: job `storage.delete-pending` (after each erasure and every ten
 * minutes) deletes what is owed; a delete that fails stays owed and is tried again.
 */
export class StorageDeletions {
  constructor(
    private readonly deps: {
      rows: StorageDeletionRepository;
      storage: StorageRepository;
      logger: Logger;
    },
  ) {}

  /** Job `storage.delete-pending`: answers how many were deleted and how many failed. */
  async run(): Promise<{ deleted: number; failed: number }> {
    let deleted = 0;
    let failed = 0;
    let afterFailures = new Set<number>();
    for (;;) {
      const due = (await this.deps.rows.due(BATCH + afterFailures.size)).filter(
        (row) => !afterFailures.has(row.id),
      );
      if (due.length === 0) break;
      for (const row of due) {
        try {
          if (row.prefix.endsWith('/')) await this.deps.storage.deletePrefix(row.prefix);
          else await this.deps.storage.delete(row.prefix);
          await this.deps.rows.done(row.id);
          deleted += 1;
        } catch (error) {
          await this.deps.rows.failed(row.id);
          afterFailures = new Set([...afterFailures, row.id]);
          failed += 1;
          this.deps.logger.warn({ err: error, deletion: row.id }, 'storage delete failed; kept');
        }
      }
    }
    if (failed > 0) throw new Error(`${failed} storage deletes failed; they are tried again`);
    return { deleted, failed };
  }
}
