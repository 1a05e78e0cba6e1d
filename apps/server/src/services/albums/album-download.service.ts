import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  ALBUM_DOWNLOAD_MAIL_THRESHOLD,
  ALBUM_DOWNLOAD_MAILED_DAYS,
  ALBUM_DOWNLOAD_PATH,
  ALBUM_DOWNLOAD_TICKET_SECONDS,
  API_BASE,
  publicPhotoList,
  type AlbumDownloadSize,
  type albumDownloadStatus,
  type createAlbumDownload,
  type ownerAlbumDownload,
  type ParsedBodyOf,
  type PublicKeyType,
} from '@flashbulb/shared';
import type { AccessControl, EventGrant } from '../../access/access-control.ts';
import type { LeadGate } from '../../access/lead-gate.ts';
import { keyTypeOf, userPrincipal, type Principal } from '../../access/principal.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { uniqueNames, zipLength, zipStream, type ZipEntry } from '../../lib/zip-stream.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { MailService } from '../messaging/mail.service.ts';
import { senderFor } from '../messaging/event-from-address.service.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { attendeeMayDownloadPhoto } from '../photos/photo-downloads.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { isPaidEvent } from '../photos/photo-urls.ts';
import { pickEntry, type FilePick } from './download-choice.ts';

/** The console album's filters an owner's zip follows (the list's own fields). */
type OwnerZipFilters = Omit<ParsedBodyOf<typeof ownerAlbumDownload>, 'event_id' | 'email'>;

/**
 * What a ticket carries, sealed (AES-GCM with the app secret): the key is never readable in it.
 * A guest's names its key (`k`, `v`); an owner's zip from the console album names the signed-in
 * user (`u`), the event (`e`) and the album's filters (`f`), checked again when the zip is read.
 */
