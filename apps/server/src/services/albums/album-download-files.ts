import type { Readable } from 'node:stream';
import {
  publicPhotoList,
  type AlbumDownloadSize,
  type ownerAlbumDownload,
  type ParsedBodyOf,
  type PublicKeyType,
} from '@flashbulb/shared';
import type { AccessControl, EventGrant } from '../../access/access-control.ts';
import { keyTypeOf, userPrincipal, type Principal } from '../../access/principal.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { AppError } from '../../lib/app-error.ts';
import { sealTicket, unsealTicket } from '../../lib/sealed-ticket.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { uniqueNames, type ZipEntry } from '../../lib/zip-stream.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { attendeeMayDownloadPhoto } from '../photos/photo-downloads.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { isPaidEvent } from '../photos/photo-urls.ts';
import { pickEntry, type FilePick } from './download-choice.ts';

/** The console album's filters an owner's zip follows (the list's own fields). */
export type OwnerZipFilters = Omit<ParsedBodyOf<typeof ownerAlbumDownload>, 'event_id' | 'email'>;

/**
 * What a ticket carries, sealed (AES-GCM with the app secret): the key is never readable in it.
 * A guest's names its key (`k`, `v`); an owner's zip from the console album names the signed-in
 * user (`u`), the event (`e`) and the album's filters (`f`), checked again when the zip is read.
 */
export interface Ticket {
  k?: PublicKeyType;
  v?: string;
  u?: number;
  e?: number;
  f?: OwnerZipFilters;
  /** Photo ids of a selection, or null for the whole album. */
  ids: number[] | null;
  /** The size asked for (absent: the largest the key may have). */
  s?: AlbumDownloadSize;
  /** Expiry, seconds since the epoch. */
  x: number;
}

const PAGE = 200;

/** The photo's file name; a web-size picture is a JPEG whatever the original was. */
const fileNameOf = (row: PhotoRow, variant: 'original' | 'web'): string => {
  const name = row.fileName?.trim() || `${row.uid}.jpg`;
  if (variant === 'original') return name;
  return name.replace(/\.[^.]*$/, '') + '.jpg';
};

