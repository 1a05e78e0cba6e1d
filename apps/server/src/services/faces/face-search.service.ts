import {
  SELFIE_MAX_BYTES,
  type FaceMatch,
  type KeyFaceMatch,
  type keySearchByFace,
  type attachFoundPhotos,
  type ParsedBodyOf,
  type searchByFace,
  type selfieUploadAccess,
} from '@flashbulb/shared';
import { randomUUID } from 'node:crypto';
import type { InsightRepository } from '../../repositories/operations/insight.repository.ts';
import type { Quotas } from '../operations/quotas.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
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
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { isProtectedKey } from '../../storage/key-space.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { distanceForSimilarity, similarityFromDistance } from './face-similarity.ts';
import { IgnoredFaceFilter } from './ignored-face-filter.ts';
import { largestFaceOf } from './reference-face.ts';
import { FaceVectorSearch, MAX_EVENTS } from './face-vectors.ts';
import type { FaceSelfieService } from './face-selfie.service.ts';
import type { FaceSelfieRepository } from '../../repositories/faces/face-selfie.repository.ts';
import type { PhotoUrls } from '../photos/photo-urls.ts';
import {
  REFERENCE_ROOTS,
  SELFIE_ROOT,
  storageKeyOfReference,
  storageUrlBases,
} from './reference-photos.ts';

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
/** A photo's public folder, `events/<code>/photos/uid_<uid>_uid/…` (storage/key-space.ts). */
const PHOTO_FOLDER = /^events\/[^/]+\/photos\/uid_([^/]+)_uid\//;

