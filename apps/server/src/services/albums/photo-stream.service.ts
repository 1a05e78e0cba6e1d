import type { KeyPhoto } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { LeadGate, LeadGatePass } from '../../access/lead-gate.ts';
import type { Principal } from '../../access/principal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoEventsRepository } from '../../repositories/photos/photo-events.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { albumDecision } from './album-visibility.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import type { KeyAccess } from '../photos/photo-downloads.ts';

/** What the stream's key opens; an attendee key streams their album across their events. */
export type StreamAccess = KeyAccess;

/** Longest timer a stream sets for a delayed photo; it re-checks then (delays are at most 2 h). */
const MAX_TIMER_MS = 60 * 60_000;

/**
 * Live photos for kiosk streams and screens: new photos are pushed as soon as
 * their derivatives are ready, as the public list presents them for the key; photos still in their
 * photo delay are pushed when due.
 */
export class PhotoStreamService {
  constructor(
    private readonly deps: {
      photos: PhotoListingService;
      photoRows: PhotoRepository;
      albums: AlbumRepository;
      notices: PhotoEventsRepository;
      events: EventRepository;
      access: AccessControl;
      clock: Clock;
      /** The lead gate of guest album calls (access/lead-gate.ts). */
      leadGate: LeadGate;
    },
  ) {}

  /**
   * One read of a photo's row for every stream that hears about it at once: a notice reaches all
   * open streams of the event in the same tick, and a thousand kiosks must not mean a thousand
   * identical queries (bench:stream). Lookups in flight are shared; none is cached after it ends.
   */
  private readonly rowsInFlight = new Map<number, Promise<PhotoRow | undefined>>();
  private photoRow(photoId: number): Promise<PhotoRow | undefined> {
    let pending = this.rowsInFlight.get(photoId);
    if (!pending) {
      pending = this.deps.photoRows
        .findById(photoId)
        .catch(() => undefined)
        .finally(() => this.rowsInFlight.delete(photoId));
      this.rowsInFlight.set(photoId, pending);
    }
    return pending;
  }

  /**
   * What the stream's key opens, decided like the public list (a wrong key: 401), behind the
   * same lead gate (`lead_token`, or a screen's `display` token).
   */
  async open(principal: Principal, pass: LeadGatePass): Promise<StreamAccess> {
    const access = await this.deps.access.requireEventAccess(principal, 'photo.list', {
      keyEvent: true,
    });
    await this.deps.leadGate(principal, pass);
    return access;
  }

  /**
   * Calls `onPhoto` for each photo that becomes showable to this key until the answered function
   * is called. Each photo is pushed at most once per stream.
   */
  async watch(access: StreamAccess, onPhoto: (photo: KeyPhoto) => void): Promise<() => void> {
    const eventIds = access.attendee ? access.attendee.eventIds : [access.event.row.id];
    const eventRows = new Map([[access.event.row.id, access.event.row]]);
    const sent = new Set<number>();
    const timers = new Map<number, NodeJS.Timeout>();
    let stopped = false;

    const consider = async (row: PhotoRow): Promise<void> => {
      if (stopped || sent.has(row.id) || !eventIds.includes(row.eventId)) return;
      // An attendee key hears only their album's photos, whichever event they come from.
      if (access.attendee && !(await this.deps.photos.inScope(access, row))) return;
      let eventRow = eventRows.get(row.eventId);
      if (!eventRow) {
        eventRow = (await this.deps.events.findById(row.eventId))?.row;
        if (!eventRow) return;
        eventRows.set(row.eventId, eventRow);
      }
      const decision = albumDecision(row, eventRow, access.audience, this.deps.clock.now());
      if (stopped || sent.has(row.id)) return;
      if (decision.show) {
        sent.add(row.id);
        onPhoto(await this.deps.photos.presentFor(access, row));
        return;
      }
      if (decision.due && !timers.has(row.id)) {
        const wait = Math.min(
          Math.max(decision.due.getTime() - this.deps.clock.now().getTime(), 0),
          MAX_TIMER_MS,
        );
        const timer = setTimeout(() => {
          timers.delete(row.id);
          void recheck(row.id);
        }, wait);
        timer.unref();
        timers.set(row.id, timer);
      }
    };
    const recheck = async (photoId: number): Promise<void> => {
      if (stopped) return;
      const row = await this.photoRow(photoId);
      if (row) await consider(row).catch(() => undefined);
    };

    const unsubscribes: (() => void)[] = [];
    for (const eventId of eventIds) {
      unsubscribes.push(
        await this.deps.notices.subscribe(eventId, (notice) => {
          // A photo attached to one attendee's album is news to that attendee's streams only.
          if (notice.attendeeId !== undefined && notice.attendeeId !== access.attendee?.row.id)
            return;
          // An instant link's news is for its own page; the photo's own notice follows when ready.
          if (notice.instantLinkId !== undefined) return;
          void recheck(notice.photoId);
        }),
      );
      for (const row of await this.deps.albums.delayedPhotos(eventId, this.deps.clock.now()))
        await consider(row);
    }

    return () => {
      stopped = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }
}
