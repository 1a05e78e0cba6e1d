import type {
  moderationDecide,
  moderationLog,
  moderationQueue,
  ModerationLogEntry,
  ParsedBodyOf,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { AppError } from '../../lib/app-error.ts';
import { presentOperatorPhoto } from '../../presenters/photo.presenter.ts';
import type { ModerationRepository } from '../../repositories/photos/moderation.repository.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { deletedEvent, photoFilePrefixes } from './photo-files.ts';
import type { PhotoUrls } from './photo-urls.ts';

/** Approved photos announced per round of the release job. */
const RELEASE_BATCH = 100;

/**
 * The moderation queue of an event (owner console): the photos held at upload
 * (`heldForModeration`, moderation.ts) wait here; approving releases them, rejecting deletes them.
 * Who sees a held photo is decided by photo-visibility.ts, nowhere else.
 *
 * Exactly-once release: an approval stores `releasing` on the photo in the transaction that logs
 * it; job `photos.moderation-release` (sent at once, and every five minutes for a send lost to a
 * crash) emits `photo.ready` and then stores `approved`. A crash between the two emits it again
 * on the next round; what `photo.ready` starts is keyed by photo (the outbox's fact key
 * `photo:<id>`, auto-print's request key, the faces scan per photo), so no guest gets a message or
 * a print twice.
 */
export class PhotoModerationService {
  constructor(
    private readonly deps: {
      moderation: ModerationRepository;
      access: AccessControl;
      urls: PhotoUrls;
      jobs: JobSender;
      bus: SignalEmitter;
      logger: Logger;
    },
  ) {}

  async queue(principal: Principal, input: ParsedBodyOf<typeof moderationQueue>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.moderate', {
      eventId: input.event_id,
    });
    const filter = {
      eventId: event.row.id,
      ...(input.robot_id !== undefined ? { robotId: input.robot_id } : {}),
      ...(input.tag !== undefined ? { tag: input.tag.replace(/^#+/, '') } : {}),
    };
    const offset = (input.page_number - 1) * input.max_size;
    const rows = await this.deps.moderation.queue(filter, input.max_size, offset);
    const facets = await this.deps.moderation.queueFacets(event.row.id);
    return {
      photos: rows.map((row) => presentOperatorPhoto(row, this.deps.urls)),
      total_count: await this.deps.moderation.queueCount(filter),
      robots: facets.robots,
      tags: facets.tags,
    };
  }

  /**
   * Approves or rejects waiting photos of the event. Every id must be a waiting photo of the event
   * (`not_found` otherwise, and nothing changes); rejecting needs a reason.
   */
  async decide(principal: Principal, input: ParsedBodyOf<typeof moderationDecide>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.moderate', {
      eventId: input.event_id,
    });
    const eventId = grant.event.row.id;
    const userId = grant.actor?.userId ?? null;
    const reason = input.reason?.trim() || null;
    if (input.decision === 'reject' && !reason)
      throw new AppError('delete_reason_required', 'reason');
    const ids = [...new Set(input.photo_id_array)];
    const waiting = await this.deps.moderation.pendingOf(eventId, ids);
    if (waiting.length !== ids.length) throw new AppError('not_found', 'photo_id_array');

    if (input.decision === 'approve') {
      const { releasing, approved } = await this.deps.moderation.approve(
        eventId,
        ids,
        userId,
        reason,
      );
      if (releasing > 0) await this.sendRelease();
      return { approved: releasing + approved, rejected: 0 };
    }
    const rows = await this.deps.moderation.reject(eventId, ids, userId, reason!, (row) =>
      photoFilePrefixes(row),
    );
    for (const row of rows) await this.deps.bus.emit('photo.deleted', deletedEvent(row, 'owner'));
    if (rows.length > 0) await this.deps.jobs.send('storage.delete-pending', {});
    return { approved: 0, rejected: rows.length };
  }

  /** The job's send after an approval; a lost send is made up by the job's schedule. */
  private async sendRelease(): Promise<void> {
    try {
      await this.deps.jobs.send('photos.moderation-release', {});
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'moderation release not sent; the schedule sends it');
    }
  }

  async log(
    principal: Principal,
    input: ParsedBodyOf<typeof moderationLog>,
  ): Promise<{ entries: ModerationLogEntry[]; total_count: number }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.moderate', {
      eventId: input.event_id,
    });
    const { rows, total } = await this.deps.moderation.log(
      event.row.id,
      input.max_size,
      (input.page_number - 1) * input.max_size,
    );
    return {
      entries: rows.map((r) => ({
        id: r.id,
        photo_id: r.photoId,
        photo_uid: r.photoUid,
        file_name: r.fileName,
        decision: r.action,
        reason: r.reason,
        user_email: r.actorEmail,
        created_at: r.createdAt.toISOString(),
      })),
      total_count: total,
    };
  }

  /**
   * Job `photos.moderation-release`: `photo.ready` for every approved photo whose announcement is
   * owed, then `approved` (see the class comment for why a repeat is harmless).
   */
  async release(): Promise<{ released: number }> {
    let released = 0;
    for (;;) {
      const rows = await this.deps.moderation.releasing(RELEASE_BATCH);
      if (rows.length === 0) return { released };
      for (const row of rows) {
        await this.deps.bus.emit('photo.ready', { photoId: row.id, eventId: row.eventId });
        await this.deps.moderation.released(row.id);
        released += 1;
      }
    }
  }
}
