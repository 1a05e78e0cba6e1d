import { faceConsentVersion, type EventOpts } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type { FaceSelfieRepository } from '../../repositories/faces/face-selfie.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  distanceForSimilarity,
  faceDistance,
} from './face-similarity.ts';

/** A selfie lives this long when the event sets neither a selfie expiration nor a photo retention. */
export const DEFAULT_SELFIE_DAYS = 30;
/** At most one "new photos of you" message per attendee and event in this many minutes. */
export const ASSOCIATION_NOTICE_MINUTES = 30;
/** Selfies deleted per expiry batch (the job loops until none is due). */
const EXPIRY_BATCH = 200;
type EventLike = {
  id: number;
  opts: Partial<EventOpts> | null;
  photo_auto_delete_days: number | null;
};

/**
 * Consent, retention and association of guests' selfies (§6,
 * docs/domains/faces.md). No selfie is stored or searched with before the guest accepted the
 * event's face-recognition text (its version and the time are kept with the selfie); selfies
 * and their descriptors go when the event's selfie expiration passes, at the latest with its
 * photo retention; an attendee's selfie within the association time keeps matching new photos.
 */
export class FaceSelfieService {
  constructor(
    private readonly deps: {
      selfies: FaceSelfieRepository;
      storage: StorageRepository;
      attendees: Pick<AttendeeRepository, 'attach'>;
      /** Sends the event topic's message to the attendee (at most once per fact key). */
      notifyAttendee: (eventId: number, attendeeId: number, factKey: string) => Promise<void>;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** The version of the event's face-recognition text guests must have accepted. */
  consentVersion(event: { opts: Partial<EventOpts> | null }): string {
    return faceConsentVersion(event.opts?.faceRecognitionText ?? '');
  }

  /** `face_consent_required` without a version, `face_consent_outdated` with another one. */
  requireConsent(event: { opts: Partial<EventOpts> | null }, given: string | undefined): string {
    if (!given) throw new AppError('face_consent_required', 'face_consent_version');
    const current = this.consentVersion(event);
    if (given !== current) throw new AppError('face_consent_outdated', 'face_consent_version');
    return current;
  }

  /** When a selfie taken now expires: the selfie expiration, at the latest the photo retention. */
  expiresAt(event: EventLike, now: Date): Date {
    const limits: number[] = [];
    const minutes = event.opts?.selfieExpirationMinutes;
    if (typeof minutes === 'number') limits.push(minutes * 60_000);
    if (event.photo_auto_delete_days !== null)
      limits.push(event.photo_auto_delete_days * 86_400_000);
    if (limits.length === 0) limits.push(DEFAULT_SELFIE_DAYS * 86_400_000);
    return new Date(now.getTime() + Math.min(...limits));
  }

  /** Records a consented selfie under `key` (the upload grant). */
  async record(input: {
    event: EventLike;
    key: string;
    keyType: string;
    attendeeId: number | null;
    consentVersion: string;
  }) {
    const now = this.deps.clock.now();
    const association = input.event.opts?.selfieAssociationMinutes;
    return this.deps.selfies.add({
      eventId: input.event.id,
      storageKey: input.key,
      keyType: input.keyType,
      attendeeId: input.attendeeId,
      consentVersion: input.consentVersion,
      consentedAt: now,
      expiresAt: this.expiresAt(input.event, now),
      associateUntil:
        input.attendeeId !== null && typeof association === 'number' && association > 0
          ? new Date(now.getTime() + association * 60_000)
          : null,
    });
  }

  /**
   * Job `faces.selfies-expire`: deletes every selfie due (object first, then its row and
   * descriptor, the deletion counted). A crash between the two leaves the row: the next run
   * deletes the (already missing) object again and the row. Answers how many went.
   */
  async expire(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.deps.clock.now();
      const due = await this.deps.selfies.due(now, EXPIRY_BATCH);
      if (due.length === 0) return total;
      for (const selfie of due) await this.deps.storage.delete(selfie.key);
      total += await this.deps.selfies.deleteExpired(
        due.map((s) => s.id),
        now,
      );
      if (due.length < EXPIRY_BATCH) return total;
    }
  }

  /**
   * After a photo's faces were indexed: every attendee's selfie of the event still within its
   * association time that matches one of them (default threshold) attaches the photo to that
   * attendee's album; each attendee with new photos gets "new photos of you" at most once per
   * ASSOCIATION_NOTICE_MINUTES.
   */
  async associate(
    photo: { id: number; eventId: number },
    model: string,
    faces: readonly { embedding: Float32Array | readonly number[] }[],
  ): Promise<number[]> {
    if (faces.length === 0) return [];
    const now = this.deps.clock.now();
    const selfies = await this.deps.selfies.associating(photo.eventId, model, now);
    const limit = distanceForSimilarity(DEFAULT_FACE_MATCH_THRESHOLD);
    const attendees = new Set<number>();
    for (const selfie of selfies) {
      if (!selfie.descriptor || selfie.attendeeId === null) continue;
      const descriptor = selfie.descriptor;
      if (faces.some((face) => faceDistance(descriptor, Array.from(face.embedding)) <= limit))
        attendees.add(selfie.attendeeId);
    }
    const notified: number[] = [];
    for (const attendeeId of attendees) {
      const added = await this.deps.attendees.attach(attendeeId, [photo.id], 'face');
      if (added === 0) continue;
      const bucket = Math.floor(now.getTime() / (ASSOCIATION_NOTICE_MINUTES * 60_000));
      if (
        await this.deps.selfies.claimNotice(
          photo.eventId,
          attendeeId,
          now,
          ASSOCIATION_NOTICE_MINUTES,
        )
      ) {
        try {
          await this.deps.notifyAttendee(photo.eventId, attendeeId, `faces:${bucket}`);
          notified.push(attendeeId);
        } catch (error) {
          // The photo is in the album either way; the message is not worth failing the index.
          this.deps.logger.warn(
            { attendeeId, eventId: photo.eventId, err: error },
            'faces: new photos of you not sent',
          );
        }
      }
    }
    return notified;
  }
}