interface Ticket {
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
/** Objects whose size is asked at once before a zip streams (its exact length). */
const HEAD_CONCURRENCY = 16;
/** Seconds a job's ticket stays valid: the queue may be busy with other work for a while. */
const JOB_TICKET_SECONDS = 24 * 3600;
/** The mailed link lives this long at least (a signed storage URL lives up to twice its window). */
const MAILED_LINK_SECONDS = (ALBUM_DOWNLOAD_MAILED_DAYS * 24 * 3600) / 2;
/** Where a job's zips are stored (protected: only their signed link reads them). */
const ZIP_FOLDER = 'protected/downloads/';

/** What a mailed zip's status token carries, sealed: where the job writes it, for which event. */
interface StatusToken {
  z: string;
  e: number;
  /** Expiry, seconds since the epoch (the mailed link's own life). */
  x: number;
}

/** What the mail job carries: the key sealed, never readable in the job table. */
export interface AlbumZipJob {
  ticket: string;
  email: string;
  zipKey: string;
}

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
      /** The user an owner's ticket names, as if signed in now (null: gone or disabled). */
      findUser: (userId: number) => Promise<SignedInUser | null>;
      /** The lead gate of guest album calls (access/lead-gate.ts). */
      leadGate: LeadGate;
      jobs: JobSender;
      /** Wired later (messaging): the one mail sender, and the platform's From address. */
      mail: () => MailService;
      mailFrom: string;
    },
  ) {}

  /** Checks the request and answers the zip's address (albums spec §2.5; `createAlbumDownload`). */
  async create(principal: Principal, input: ParsedBodyOf<typeof createAlbumDownload>) {
    await this.deps.leadGate(principal, input);
    const grant = await this.grantOf(principal);
    const ids = input.photo_id_array ? [...new Set(input.photo_id_array)] : null;
    const size = input.size;
    let count = 0;
    // Whether any photo asked for may be had as the original (an explicit `original` needs one).
    let anyOriginal = false;
    if (ids) {
      for await (const found of this.photos(principal, grant, ids, size)) {
        if (found.pick) count += 1;
        if (found.pick?.variant === 'original') anyOriginal = true;
      }
      if (count === 0) throw new AppError('download_not_allowed');
    } else {
      // The whole album: its first page decides (the rules are the event's, or the attendee's
      // purchases); the count is the album's.
      const first = await this.page(principal, { before: undefined, withTotal: true });
      if (first.photos.length === 0) throw new AppError('not_found');
      let allowed = false;
      for (const photo of first.photos) {
        const row = await this.deps.photoRows.findById(photo.id);
        const pick = row ? await this.pick(grant, row, size) : null;
        if (pick) allowed = true;
        if (pick?.variant === 'original') anyOriginal = true;
        if (allowed && (anyOriginal || size !== 'original')) break;
      }
      if (!allowed) throw new AppError('download_not_allowed');
      count = first.total_count ?? first.photos.length;
    }
    if (size === 'original' && !anyOriginal) throw new AppError('download_not_allowed', 'size');
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const ticket = (seconds: number): string =>
      this.deps.secrets.encrypt(
        JSON.stringify({
          k: input.key_type,
          v: input.key_value,
          ids,
          ...(size ? { s: size } : {}),
          x: now + seconds,
        } satisfies Ticket),
      );
    if (!ids && count > ALBUM_DOWNLOAD_MAIL_THRESHOLD) {
      // Too big to stream to a page: a job builds it into storage and mails the link.
      if (!input.email) throw new AppError('email_required', 'email');
      return this.mailed(ticket(JOB_TICKET_SECONDS), input.email, grant, count);
    }
    return this.streamed(ticket(ALBUM_DOWNLOAD_TICKET_SECONDS), count);
  }

  /**
   * The console album's Download (`ownerAlbumDownload`): the photos the album's filters show, as
   * originals, for an operator of the event; the same stream, or above the threshold the same job
   * and mail (to the address given, else the operator's own).
   */
  async createForOwner(principal: Principal, input: ParsedBodyOf<typeof ownerAlbumDownload>) {
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.list', {
      eventId: input.event_id,
    });
    const actor = grant.actor;
    if (!actor) throw new AppError('forbidden');
    const { event_id: eventId, email, ...filters } = input;
    const first = await this.page(principal, {
      before: undefined,
      withTotal: true,
      eventId,
      filters,
    });
    if (first.photos.length === 0) throw new AppError('not_found');
    const count = first.total_count ?? first.photos.length;
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const ticket = (seconds: number): string =>
      this.deps.secrets.encrypt(
        JSON.stringify({
          u: actor.userId,
          e: eventId,
          f: filters,
          ids: null,
          s: 'original',
          x: now + seconds,
        } satisfies Ticket),
      );
    if (count > ALBUM_DOWNLOAD_MAIL_THRESHOLD)
      return this.mailed(ticket(JOB_TICKET_SECONDS), email ?? actor.email, grant, count);
    return this.streamed(ticket(ALBUM_DOWNLOAD_TICKET_SECONDS), count);
  }

  private streamed(sealed: string, count: number) {
    return {
      url: `${this.deps.publicUrl.replace(/\/+$/, '')}${API_BASE}${ALBUM_DOWNLOAD_PATH}?ticket=${encodeURIComponent(sealed)}`,
      photo_count: count,
      expires_in: ALBUM_DOWNLOAD_TICKET_SECONDS,
      mailed: 0 as const,
      status_token: null,
    };
  }

  private async mailed(sealed: string, email: string, grant: EventGrant, count: number) {
    const job: AlbumZipJob = {
      ticket: sealed,
      email,
      zipKey: `${ZIP_FOLDER}${grant.event.row.id}/${randomUUID()}.zip`,
    };
    await this.deps.jobs.send('albums.zip-mail', job);
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const status: StatusToken = {
      z: job.zipKey,
      e: grant.event.row.id,
      x: now + JOB_TICKET_SECONDS + MAILED_LINK_SECONDS,
    };
    return {
      url: null,
      photo_count: count,
      expires_in: MAILED_LINK_SECONDS,
      mailed: 1 as const,
      status_token: this.deps.secrets.encrypt(JSON.stringify(status)),
    };
  }

  /**
   * Whether a mailed zip is built yet (`albumDownloadStatus`): the page that asked for it shows
   * its link too. The token names the stored zip and its event; only a key of that event reads
   * it. The job stores the zip in one step (local rename, S3's completed upload), so a zip that
   * exists is whole.
   */
  async status(principal: Principal, input: ParsedBodyOf<typeof albumDownloadStatus>) {
    const grant = await this.grantOf(principal);
    let token: StatusToken;
    try {
      token = JSON.parse(this.deps.secrets.decrypt(input.status_token)) as StatusToken;
    } catch {
      throw new AppError('not_found');
    }
    const now = this.deps.clock.now().getTime();
    if (
      token.e !== grant.event.row.id ||
      token.x * 1000 <= now ||
      typeof token.z !== 'string' ||
      !token.z.startsWith(ZIP_FOLDER)
    )
      throw new AppError('not_found');
    if (!(await this.deps.storage.head(token.z)))
      return { ready: 0 as const, url: null, expires_in: 0 };
    const url = await this.deps.storage.signedGetUrl(token.z, {
      expiresInSeconds: MAILED_LINK_SECONDS,
    });
    return { ready: 1 as const, url, expires_in: MAILED_LINK_SECONDS };
  }

  /**
   * The zip of a ticket: its file name, exact length, entry count and stream. A ticket that cannot
   * be read or has expired is `not_found`; the key inside is checked again as if it were presented
   * now. The entries (at most the mail threshold's count) and their sizes are read first, so the
   * page can show real progress; the bytes then stream one file at a time.
   */
  async open(
    sealed: string,
  ): Promise<{ fileName: string; body: Readable; length: number; entries: number }> {
    const { ticket, principal, grant } = await this.unseal(sealed);
    const name = uniqueNames();
    const listed: { entry: ZipEntry; storageKey: string }[] = [];
    for await (const { row, pick } of this.photos(principal, grant, ticket.ids, ticket.s, ticket)) {
      if (!pick) continue;
      listed.push({
        storageKey: pick.storageKey,
        entry: {
          name: name(fileNameOf(row, pick.variant)),
          modified: row.createdAt,
          open: () => this.body(pick.storageKey),
        },
      });
    }
    // Every size, a few at a time (S3 answers each HEAD in a round trip); a missing object is
    // left out before the length is promised.
    for (let i = 0; i < listed.length; i += HEAD_CONCURRENCY) {
      await Promise.all(
        listed.slice(i, i + HEAD_CONCURRENCY).map(async (item) => {
          const info = await this.deps.storage.head(item.storageKey);
          if (info) item.entry.size = info.size;
        }),
      );
    }
    const entries = listed.map((item) => item.entry).filter((e) => e.size !== undefined);
    return {
      fileName: zipFileName(grant.event),
      body: zipStream(iterate(entries)),
      length: zipLength(entries.map((e) => ({ name: e.name, size: e.size ?? 0 }))),
      entries: entries.length,
    };
  }

  /**
   * Job `albums.zip-mail`: the zip of a whole album too big to stream to a page, written into
   * storage entry by entry as it is read (nothing held but one chunk), then its link mailed.
   */
  async buildAndMail(job: AlbumZipJob): Promise<void> {
    const { ticket, principal, grant } = await this.unseal(job.ticket);
    const name = uniqueNames();
    const photos = this.photos(principal, grant, ticket.ids, ticket.s, ticket);
    const body = (key: string) => this.body(key);
    async function* entries(): AsyncIterable<ZipEntry> {
      for await (const { row, pick } of photos) {
        if (!pick) continue;
        const key = pick.storageKey;
        yield {
          name: name(fileNameOf(row, pick.variant)),
          modified: row.createdAt,
          open: () => body(key),
        };
      }
    }
    await this.deps.storage.put(job.zipKey, zipStream(entries()), 'application/zip', {
      cacheControl: 'private, no-store',
    });
    const url = await this.deps.storage.signedGetUrl(job.zipKey, {
      expiresInSeconds: MAILED_LINK_SECONDS,
    });
    const event = grant.event.row;
    const title = event.full_name || event.name;
    const days = Math.floor(MAILED_LINK_SECONDS / 86_400);
    await this.deps.mail().send({
      kind: 'album_download',
      eventId: event.id,
      to: job.email,
      from: senderFor(event, this.deps.mailFrom),
      subject: `Your photos of ${title.replace(/[\r\n]+/g, ' ')} are ready to download`,
      text: `The photos of ${title} are ready as one zip file:\n\n${url}\n\nThe link works for ${days} days.`,
      html:
        `<p>The photos of <strong>${escapeHtml(title)}</strong> are ready as one zip file.</p>` +
        `<p><a href="${escapeHtml(url)}">Download the photos</a></p>` +
        `<p>The link works for ${days} days.</p>`,
    });
    // The stored zip goes when its link has expired.
    await this.deps.jobs.send(
      'albums.zip-mail',
      { expiredZipKey: job.zipKey },
      { startAfterSeconds: MAILED_LINK_SECONDS * 2 },
    );
  }

  /** The later half of the job: a mailed zip whose link has expired is deleted. */
  async deleteExpired(zipKey: string): Promise<void> {
    if (zipKey.startsWith(ZIP_FOLDER)) await this.deps.storage.delete(zipKey);
  }

  private async unseal(sealed: string) {
    let ticket: Ticket;
    try {
      ticket = JSON.parse(this.deps.secrets.decrypt(sealed)) as Ticket;
    } catch {
      throw new AppError('not_found');
    }
    if (ticket.x * 1000 <= this.deps.clock.now().getTime()) throw new AppError('not_found');
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

  private async body(storageKey: string): Promise<Readable> {
    const object = await this.deps.storage.get(storageKey);
    if (!object) throw new Error('stored object missing');
    return object.body;
  }

  private grantOf(principal: Principal): Promise<EventGrant> {
    return this.deps.access.requireEventAccess(principal, 'photo.list', { keyEvent: true });
  }

  /** The photos asked for, each with what the key may take of it (in the album's order). */
  private async *photos(
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
  private page(
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

  private async pick(
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

/** The entries in order (a plain list: the sizes were read before the zip started). */
const iterate = (entries: readonly ZipEntry[]): AsyncIterable<ZipEntry> => ({
  [Symbol.asyncIterator]: () => {
    let i = 0;
    return {
      next: () =>
        Promise.resolve(
          i < entries.length
            ? { done: false as const, value: entries[i++]! }
            : { done: true as const, value: undefined },
        ),
    };
  },
});

/** The photo's file name; a web-size picture is a JPEG whatever the original was. */
const fileNameOf = (row: PhotoRow, variant: 'original' | 'web'): string => {
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