const parseDate = (value: string | undefined, field: string): Date | undefined => {
  if (!value) return undefined;
  const normalised = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}:00Z`
    : value;
  const date = new Date(normalised);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_value', field);
  return date;
};

/**
 * Search by face (docs/domains/faces.md). The reference photos are objects of this
 * server's storage (never fetched by URL); each one's largest face is searched for, like
 * Rekognition's SearchFacesByImage, with an exact distance search over the event's indexed faces.
 */
/** A key as quotas count it: its type, event and attendee as access resolved them (never its value). */
const keyName = (caller: {
  keyType?: string | null | undefined;
  event: { row: { id: number } };
  attendee?: { row: { id: number } } | null | undefined;
}): string =>
  `${caller.keyType ?? 'operator'}:${caller.event.row.id}:${caller.attendee?.row.id ?? ''}`;

export class FaceSearchService {
  private readonly vectors: FaceVectorSearch;
  private readonly ignoredFaces: IgnoredFaceFilter;

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
      selfieRules: Pick<FaceSelfieService, 'requireConsent' | 'record' | 'consentVersion'>;
      selfies: Pick<FaceSelfieRepository, 'findLive' | 'describe'>;
      /** Selfie grants and face searches per key (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'selfieGrant' | 'faceSearch'>;
      /** Found photos an attendee adds to their album. */
      attendees: Pick<AttendeeRepository, 'linkEvent' | 'attach'>;
      bus?: SignalEmitter | undefined;
      /** Counts each guest's search on the event's insight dashboard. */
      insight?: Pick<InsightRepository, 'recordHit'>;
    },
  ) {
    this.vectors = new FaceVectorSearch(deps.faces);
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
    const start = parseDate(input.start_date, 'start_date');
    const end = parseDate(input.end_date, 'end_date');
    if (start && end && end < start) throw new AppError('date_range_invalid', 'end_date');
    // Every reference is checked before any is read: one foreign URL refuses the whole call.
    const keys = await this.referenceKeys(event.row, input.photo_url_list, 'owner');
    if (event.row.enable_facial_recognition !== 1) throw new AppError('face_recognition_off');
    const references: DetectedFace[] = [];
    for (const key of keys) references.push(await largestFaceOf(this.deps, key));
    const best = await this.bestMatches(event.row, references, input.face_match_threshold, false);
    const rows = await this.deps.photos.findByIds([...best.keys()]);
    const boxes = await this.deps.faces.boxesOf([...best.values()].map((b) => b.faceId));
    const photos: FaceMatch[] = [];
    for (const row of rows) {
      if (start && row.createdAt < start) continue;
      if (end && row.createdAt > end) continue;
      const match = best.get(row.id)!;
      const similarity = similarityFromDistance(match.distance);
      // The SQL cut-off is a distance; the threshold is on the rounded similarity.
      if (similarity < input.face_match_threshold) continue;
      const box = boxes.get(match.faceId);
      if (!box) continue;
      photos.push({ ...this.deps.listing.presentForOperator(row), similarity, face_box: box });
    }
    photos.sort((a, b) => b.similarity - a.similarity || b.id - a.id);
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

  /**
   * `photo/search-by-face/attach`: an attendee adds photos their selfie finds to their album. The
   * selfie is searched again (consent, visibility and threshold as in the search), so only the
   * guest's own matches can be added; any other photo named refuses the whole call.
   */
  async attachFound(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof attachFoundPhotos>, 'key_type' | 'key_value'>,
  ): Promise<{ attendee_uid: string; attached_count: number }> {
    const owner = await this.deps.access.requireEventAccess(principal, 'attendee.album', {
      keyEvent: true,
    });
    const attendee = owner.attendee;
    if (!attendee) throw new AppError('invalid_key', 'key_type');
    const found = await this.findForKey(principal, input);
    const byUid = new Map(found.rows.map(({ row }) => [row.uid, row]));
    const wanted = [...new Set(input.photo_uid_array)];
    const rows: PhotoRow[] = [];
    for (const uid of wanted) {
      const row = byUid.get(uid);
      if (!row) throw new AppError('not_found', 'photo_uid_array');
      rows.push(row);
    }
    const eventId = found.caller.event.row.id;
    await this.deps.attendees.linkEvent(attendee.row.id, eventId);
    const added = await this.deps.attendees.attach(
      attendee.row.id,
      rows.map((r) => r.id),
      'face',
    );
    if (added > 0)
      await this.deps.bus?.emit('attendee.photos_attached', {
        attendeeId: attendee.row.id,
        photos: rows.map((r) => ({ photoId: r.id, eventId: r.eventId })),
      });
    return { attendee_uid: attendee.row.uid, attached_count: added };
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
  private async findForKey(
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
    await this.deps.quotas?.faceSearch(keyName(caller));
    const event = caller.event;
    const keys = await this.referenceKeys(event.row, input.photo_url_list, 'guest');
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
    const boxes = await this.deps.faces.boxesOf([...best.values()].map((b) => b.faceId));
    const matches: { row: PhotoRow; similarity: number; box: FaceBox }[] = [];
    for (const row of rows) {
      const match = best.get(row.id)!;
      const similarity = similarityFromDistance(match.distance);
      if (similarity < input.face_match_threshold) continue;
      const box = boxes.get(match.faceId);
      if (!box) continue;
      matches.push({ row, similarity, box });
    }
    matches.sort((a, b) => b.similarity - a.similarity || b.row.id - a.row.id);
    return { caller, rows: matches, searched: references.length };
  }

  /**
   * `event/face-consent/retrieve`: the text a guest accepts and its version, for clients that do
   * not run the shared TypeScript helper. Answered also while selfies are off (the flag says so).
   */
  async faceConsent(principal: Principal) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'face.search_by_key', {
      keyEvent: true,
    });
    return {
      face_consent_version: this.deps.selfieRules.consentVersion(event.row),
      face_recognition_text: event.row.opts.faceRecognitionText ?? '',
      face_recognition_enabled:
        event.row.enable_facial_recognition === 1 && event.row.opts.disableSelfies !== 1 ? 1 : 0,
    };
  }

  /**
   * `event/selfie-upload-access/retrieve`: a presigned POST for one selfie, a protected object
   * under `selfies/<code>/` (never public; only the face search reads it).
   */
  async selfieUploadAccess(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof selfieUploadAccess>, 'key_type' | 'key_value'>,
  ) {
    const caller = await this.deps.access.requireEventAccess(principal, 'face.search_by_key', {
      keyEvent: true,
    });
    const { event, attendee, keyType } = caller;
    await this.deps.quotas?.selfieGrant(keyName(caller));
    if (event.row.enable_facial_recognition !== 1 || event.row.opts.disableSelfies === 1)
      throw new AppError('face_recognition_off');
    const consentVersion = this.deps.selfieRules.requireConsent(
      event.row,
      input.face_consent_version,
    );
    const extension = input.content_type === 'image/png' ? 'png' : 'jpg';
    const key = `${SELFIE_ROOT}/${event.row.name}/${randomUUID()}.${extension}`;
    // The consent (version, time) is stored with the selfie before any upload is possible.
    await this.deps.selfieRules.record({
      event: event.row,
      key,
      keyType: keyType ?? 'operator',
      attendeeId: attendee?.row.id ?? null,
      consentVersion,
    });
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType: input.content_type,
      maxBytes: SELFIE_MAX_BYTES,
    });
    // The guest searches next: load the event's descriptors while the selfie uploads.
    const { engine } = this.deps;
    void this.vectors.warm(event.row.id, engine.model, engine.dimensions).catch(() => undefined);
    return { ...grant, key, public_url: await this.deps.storage.signedGetUrl(key) };
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

  /** Faces of the event held in the search's in-memory copy (0 until its first load). */
  cachedFaces(eventId: number): number {
    return this.vectors.size(eventId);
  }

  /**
   * The storage keys the references name, all checked before any is read: one foreign URL
   * refuses the whole call (`invalid_url`), and nothing outside this server's storage is fetched.
   * Owners may name the event's photos (public or signed storage URL, or key), its selfies, and
   * our signed media URLs of its photos; guests their selfies and the media URLs they were given
   * (guest audience, a photo of the event that is visible and ready).
   */
  private async referenceKeys(
    event: EventRow,
    references: readonly string[],
    audience: 'owner' | 'guest',
  ): Promise<string[]> {
    const bases = await storageUrlBases(this.deps.storage);
    const keys: string[] = [];
    for (const reference of references) {
      const key =
        (await this.mediaReferenceKey(event, reference, audience)) ??
        (audience === 'guest' ? await this.publicVariantKey(event, bases, reference) : null) ??
        storageKeyOfReference(
          bases,
          reference,
          event.name,
          audience === 'owner' ? REFERENCE_ROOTS : [SELFIE_ROOT],
        );
      if (!key) throw new AppError('invalid_url', 'photo_url_list');
      keys.push(key);
    }
    return keys;
  }

  /** The key of a photo variant one of our signed media URLs names, when it may be used. */
  private async mediaReferenceKey(
    event: EventRow,
    reference: string,
    audience: 'owner' | 'guest',
  ): Promise<string | null> {
    const grant = this.deps.urls.fromUrl(reference.trim());
    if (!grant) return null;
    if (audience === 'guest' && grant.audience !== 'g') return null;
    const row = await this.deps.photos.findById(grant.photoId);
    if (!row || row.eventId !== event.id) return null;
    if (audience === 'guest' && !shownToGuests(row)) return null;
    return this.deps.urls.keyOf(row, grant.variant) ?? null;
  }

  /**
   * The key of a photo's public file (thumbnail, watermarked variant) named by its public storage
   * URL, as photo lists hand it to guests: only a current public variant of a visible, ready photo
   * of this event (not any object under `events/<code>/`).
   */
  private async publicVariantKey(
    event: EventRow,
    bases: readonly URL[],
    reference: string,
  ): Promise<string | null> {
    const key = storageKeyOfReference(bases, reference, event.name, ['events']);
    if (!key) return null;
    const uid = PHOTO_FOLDER.exec(key)?.[1];
    if (!uid) return null;
    const row = await this.deps.photos.findByEventUid(event.id, uid);
    if (!row || !shownToGuests(row)) return null;
    const variants = Object.values(row.derivatives).filter((k) => !isProtectedKey(k));
    return variants.includes(key) ? key : null;
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
