import {
  type FaceMatch,
  type KeyFaceMatch,
  type keySearchByFace,
  type ParsedBodyOf,
  type searchByFace,
} from '@flashbulb/shared';
import type { InsightRepository } from '../../repositories/operations/insight.repository.ts';
import type { Quotas } from '../operations/quotas.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseFilterDate } from '../photos/filter-dates.ts';
import type {
  FaceMatch as FaceMatchRow,
  FaceRepository,
} from '../../repositories/faces/face.repository.ts';
import type {
  DetectedFace,
  FaceEngineProvider,
} from '../../repositories/faces/engine/face-engine-provider.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  PhotoFilter,
  PhotoRepository,
  PhotoRow,
} from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { distanceForSimilarity, similarityFromDistance } from './face-similarity.ts';
import { IgnoredFaceFilter } from './ignored-face-filter.ts';
import { largestFaceOf } from './reference-face.ts';
import { FaceVectorSearch, MAX_EVENTS } from './face-vectors.ts';
import type { FaceSelfieService } from './face-selfie.service.ts';
import type { FaceSelfieRepository } from '../../repositories/faces/face-selfie.repository.ts';
import type { PhotoUrls } from '../photos/photo-urls.ts';
import { SELFIE_ROOT } from './reference-photos.ts';
import { FaceReferences } from './face-references.ts';
import { quotaKeyOf } from './face-consent.service.ts';

type EventRow = { id: number; name: string; enable_facial_recognition: number };
type FaceBox = { x: number; y: number; width: number; height: number };
type SelfieRef = {
  id: number;
  attendeeId: number | null;
  associateUntil: Date | null;
  model: string | null;
};

/** At most this many matching faces are considered per reference face. */
const MAX_MATCHES = 5000;

/**
 * Search by face (docs/domains/faces.md). The reference photos are objects of this
 * server's storage (never fetched by URL); each one's largest face is searched for, like
 * Rekognition's SearchFacesByImage, with an exact distance search over the event's indexed faces.
 * Which references may be read: `face-references.ts`; the consent and selfie grant before a
 * guest's search: `face-consent.service.ts`; keeping what was found: `face-attach.service.ts`.
 */

export class FaceSearchService {
  private readonly vectors: FaceVectorSearch;
  private readonly ignoredFaces: IgnoredFaceFilter;
  private readonly references: FaceReferences;

  constructor(
    private readonly deps: {
      faces: FaceRepository;
      photos: PhotoRepository;
      listing: Pick<PhotoListingService, 'presentForOperator' | 'presentFor'>;
      storage: StorageRepository;
      engine: FaceEngineProvider;
      access: AccessControl;
      /** Our signed media URLs (`/media/photos/<id>/<variant>`) are accepted as references. */
      urls: Pick<PhotoUrls, 'fromUrl' | 'keyOf'>;
      clock: Clock;
      /** Consent and the selfie records. */
      selfieRules: Pick<FaceSelfieService, 'requireConsent'>;
      selfies: Pick<FaceSelfieRepository, 'findLive' | 'describe'>;
      /** Face searches per key (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'faceSearch'>;
      /** Counts each guest's search on the event's insight dashboard. */
      insight?: Pick<InsightRepository, 'recordHit'>;
    },
  ) {
    this.vectors = new FaceVectorSearch(deps.faces);
    this.references = new FaceReferences(deps);
    this.ignoredFaces = new IgnoredFaceFilter(deps);
  }

