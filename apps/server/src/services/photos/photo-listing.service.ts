// Why this file is long: the one rule of which photos a key lists (scope, delay, visibility,
// VIP throttle) and the presenting of each for its audience; the counts and stock images use
// the same filter, so they stay beside it.
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  normaliseAttendeeId,
  stockPolicyHolds,
  stockPolicyTags,
  stockWindowOpen,
  type StockImageTile,
  type ownerPhotoList,
  type KeyPhoto,
  type ParsedBodyOf,
  type Photo,
  type photoCountInfo,
  type keyPhotoCountInfo,
  type publicPhotoList,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { LeadGate } from '../../access/lead-gate.ts';
import { isOperator, type Principal } from '../../access/principal.ts';
import {
  presentGuestPhoto,
  presentKeyPhoto,
  presentOperatorPhoto,
  type PresentOptions,
} from '../../presenters/photo.presenter.ts';
import { AppError } from '../../lib/app-error.ts';
import { parseFilterDate } from './filter-dates.ts';
import type { Clock } from '../../lib/clock.ts';
import { guestImageUrl } from '../../lib/safe-url.ts';
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type {
  ThrottleRepository,
  ThrottleRow,
} from '../../repositories/identity/throttle.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type {
  PhotoFilter,
  PhotoRepository,
  PhotoRow,
} from '../../repositories/photos/photo.repository.ts';
import { attendeeMayDownloadPhoto, type Audience, type KeyAccess } from './photo-downloads.ts';
import type { PhotoUrls } from './photo-urls.ts';
import { inEventAlbum } from '../../repositories/photos/photo-visibility.ts';

/** The owner list and its public twin (key in the body). */
export type PhotoListBody =
  ParsedBodyOf<typeof ownerPhotoList> | ParsedBodyOf<typeof publicPhotoList>;

const sha = (text: string) => createHash('sha256').update(text).digest();

/**
 * The VIP token at a kiosk (albums §2.4, §6 "effect: not shown"; decided here): the event's
 * `opts.vipToken` (compared in constant time; an event without one accepts none) makes the list
 * show photos uploaded at least `photoDelayVipMinutes` ago (none set: no wait) even while their own
 * photo delay runs. It never shows hidden, unfinished or other albums' photos. A wrong token is
 * refused with `vip_token_invalid` rather than quietly ignored, so the kiosk can say so.
 */
const vipCutoff = (
  opts: { vipToken: string; photoDelayVipMinutes: number | null },
  token: string,
  now: Date,
): Date => {
  const expected = opts.vipToken.trim();
  if (!expected || !timingSafeEqual(sha(expected), sha(token.trim())))
    throw new AppError('vip_token_invalid', 'vip_token');
  return new Date(now.getTime() - (opts.photoDelayVipMinutes ?? 0) * 60_000);
};

/** Wrong VIP tokens one key or one address may try in a row before it waits `VIP_WAIT_SECONDS`. */
export const VIP_MAX_FAILURES = 5;
export const VIP_WAIT_SECONDS = 60;
/** Wrong VIP tokens per key or address within an hour, after which it waits for the hour. */
export const VIP_MAX_FAILURES_PER_HOUR = 30;
/** A run of wrong tokens is forgotten after this long without one. */
const VIP_FORGET_SECONDS = 15 * 60;

/** Whether a failure counter says "wait": too many in a row lately, or too many this hour. */
const throttled = (row: ThrottleRow | undefined, now: Date): boolean => {
  if (!row?.lastFailureAt) return false;
  const sinceLast = now.getTime() - row.lastFailureAt.getTime();
  const hourStart = row.hourWindowStart?.getTime() ?? 0;
  if (now.getTime() - hourStart < 3_600_000 && row.hourFailures >= VIP_MAX_FAILURES_PER_HOUR)
    return true;
  return (
    row.consecutiveFailures >= VIP_MAX_FAILURES &&
    sinceLast < Math.min(VIP_FORGET_SECONDS, VIP_WAIT_SECONDS) * 1000
  );
};

