import { parseInstantParam, type InstantState } from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type {
  InstantLinkRepository,
  InstantLinkRow,
} from '../../repositories/photos/instant-link.repository.ts';
import type { PhotoEventsRepository } from '../../repositories/photos/photo-events.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { albumDecision } from './album-visibility.ts';

/** Longest timer a watch sets (a photo delay, the grant's end); it re-checks then. */
const MAX_TIMER_MS = 60 * 60_000;

type Resolved = { event: EventRecord; link: InstantLinkRow };

/**
 * An instant link's guest page: "developing" until the photo is shown to guests (ready, visible,
 * released by moderation, past its delay — the mini-album's rule), then the photo as the event's
 * guests see it; "failed" when the upload was refused or nothing arrived before the grant ended.
 * Before the photo is ready the answer says nothing else: no file name, event or time.
 */
export class InstantPageService {
  constructor(
    private readonly deps: {
      links: InstantLinkRepository;
      photoRows: PhotoRepository;
      events: EventRepository;
      listing: Pick<PhotoListingService, 'presentForGuest'>;
      notices: Pick<PhotoEventsRepository, 'subscribe'>;
      clock: Clock;
    },
  ) {}

  private async resolve(instant: string): Promise<Resolved> {
    const parsed = parseInstantParam(instant);
    if (!parsed) throw new AppError('not_found', 'instant');
    const event = await this.deps.events.findByName(parsed.eventName);
    const link = event && (await this.deps.links.findByCode(event.row.id, parsed.code));
    if (!event || !link) throw new AppError('not_found', 'instant');
    return { event, link };
  }

  /** The state, and when it may change by itself (a photo delay ending, the grant ending). */
  private async stateOf({
    event,
    link,
  }: Resolved): Promise<{ state: InstantState; due: Date | null }> {
    const now = this.deps.clock.now();
    const developing: InstantState = {
      state: 'developing',
      code: link.code,
      event: null,
      photo: null,
    };
    const failed: InstantState = { ...developing, state: 'failed' };
    const photo =
      link.photoId === null ? undefined : await this.deps.photoRows.findById(link.photoId);
    if (!photo) {
      if (link.failedAt || now >= link.expiresAt) return { state: failed, due: null };
      return { state: developing, due: link.expiresAt };
    }
    if (photo.status === 'failed') return { state: failed, due: null };
    const decision = albumDecision(photo, event.row, 'private', now, { streamWindow: false });
    if (!decision.show) return { state: developing, due: decision.due };
    const row = event.row;
    return {
      state: {
        state: 'ready',
        code: link.code,
        event: {
          name: row.name,
          full_name: row.full_name,
          logo_full_path: row.logo_full_path,
          download_enabled:
            (row.is_free === 1 || row.unlocked === 1) && row.opts.guestDownloadEnabled !== 0
              ? 1
              : 0,
        },
        // As the event's public sees it: a locked paid photo is its protected preview.
        photo: this.deps.listing.presentForGuest(photo, 'public', { event: row }),
      },
      due: null,
    };
  }

  /** Whether the link names an instant link (its page answers 404 when not). */
  async exists(instant: string): Promise<boolean> {
    try {
      await this.resolve(instant);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.key === 'not_found') return false;
      throw error;
    }
  }

  async retrieve(instant: string): Promise<InstantState> {
    return (await this.stateOf(await this.resolve(instant))).state;
  }

  /**
   * The page's live state: `onState` gets the state now and each change until the answered
   * function is called. A wrong link throws `not_found` before anything is sent.
   */
  async watch(instant: string, onState: (state: InstantState) => void): Promise<() => void> {
    const resolved = await this.resolve(instant);
    let stopped = false;
    let last = '';
    let timer: NodeJS.Timeout | undefined;
    const check = async (): Promise<void> => {
      if (stopped) return;
      const link = (await this.deps.links.findByCode(
        resolved.event.row.id,
        resolved.link.code,
      )) ?? {
        ...resolved.link,
        photoId: null,
      };
      resolved.link = link;
      const { state, due } = await this.stateOf(resolved);
      if (stopped) return;
      const seen = JSON.stringify(state);
      if (seen !== last) {
        last = seen;
        onState(state);
      }
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (due && state.state === 'developing') {
        const wait = Math.min(
          Math.max(due.getTime() - this.deps.clock.now().getTime(), 0),
          MAX_TIMER_MS,
        );
        timer = setTimeout(() => void check().catch(() => undefined), wait + 50);
        timer.unref();
      }
    };
    const unsubscribe = await this.deps.notices.subscribe(resolved.event.row.id, (notice) => {
      // Its own link's news, or its photo becoming ready or visible.
      const mine =
        notice.instantLinkId === resolved.link.id ||
        (notice.instantLinkId === undefined &&
          notice.attendeeId === undefined &&
          notice.photoId === resolved.link.photoId);
      if (mine) void check().catch(() => undefined);
    });
    await check();
    return () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }
}