  /** `flashbulb-owner/photo/search-by-face`. */
  async searchByOwner(
    principal: Principal,
    input: ParsedBodyOf<typeof searchByFace>,
  ): Promise<{ photos: FaceMatch[]; searched_faces: number }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'face.search', {
      eventId: input.event_id,
    });
    const start = parseFilterDate(input.start_date, 'start_date');
    const end = parseFilterDate(input.end_date, 'end_date');
    if (start && end && end < start) throw new AppError('date_range_invalid', 'end_date');
    // Every reference is checked before any is read: one foreign URL refuses the whole call.
    const keys = await this.references.keysOf(event.row, input.photo_url_list, 'owner');
    if (event.row.enable_facial_recognition !== 1) throw new AppError('face_recognition_off');
    const references: DetectedFace[] = [];
    for (const key of keys) references.push(await largestFaceOf(this.deps, key));
    const best = await this.bestMatches(event.row, references, input.face_match_threshold, false);
    const rows = (await this.deps.photos.findByIds([...best.keys()])).filter(
      (row) => !(start && row.createdAt < start) && !(end && row.createdAt > end),
    );
    const photos = (await this.scored(rows, best, input.face_match_threshold)).map(
      ({ row, similarity, box }) => ({
        ...this.deps.listing.presentForOperator(row),
        similarity,
        face_box: box,
      }),
    );
    return { photos, searched_faces: references.length };
  }

  /**
   * `photo/search-by-face` (key twin): kiosk (private key), web app (public key) and attendee
   * keys search their event with a selfie (or a photo they were shown) and get the photos their
   * audience may see — published (ready, visible, past their delay), within the public stream's
   * window for a public key, within the attendee's album for an attendee key — in the guest view.
   */
  async searchByKey(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof keySearchByFace>, 'key_type' | 'key_value'>,
  ): Promise<{ photos: KeyFaceMatch[]; searched_faces: number }> {
    const found = await this.findForKey(principal, input);
    const { caller } = found;
    await this.deps.insight?.recordHit({ eventId: caller.event.row.id, kind: 'face_search' });
    // An attendee finds themselves across the event; what is not in their album yet is shown
    // as a preview only (an album bought whole opens its own photos, not the event's).
    const inAlbum = caller.attendee ? await this.albumIdsOf(caller, found.rows) : null;
    const photos: KeyFaceMatch[] = [];
    for (const { row, similarity, box } of found.rows) {
      const mine = inAlbum?.has(row.id) ?? true;
      const presented = await this.deps.listing.presentFor(
        mine ? caller : { ...caller, attendee: null },
        row,
      );
      photos.push({
        ...presented,
        ...(inAlbum ? { in_album: mine ? 1 : 0 } : {}),
        similarity,
        face_box: box,
      });
    }
    return { photos, searched_faces: found.searched };
  }

  /** The ids among `found` that are in the caller's (an attendee key's) album. */
  private async albumIdsOf(
    caller: {
      event: { row: { id: number } };
      attendee: { row: { id: number; uid: string } } | null;
    },
    found: { row: PhotoRow }[],
  ): Promise<Set<number>> {
    if (!caller.attendee || found.length === 0) return new Set();
    const rows = await this.deps.photos.list(
      {
        eventId: caller.event.row.id,
        attendeeAlbum: { attendeeId: caller.attendee.row.id, uid: caller.attendee.row.uid },
        albumEventOnly: true,
        now: this.deps.clock.now(),
        ids: found.map(({ row }) => row.id),
      },
      found.length,
      0,
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The photos a key's selfie finds, best first: published (ready, visible, past their delay),
   * within the public stream's window for a public key; the whole event for every key (an
   * attendee finds themselves beyond their album).
   */
  async findForKey(
    principal: Principal,
    input: Pick<
      ParsedBodyOf<typeof keySearchByFace>,
      'photo_url_list' | 'face_consent_version' | 'face_match_threshold'
    >,
  ) {
    const caller = await this.deps.access.requireEventAccess(principal, 'face.search_by_key', {
      keyEvent: true,
    });
    // Every search a key starts counts (each may decode a selfie and scan the event's faces).
    await this.deps.quotas?.faceSearch(quotaKeyOf(caller));
    const event = caller.event;
    const keys = await this.references.keysOf(event.row, input.photo_url_list, 'guest');
    if (event.row.enable_facial_recognition !== 1 || event.row.opts.disableSelfies === 1)
      throw new AppError('face_recognition_off');
    // Nothing is read before the guest accepted the current face-recognition text; a selfie
    // must have been granted with that consent and not have expired.
    this.deps.selfieRules.requireConsent(event.row, input.face_consent_version);
    const selfies = new Map<string, SelfieRef>();
    for (const key of keys) {
      if (!key.startsWith(`${SELFIE_ROOT}/`)) continue;
      const selfie = await this.deps.selfies.findLive(event.row.id, key, this.deps.clock.now());
      if (!selfie) throw new AppError('face_consent_required', 'photo_url_list');
      selfies.set(key, selfie);
    }
    const references: DetectedFace[] = [];
    for (const key of keys) {
      const face = await largestFaceOf(this.deps, key, { single: true });
      references.push(face);
      // An attendee's selfie within the association time keeps its descriptor (matching new
      // photos); other selfies keep none.
      const selfie = selfies.get(key);
      if (
        selfie &&
        selfie.attendeeId !== null &&
        selfie.associateUntil !== null &&
        selfie.model !== this.deps.engine.model
      )
        await this.deps.selfies.describe(selfie.id, this.deps.engine.model, face.embedding);
    }
    const best = await this.bestMatches(event.row, references, input.face_match_threshold, true);
    const now = this.deps.clock.now();
    const filter: PhotoFilter = {
      eventId: event.row.id,
      publishedOnly: true,
      now,
      ids: [...best.keys()],
    };
    const streamMinutes = event.row.photo_stream_available_minutes;
    if (caller.audience === 'public' && streamMinutes !== null)
      filter.createdAfter = new Date(now.getTime() - streamMinutes * 60_000);
    const rows = await this.deps.photos.list(filter, Math.max(best.size, 1), 0);
    const matches = await this.scored(rows, best, input.face_match_threshold);
    return { caller, rows: matches, searched: references.length };
  }

  /**
   * At server start (main.ts, after listening): loads the face engine's models and the
   * descriptors of the events most recently indexed (as many as the copy keeps), so the first
   * search after a restart pays neither. Answers the events warmed.
   */
  async warmAtStart(): Promise<{ events: number[]; faces: number }> {
    const { engine, faces } = this.deps;
    const events = await faces.recentlyIndexedEvents(engine.model, MAX_EVENTS);
    if (events.length === 0) return { events, faces: 0 };
    await engine.init();
    let loaded = 0;
    // Least recent first: the most recent ends up the copy's most recently used.
    for (const eventId of [...events].reverse())
      loaded += await this.vectors.warm(eventId, engine.model, engine.dimensions);
    return { events, faces: loaded };
  }

  /** Loads an event's descriptors ahead of a search (a guest's selfie is uploading meanwhile). */
  warmEvent(eventId: number): void {
    const { engine } = this.deps;
    void this.vectors.warm(eventId, engine.model, engine.dimensions).catch(() => undefined);
  }

  /** Faces of the event held in the search's in-memory copy (0 until its first load). */
  cachedFaces(eventId: number): number {
    return this.vectors.size(eventId);
  }

  /**
   * The photos with their similarity and face box, best first (then newest); the SQL cut-off is a
   * distance, the threshold is on the rounded similarity.
   */
  private async scored(
    rows: PhotoRow[],
    best: Map<number, { distance: number; faceId: number }>,
    threshold: number,
  ): Promise<{ row: PhotoRow; similarity: number; box: FaceBox }[]> {
    const boxes = await this.deps.faces.boxesOf([...best.values()].map((b) => b.faceId));
    const matches: { row: PhotoRow; similarity: number; box: FaceBox }[] = [];
    for (const row of rows) {
      const match = best.get(row.id);
      if (!match) continue;
      const similarity = similarityFromDistance(match.distance);
      if (similarity < threshold) continue;
      const box = boxes.get(match.faceId);
      if (box) matches.push({ row, similarity, box });
    }
    return matches.sort((a, b) => b.similarity - a.similarity || b.row.id - a.row.id);
  }

  /** Each matched photo's best face over all references, within the threshold's distance. */
  private async bestMatches(
    event: EventRow,
    references: DetectedFace[],
    threshold: number,
    visibleOnly: boolean,
  ): Promise<Map<number, { distance: number; faceId: number }>> {
    const { engine } = this.deps;
    const maxDistance = distanceForSimilarity(threshold);
    const matches: FaceMatchRow[] = [];
    for (const reference of references) {
      matches.push(
        ...(await this.vectors.nearest({
          eventId: event.id,
          model: engine.model,
          descriptor: reference.embedding,
          maxDistance,
          limit: MAX_MATCHES,
          visibleOnly,
        })),
      );
    }
    const kept = await this.ignoredFaces.without(event.id, event.name, matches);
    const best = new Map<number, { distance: number; faceId: number }>();
    for (const match of kept) {
      const seen = best.get(match.photoId);
      if (!seen || match.distance < seen.distance)
        best.set(match.photoId, { distance: match.distance, faceId: match.faceId });
    }
    return best;
  }
}