/**
 * Reading photos: lists with every filter, counts, and what a key may see of one photo (live
 * streams, shares and mini-albums ask here). Albums spec §5, §7.1.
 */
export class PhotoListingService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      events: EventRepository;
      access: AccessControl;
      urls: PhotoUrls;
      clock: Clock;
      /** The lead gate of guest album calls (access/lead-gate.ts). */
      leadGate: LeadGate;
      /** Attendee albums: whose photo is whose (attendee keys). */
      attendeeRows?: AttendeeRepository;
      /** A storage key of a stock image → its public URL. */
      publicMediaUrl?: (key: string) => string;
      /** Counts wrong VIP tokens per key and per address (guessing is slowed down). */
      attempts?: ThrottleRepository;
    },
  ) {}

  /**
   * Whether a photo lies within what a key opens: its event's photos (for guests' keys, those in
   * the event's album: photo-visibility.ts `inEventAlbum`), or for an attendee key the photos of
   * their album (uploaded with their id or attached, in one of their events).
   */
  async inScope(access: KeyAccess, row: PhotoRow): Promise<boolean> {
    if (!access.attendee)
      return (
        row.eventId === access.event.row.id && (access.audience === 'owner' || inEventAlbum(row))
      );
    if (!this.deps.attendeeRows) return false;
    return this.deps.attendeeRows.ownsPhoto(access.attendee, row);
  }

  /** A photo as a key sees it: attendee keys get the original only when they may download. */
  async presentFor(access: KeyAccess, row: PhotoRow): Promise<KeyPhoto> {
    const event =
      row.eventId === access.event.row.id
        ? access.event
        : await this.deps.events.findById(row.eventId);
    return presentKeyPhoto(row, access.audience, this.deps.urls, {
      event: event?.row,
      ...(access.attendee
        ? { original: attendeeMayDownloadPhoto(access.attendee, event?.row, row) }
        : {}),
    });
  }

  /** A photo as operators see it (every field). */
  presentForOperator(row: PhotoRow): Photo {
    return presentOperatorPhoto(row, this.deps.urls);
  }

  /**
   * A photo as a guest sees it (mini-albums, share pages, mail thumbnails). `event`: the photo's
   * event, which decides a guest's preview (paid → watermarked).
   */
  presentForGuest(
    row: PhotoRow,
    audience: Exclude<Audience, 'owner' | 'robot'>,
    options: PresentOptions = {},
  ) {
    return presentGuestPhoto(row, audience, this.deps.urls, options);
  }

  /**
   * The VIP token's check with a limit on guessing: wrong tokens count per key (its event and
   * attendee or key type) and per address; after `VIP_MAX_FAILURES` in a row (or
   * `VIP_MAX_FAILURES_PER_HOUR` in an hour) every token, the right one included, is refused with
   * `too_many_attempts` for `VIP_WAIT_SECONDS`. The counters hold ids and addresses, never keys.
   */
  private async vipCutoffLimited(
    caller: KeyAccess,
    token: string,
    now: Date,
    address: string | undefined,
  ): Promise<Date> {
    const attempts = this.deps.attempts;
    if (!attempts) return vipCutoff(caller.event.row.opts, token, now);
    const keyName = `vip-token:${caller.event.row.id}:${caller.attendee ? `att-${caller.attendee.row.id}` : caller.audience}`;
    const names = address ? [keyName, `vip-token-ip:${address}`] : [keyName];
    const rows = await Promise.all(names.map((name) => attempts.get(name)));
    if (rows.some((row) => throttled(row, now)))
      throw new AppError('too_many_attempts', 'vip_token');
    try {
      const cutoff = vipCutoff(caller.event.row.opts, token, now);
      // A right token ends the run of wrong ones (written only when there was one).
      await Promise.all(
        names
          .filter((_, i) => (rows[i]?.consecutiveFailures ?? 0) > 0)
          .map((name) => attempts.recordSuccess(name)),
      );
      return cutoff;
    } catch (error) {
      await Promise.all(names.map((name) => attempts.recordFailure(name, now, VIP_FORGET_SECONDS)));
      throw error;
    }
  }

  /**
   * A guest link's album page (`publicPhotoList`, and the page's first data): the lead gate
   * first (an event that collects leads asks its guests for one), then the list.
   */
  async listForGuest(
    principal: Principal,
    input: ParsedBodyOf<typeof publicPhotoList>,
    context: { address?: string } = {},
  ) {
    await this.deps.leadGate(principal, input);
    return this.list(principal, input, context);
  }

  async list(principal: Principal, input: PhotoListBody, context: { address?: string } = {}) {
    // Operators name the event; a key names its own (an event_id given must be one of its).
    const caller = await this.deps.access.requireEventAccess(
      principal,
      'photo.list',
      input.event_id !== undefined || isOperator(principal)
        ? { eventId: input.event_id ?? 0 }
        : { keyEvent: true },
    );
    const now = this.deps.clock.now();
    const attendee = caller.attendee;
    const vipUploadedBy =
      'vip_token' in input && input.vip_token !== undefined
        ? await this.vipCutoffLimited(caller, input.vip_token, now, context.address)
        : undefined;
    const filter: PhotoFilter = {
      eventId: caller.event.row.id,
      ...(attendee
        ? { attendeeAlbum: { attendeeId: attendee.row.id, uid: attendee.row.uid } }
        : {}),
      // A robot follows its own uploads in every state (processing, hidden, delayed) and no others.
      ...(caller.audience === 'robot' ? { robotId: caller.robotId ?? 0 } : {}),
      now,
      publishedOnly: caller.audience !== 'owner' && caller.audience !== 'robot',
      includeDelayed:
        caller.audience === 'robot' || (caller.audience === 'owner' && input.get_from_tmp !== 0),
      ...(vipUploadedBy ? { vipUploadedBy } : {}),
      isKiosk: input.is_kiosk,
      isCuratable: input.is_curatable,
      isCurated: input.is_curated,
      isOriginal: input.is_original,
      printable: input.printable,
      printed: input.printed,
      imageProcessId: input.image_process_id,
      fileNameContains: input.file_name?.trim() || undefined,
      // An attendee key lists its own album; the filter is for the other keys.
      attendeeUid:
        attendee || input.attendee_uid === undefined
          ? undefined
          : normaliseAttendeeId(input.attendee_uid),
      ...(input.before_id !== undefined ? { beforeId: input.before_id } : {}),
      // A guest's chosen photos (their favourites), within what the key lists anyway.
      ...('photo_id_array' in input && input.photo_id_array !== undefined
        ? { ids: input.photo_id_array }
        : {}),
      isVisible: caller.audience === 'owner' ? input.is_visible : undefined,
    };
    const after: Date[] = [];
    const before: Date[] = [];
    const start = parseFilterDate(input.start_date, 'start_date');
    const end = parseFilterDate(input.end_date, 'end_date');
    if (start) after.push(start);
    if (end) before.push(end);
    if (input.max_time_minutes !== undefined)
      after.push(new Date(now.getTime() - input.max_time_minutes * 60_000));
    if (input.min_time_minutes !== undefined)
      before.push(new Date(now.getTime() - input.min_time_minutes * 60_000));
    // The public stream shows photos for the event's availability window only.
    const streamMinutes = caller.event.row.photo_stream_available_minutes;
    if (caller.audience === 'public' && streamMinutes !== null)
      after.push(new Date(now.getTime() - streamMinutes * 60_000));
    if (after.length) filter.createdAfter = new Date(Math.max(...after.map((d) => d.getTime())));
    if (before.length) filter.createdBefore = new Date(Math.min(...before.map((d) => d.getTime())));

    // With a cursor the page number is ignored: the cursor already says where the page starts.
    const offset = input.before_id !== undefined ? 0 : (input.page_number - 1) * input.max_size;
    const rows = await this.deps.photos.list(filter, input.max_size, offset);
    const { total, capped } = await this.totalOf(filter, input);
    const photos: KeyPhoto[] = [];
    for (const row of rows) photos.push(await this.presentFor(caller, row));
    // Stock images go with the first page of a guest's list (albums, kiosks), once.
    const firstPage = input.before_id === undefined && input.page_number === 1;
    const stock =
      caller.audience !== 'owner' && caller.audience !== 'robot' && firstPage
        ? await this.stockImages(caller.event, {
            eventId: filter.eventId,
            now,
            publishedOnly: true,
            ...(filter.attendeeAlbum ? { attendeeAlbum: filter.attendeeAlbum } : {}),
          })
        : [];
    return {
      stock_images: stock,
      photos,
      total_count: total,
      ...(capped ? { total_count_capped: 1 as const } : {}),
      page_number: input.page_number,
      max_size: input.max_size,
    };
  }

  /** The list's total when asked: exact, or counted no further than `count_limit`. */
  private async totalOf(
    filter: PhotoFilter,
    input: Pick<PhotoListBody, 'show_total_count' | 'count_limit'>,
  ): Promise<{ total: number | null; capped: boolean }> {
    if (input.show_total_count !== 1) return { total: null, capped: false };
    const limit = input.count_limit;
    if (limit === undefined) return { total: await this.deps.photos.count(filter), capped: false };
    const counted = await this.deps.photos.countUpTo(filter, limit);
    return counted > limit ? { total: limit, capped: true } : { total: counted, capped: false };
  }

  /**
   * The event's stock images shown now (albums spec §3, §4): stock images on, a thumbnail set,
   * now inside the date window (event time zone) and the tag policy holding for the photos the
   * guest's list covers (`scope`: the event's published photos, or the attendee's album).
   */
  async stockImages(event: EventRecord, scope: PhotoFilter): Promise<StockImageTile[]> {
    const row = event.row;
    if (row.stock_images_enable !== 1 || row.opts.stockImages.length === 0) return [];
    const now = scope.now;
    const open = row.opts.stockImages.filter(
      (image) => image.imgTmbUrl.trim() && stockWindowOpen(image, now, row),
    );
    const wanted = [...new Set(open.flatMap((image) => stockPolicyTags(image)))];
    const found = wanted.length
      ? await this.deps.photos.tagsFound(scope, wanted)
      : new Set<string>();
    const publicUrl = this.deps.publicMediaUrl ?? ((key: string) => key);
    const tiles: StockImageTile[] = [];
    for (const image of open) {
      if (!stockPolicyHolds(image, found)) continue;
      const thumbnail = guestImageUrl(image.imgTmbUrl, publicUrl);
      const url = guestImageUrl(image.imgUrl, publicUrl) ?? thumbnail;
      if (thumbnail && url) tiles.push({ uid: image.uid, url, thumbnail_url: thumbnail });
    }
    return tiles;
  }

  async countInfo(principal: Principal, input: ParsedBodyOf<typeof photoCountInfo>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
    });
    const counts = await this.deps.photos.countInfo(
      event.row.id,
      parseFilterDate(input.start_date, 'start_date'),
      parseFilterDate(input.end_date, 'end_date'),
    );
    return { ...counts, hidden: counts.total - counts.visible };
  }

  /** The key twin of `countInfo`: the key names the event. */
  async keyCountInfo(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof keyPhotoCountInfo>, 'key_type' | 'key_value'>,
  ) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.count', {
      keyEvent: true,
    });
    const counts = await this.deps.photos.countInfo(
      event.row.id,
      parseFilterDate(input.start_date, 'start_date'),
      parseFilterDate(input.end_date, 'end_date'),
    );
    return { ...counts, hidden: counts.total - counts.visible };
  }
}
