import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/**
 * How long an upload may wait in `tmp/` for its completion call. A grant lives 10 minutes and a
 * client completes seconds after its POST; a robot that lost its connection retries with a new
 * grant (a new key), so an object this old will never be completed.
 */
export const TMP_UPLOAD_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/**
 * How long a completion's claim on its upload protects the object. A completion reads, probes and
 * copies one file (seconds, a long clip a few minutes); a claim older than this was left by a
 * process that died mid-completion.
 */
export const UPLOAD_CLAIM_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Removes uploads nothing will complete: objects under `tmp/` that were already turned
 * into a photo (the process died between recording the upload and deleting its object) and those
 * older than {@link TMP_UPLOAD_MAX_AGE_MS} (POSTed before a crash and retried under a new key, or
 * abandoned by their client) that no completion is working on (a fresh claim in `upload_claims`).
 * A completion racing the sweep is safe: a recorded upload is answered from its photo row without
 * reading the object again. Runs at every worker start and hourly.
 */
export class UploadSweep {
  constructor(
    private readonly deps: {
      storage: StorageRepository;
      photos: Pick<
        PhotoRepository,
        'photoForUpload' | 'uploadsClaimedSince' | 'deleteUploadClaimsBefore'
      >;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** Job `storage.sweep-uploads`: answers how many objects it removed. */
  async sweep(): Promise<{ removed: number; kept: number }> {
    const now = this.deps.clock.now().getTime();
    const cutoff = now - TMP_UPLOAD_MAX_AGE_MS;
    const claimCutoff = new Date(now - UPLOAD_CLAIM_MAX_AGE_MS);
    await this.deps.photos.deleteUploadClaimsBefore(claimCutoff);
    const inProgress = await this.deps.photos.uploadsClaimedSince(claimCutoff);
    let removed = 0;
    let kept = 0;
    for await (const object of this.deps.storage.list('tmp/')) {
      if (inProgress.has(object.key)) {
        kept += 1;
        continue;
      }
      const stale = object.lastModified.getTime() < cutoff;
      const completed = stale || (await this.deps.photos.photoForUpload(object.key)) !== undefined;
      if (stale || completed) {
        await this.deps.storage.delete(object.key);
        removed += 1;
      } else {
        kept += 1;
      }
    }
    if (removed > 0) this.deps.logger.info({ removed, kept }, 'swept left-over uploads');
    return { removed, kept };
  }
}
