import type { Readable } from 'node:stream';
import {
  ALBUM_DOWNLOAD_PATH,
  ALBUM_DOWNLOAD_TICKET_SECONDS,
  API_BASE,
  publicPhotoList,
  type createAlbumDownload,
  type ParsedBodyOf,
  type PublicKeyType,
} from '@flashbulb/shared';
import type { AccessControl, EventGrant } from '../../access/access-control.ts';
import type { LeadGate } from '../../access/lead-gate.ts';
import { keyTypeOf, type Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { uniqueNames, zipStream, type ZipEntry } from '../../lib/zip-stream.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { attendeeMayDownloadPhoto } from '../photos/photo-downloads.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { isPaidEvent } from '../photos/photo-urls.ts';

/** What a ticket carries, sealed (AES-GCM with the app secret): the key is never readable in it. */
interface Ticket {
  k: PublicKeyType;
  v: string;
  /** Photo ids of a selection, or null for the whole album. */
  ids: number[] | null;
  /** Expiry, seconds since the epoch. */
  x: number;
}

/** Which stored object goes into the zip for one photo, or null when the key may not have it. */
type FilePick = { storageKey: string; variant: 'original' | 'preview' } | null;

const PAGE = 200;

/**
 * Album downloads (albums spec §2.5 "download"): a selection or the whole album as one
 * zip that the server streams. The same rules as one photo's download decide each file:
 * - the original for keys that may download originals (event owner key; the private key of a free
 *   or unlocked event; an attendee who is prepaid, unlocked, bought that photo or its tag, or whose
 *   event is free or unlocked);
 * - otherwise the picture the album shows (the unwatermarked preview) when the event is free or
 *   unlocked and the operator left guest downloads on (`opts.guestDownloadEnabled`);
 * - otherwise nothing: a paid event's originals and previews never leave through a zip.
 * `create` checks the key and answers a sealed ticket (five minutes); `open` checks everything
 * again when the zip is fetched, so a photo hidden or a key changed in between is honoured.
 */
export class AlbumDownloadService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      listing: PhotoListingService;
      photoRows: Pick<PhotoRepository, 'findById'>;
      events: Pick<EventRepository, 'findById'>;
      storage: StorageRepository;
      secrets: SecretBox;
      clock: Clock;
      publicUrl: string;
      resolveKey: (keyType: PublicKeyType, keyValue: string) => Promise<Principal>;
      /** The lead gate of guest album calls (access/lead-gate.ts). */
      leadGate: LeadGate;
    },
  ) {}

  /** Checks the request and answers the zip's address (albums spec §2.5; `createAlbumDownload`). */
  async create(principal: Principal, input: ParsedBodyOf<typeof createAlbumDownload>) {
    await this.deps.leadGate(principal, input);
    const grant = await this.grantOf(principal);
    const ids = input.photo_id_array ? [...new Set(input.photo_id_array)] : null;
    let count = 0;
    if (ids) {
      for await (const found of this.photos(principal, grant, ids)) if (found.pick) count += 1;
      if (count === 0) throw new AppError('download_not_allowed');
    } else {
      // The whole album: its first page decides (the rules are the event's, or the attendee's
      // purchases); the count is the album's.
      const first = await this.page(principal, undefined, true);
      if (first.photos.length === 0) throw new AppError('not_found');
      let allowed = false;
      for (const photo of first.photos) {
        const row = await this.deps.photoRows.findById(photo.id);
        if (row && (await this.pick(grant, row))) allowed = true;
        if (allowed) break;
      }
      if (!allowed) throw new AppError('download_not_allowed');
      count = first.total_count ?? first.photos.length;
    }
    const expires =
      Math.floor(this.deps.clock.now().getTime() / 1000) + ALBUM_DOWNLOAD_TICKET_SECONDS;
    const ticket: Ticket = { k: input.key_type, v: input.key_value, ids, x: expires };
    const sealed = this.deps.secrets.encrypt(JSON.stringify(ticket));
    return {
      url: `${this.deps.publicUrl.replace(/\/+$/, '')}${API_BASE}${ALBUM_DOWNLOAD_PATH}?ticket=${encodeURIComponent(sealed)}`,
      photo_count: count,
      expires_in: ALBUM_DOWNLOAD_TICKET_SECONDS,
    };
  }

  /**
   * The zip of a ticket: its file name and stream. A ticket that cannot be read or has expired is
   * `not_found`; the key inside is checked again as if it were presented now.
   */
  async open(sealed: string): Promise<{ fileName: string; body: Readable }> {
    let ticket: Ticket;
    try {
      ticket = JSON.parse(this.deps.secrets.decrypt(sealed)) as Ticket;
    } catch {
      throw new AppError('not_found');
    }
    if (ticket.x * 1000 <= this.deps.clock.now().getTime()) throw new AppError('not_found');
    const principal = await this.deps.resolveKey(ticket.k, ticket.v);
    const grant = await this.grantOf(principal);
    const name = uniqueNames();
    const photos = this.photos(principal, grant, ticket.ids);
    const storage = this.deps.storage;
    async function* entries(): AsyncIterable<ZipEntry> {
      for await (const { row, pick } of photos) {
        if (!pick) continue;
        yield {
          name: name(fileNameOf(row, pick.variant)),
          modified: row.createdAt,
          open: async () => {
            const object = await storage.get(pick.storageKey);
            if (!object) throw new Error('stored object missing');
            return object.body;
          },
        };
      }
    }
    return { fileName: zipFileName(grant.event), body: zipStream(entries()) };
  }

  private grantOf(principal: Principal): Promise<EventGrant> {
    return this.deps.access.requireEventAccess(principal, 'photo.list', { keyEvent: true });
  }

  /** The photos asked for, each with what the key may take of it (in the album's order). */
  private async *photos(
    principal: Principal,
    grant: EventGrant,
    ids: number[] | null,
  ): AsyncIterable<{ row: PhotoRow; pick: FilePick }> {
    if (ids) {
      const now = this.deps.clock.now();
      for (const id of ids) {
        const row = await this.deps.photoRows.findById(id);
        if (!row || !(await this.deps.listing.inScope(grant, row))) continue;
        // Guests see photos shown to guests and past their delay only (as the album lists them).
        const shown =
          row.status === 'ready' &&
          (grant.audience === 'owner' || (shownToGuests(row) && row.availableAt <= now));
        if (shown) yield { row, pick: await this.pick(grant, row) };
      }
      return;
    }
    // The whole album, page by page with the list's own rules (keyset pages: no page shifts).
    let before: number | undefined;
    for (;;) {
      const page = await this.page(principal, before, false);
      for (const photo of page.photos) {
        const row = await this.deps.photoRows.findById(photo.id);
        if (row && row.status === 'ready') yield { row, pick: await this.pick(grant, row) };
      }
      if (page.photos.length < PAGE) return;
      before = page.photos[page.photos.length - 1]?.id;
    }
  }

  /** One page of the album as the key lists it (the principal is already resolved). */
  private page(principal: Principal, before: number | undefined, withTotal: boolean) {
    return this.deps.listing.list(
      principal,
      publicPhotoList.body.parse({
        key_type: keyTypeOf(principal) ?? 'public',
        key_value: 'resolved',
        max_size: PAGE,
        ...(before !== undefined ? { before_id: before } : {}),
        ...(withTotal ? { show_total_count: 1 } : {}),
      }),
    );
  }

  private async pick(grant: EventGrant, row: PhotoRow): Promise<FilePick> {
    const event =
      row.eventId === grant.event.row.id
        ? grant.event
        : await this.deps.events.findById(row.eventId);
    if (!event) return null;
    const paid = isPaidEvent(event.row);
    const original =
      grant.audience === 'owner' ||
      (grant.audience === 'private' && !paid) ||
      (grant.attendee !== null && attendeeMayDownloadPhoto(grant.attendee, event.row, row));
    if (original) return { storageKey: row.storageKey, variant: 'original' };
    const preview = row.mediaType === 'video' ? undefined : row.derivatives.preview;
    if (!paid && event.row.opts.guestDownloadEnabled !== 0 && preview)
      return { storageKey: preview, variant: 'preview' };
    return null;
  }
}

/** The photo's file name; a preview is a JPEG whatever the original was. */
const fileNameOf = (row: PhotoRow, variant: 'original' | 'preview'): string => {
  const name = row.fileName?.trim() || `${row.uid}.jpg`;
  if (variant === 'original') return name;
  return name.replace(/\.[^.]*$/, '') + '.jpg';
};

const zipFileName = (event: EventRecord): string => {
  const base = (event.row.full_name || event.row.name || 'album')
    .replace(/[\\/:*?"<>|]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${base || 'album'}.zip`;
};
