import type { Readable } from 'node:stream';
import {
  ALBUM_DOWNLOAD_MAIL_THRESHOLD,
  ALBUM_DOWNLOAD_PATH,
  ALBUM_DOWNLOAD_TICKET_SECONDS,
  API_BASE,
  type createAlbumDownload,
  type ownerAlbumDownload,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { LeadGate } from '../../access/lead-gate.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import { zipLength, zipStream, type ZipEntry } from '../../lib/zip-stream.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { zipFileName, type AlbumDownloadFiles, type Ticket } from './album-download-files.ts';
import { JOB_TICKET_SECONDS, type AlbumZipMailService } from './album-zip-mail.service.ts';

/** Objects whose size is asked at once before a zip streams (its exact length). */
const HEAD_CONCURRENCY = 16;

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
 * What goes in is `album-download-files.ts`'s; an album too big to stream is mailed
 * (`album-zip-mail.service.ts`).
 */
export class AlbumDownloadService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      files: AlbumDownloadFiles;
      zipMail: AlbumZipMailService;
      photoRows: Pick<PhotoRepository, 'findById'>;
      storage: StorageRepository;
      publicUrl: string;
      /** The lead gate of guest album calls (access/lead-gate.ts). */
      leadGate: LeadGate;
    },
  ) {}

  /** Checks the request and answers the zip's address (albums spec §2.5; `createAlbumDownload`). */
  async create(principal: Principal, input: ParsedBodyOf<typeof createAlbumDownload>) {
    await this.deps.leadGate(principal, input);
    const { files } = this.deps;
    const grant = await files.grantOf(principal);
    const ids = input.photo_id_array ? [...new Set(input.photo_id_array)] : null;
    const size = input.size;
    let count = 0;
    // Whether any photo asked for may be had as the original (an explicit `original` needs one).
    let anyOriginal = false;
    if (ids) {
      for await (const found of files.photos(principal, grant, ids, size)) {
        if (found.pick) count += 1;
        if (found.pick?.variant === 'original') anyOriginal = true;
      }
      if (count === 0) throw new AppError('download_not_allowed');
    } else {
      // The whole album: its first page decides (the rules are the event's, or the attendee's
      // purchases); the count is the album's.
      const first = await files.page(principal, { before: undefined, withTotal: true });
      if (first.photos.length === 0) throw new AppError('not_found');
      let allowed = false;
      for (const photo of first.photos) {
        const row = await this.deps.photoRows.findById(photo.id);
        const pick = row ? await files.pick(grant, row, size) : null;
        if (pick) allowed = true;
        if (pick?.variant === 'original') anyOriginal = true;
        if (allowed && (anyOriginal || size !== 'original')) break;
      }
      if (!allowed) throw new AppError('download_not_allowed');
      count = first.total_count ?? first.photos.length;
    }
    if (size === 'original' && !anyOriginal) throw new AppError('download_not_allowed', 'size');
    const ticket: Omit<Ticket, 'x'> = {
      k: input.key_type,
      v: input.key_value,
      ids,
      ...(size ? { s: size } : {}),
    };
    if (!ids && count > ALBUM_DOWNLOAD_MAIL_THRESHOLD) {
      // Too big to stream to a page: a job builds it into storage and mails the link.
      if (!input.email) throw new AppError('email_required', 'email');
      return this.deps.zipMail.queue(
        files.seal(ticket, JOB_TICKET_SECONDS),
        input.email,
        grant,
        count,
      );
    }
    return this.streamed(files.seal(ticket, ALBUM_DOWNLOAD_TICKET_SECONDS), count);
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
    const { files } = this.deps;
    const { event_id: eventId, email, ...filters } = input;
    const first = await files.page(principal, {
      before: undefined,
      withTotal: true,
      eventId,
      filters,
    });
    if (first.photos.length === 0) throw new AppError('not_found');
    const count = first.total_count ?? first.photos.length;
    const ticket: Omit<Ticket, 'x'> = {
      u: actor.userId,
      e: eventId,
      f: filters,
      ids: null,
      s: 'original',
    };
    if (count > ALBUM_DOWNLOAD_MAIL_THRESHOLD)
      return this.deps.zipMail.queue(
        files.seal(ticket, JOB_TICKET_SECONDS),
        email ?? actor.email,
        grant,
        count,
      );
    return this.streamed(files.seal(ticket, ALBUM_DOWNLOAD_TICKET_SECONDS), count);
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

  /**
   * The zip of a ticket: its file name, exact length, entry count and stream. A ticket that cannot
   * be read or has expired is `not_found`; the key inside is checked again as if it were presented
   * now. The entries (at most the mail threshold's count) and their sizes are read first, so the
   * page can show real progress; the bytes then stream one file at a time.
   */
  async open(
    sealed: string,
  ): Promise<{ fileName: string; body: Readable; length: number; entries: number }> {
    const { ticket, principal, grant } = await this.deps.files.unseal(sealed);
    const listed: { entry: ZipEntry; storageKey: string }[] = [];
    for await (const item of this.deps.files.entries(principal, grant, ticket)) listed.push(item);
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