/** The zip's own name: the event's, without what file systems refuse. */
export const zipFileName = (event: EventRecord): string => {
  const base = (event.row.full_name || event.row.name || 'album')
    .replace(/[\\/:*?"<>|]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${base || 'album'}.zip`;
};

/**
 * What goes into an album's zip, for the page's stream and the mailed job alike: the sealed
 * ticket read back and its key checked again as if presented now, the photos the key lists (a
 * selection or the album page by page, with the list's own rules) and, for each, the file it may
 * take (`download-choice.ts`).
 */
export class AlbumDownloadFiles {
  constructor(
    private readonly deps: {
      access: AccessControl;
      listing: PhotoListingService;
      photoRows: Pick<PhotoRepository, 'findById'>;
      events: Pick<EventRepository, 'findById'>;
      storage: StorageRepository;
      secrets: SecretBox;
      clock: Clock;
      resolveKey: (keyType: PublicKeyType, keyValue: string) => Promise<Principal>;
      /** The user an owner's ticket names, as if signed in now (null: gone or disabled). */
      findUser: (userId: number) => Promise<SignedInUser | null>;
    },
  ) {}

  grantOf(principal: Principal): Promise<EventGrant> {
    return this.deps.access.requireEventAccess(principal, 'photo.list', { keyEvent: true });
  }

  /** A ticket sealed for `seconds` from now. */
  seal(ticket: Omit<Ticket, 'x'>, seconds: number): string {
    return sealTicket(this.deps.secrets, this.deps.clock, ticket, seconds);
  }

  /** A ticket read back, its key or user checked again now; `not_found` when it cannot be. */
  async unseal(sealed: string) {
    const ticket: Ticket = unsealTicket<Ticket>(this.deps.secrets, this.deps.clock, sealed);
    if (ticket.u !== undefined && ticket.e !== undefined) {
      // An owner's zip: the user as now (a user disabled or moved since reads nothing).
      const actor = await this.deps.findUser(ticket.u);
      if (!actor) throw new AppError('not_found');
      const principal = userPrincipal(actor);
      const grant = await this.deps.access.requireEventAccess(principal, 'photo.list', {
        eventId: ticket.e,
      });
      return { ticket, principal, grant };
    }
    if (!ticket.k || ticket.v === undefined) throw new AppError('not_found');
    const principal = await this.deps.resolveKey(ticket.k, ticket.v);
    const grant = await this.grantOf(principal);
    return { ticket, principal, grant };
  }

  /** The zip entries of a ticket, named uniquely, each opened only when the zip reaches it. */
  async *entries(
    principal: Principal,
    grant: EventGrant,
    ticket: Ticket,
  ): AsyncIterable<{ entry: ZipEntry; storageKey: string }> {
    const name = uniqueNames();
    for await (const { row, pick } of this.photos(principal, grant, ticket.ids, ticket.s, ticket)) {
      if (!pick) continue;
      const storageKey = pick.storageKey;
      yield {
        storageKey,
        entry: {
          name: name(fileNameOf(row, pick.variant)),
          modified: row.createdAt,
          open: () => this.body(storageKey),
        },
      };
    }
  }

  private async body(storageKey: string): Promise<Readable> {
    const object = await this.deps.storage.get(storageKey);
    if (!object) throw new Error('stored object missing');
    return object.body;
  }

  /** The photos asked for, each with what the key may take of it (in the album's order). */
  async *photos(
    principal: Principal,
    grant: EventGrant,
    ids: number[] | null,
    size: AlbumDownloadSize | undefined,
    owner?: Pick<Ticket, 'e' | 'f'>,
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
        if (shown) yield { row, pick: await this.pick(grant, row, size) };
      }
      return;
    }
    // The whole album, page by page with the list's own rules (keyset pages: no page shifts).
    let before: number | undefined;
    for (;;) {
      const page = await this.page(principal, {
        before,
        withTotal: false,
        ...(owner?.e !== undefined ? { eventId: owner.e, filters: owner.f ?? {} } : {}),
      });
      for (const photo of page.photos) {
        const row = await this.deps.photoRows.findById(photo.id);
        if (row && row.status === 'ready') yield { row, pick: await this.pick(grant, row, size) };
      }
      if (page.photos.length < PAGE) return;
      before = page.photos[page.photos.length - 1]?.id;
    }
  }

  /**
   * One page of the album as the key lists it (the principal is already resolved); an operator's
   * names the event and the console album's filters.
   */
  page(
    principal: Principal,
    options: {
      before: number | undefined;
      withTotal: boolean;
      eventId?: number;
      filters?: OwnerZipFilters;
    },
  ) {
    const { before, withTotal, eventId, filters } = options;
    return this.deps.listing.list(
      principal,
      publicPhotoList.body.parse({
        key_type: keyTypeOf(principal) ?? 'public',
        key_value: 'resolved',
        max_size: PAGE,
        ...(eventId !== undefined ? { event_id: eventId, ...filters } : {}),
        ...(before !== undefined ? { before_id: before } : {}),
        ...(withTotal ? { show_total_count: 1 } : {}),
      }),
    );
  }

  /** What the key may take of one photo: the original, the web picture or nothing. */
  async pick(
    grant: EventGrant,
    row: PhotoRow,
    size: AlbumDownloadSize | undefined,
  ): Promise<FilePick> {
    const event =
      row.eventId === grant.event.row.id
        ? grant.event
        : await this.deps.events.findById(row.eventId);
    if (!event) return null;
    const paid = isPaidEvent(event.row);
    const keyOriginal =
      grant.audience === 'owner' ||
      (grant.audience === 'private' && !paid) ||
      (grant.attendee !== null && attendeeMayDownloadPhoto(grant.attendee, event.row, row));
    return pickEntry(
      {
        keyOriginal,
        paid,
        guestDownloads: event.row.opts.guestDownloadEnabled !== 0,
        guestWebOnly: event.row.opts.guestDownloadWebOnly === 1,
      },
      row,
      size,
    );
  }
}
