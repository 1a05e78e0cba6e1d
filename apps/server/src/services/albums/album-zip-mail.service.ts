import { randomUUID } from 'node:crypto';
import {
  ALBUM_DOWNLOAD_MAILED_DAYS,
  type albumDownloadStatus,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { EventGrant } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { zipStream, type ZipEntry } from '../../lib/zip-stream.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { MailService } from '../messaging/mail.service.ts';
import { senderFor } from '../messaging/event-from-address.service.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { AlbumDownloadFiles } from './album-download-files.ts';

/** Seconds a job's ticket stays valid: the queue may be busy with other work for a while. */
export const JOB_TICKET_SECONDS = 24 * 3600;
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
 * Album zips too big to stream to a page (above `ALBUM_DOWNLOAD_MAIL_THRESHOLD`): a job builds
 * the zip into storage and mails its link; the page that asked follows it with a status token;
 * the stored zip goes when the link has expired.
 */
export class AlbumZipMailService {
  constructor(
    private readonly deps: {
      files: AlbumDownloadFiles;
      storage: StorageRepository;
      secrets: SecretBox;
      clock: Clock;
      jobs: JobSender;
      /** Wired later (messaging): the one mail sender, and the platform's From address. */
      mail: () => MailService;
      mailFrom: string;
    },
  ) {}

  /** The job queued for a sealed ticket; the answer the page gets (no link yet, a status token). */
  async queue(sealed: string, email: string, grant: EventGrant, count: number) {
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
    const grant = await this.deps.files.grantOf(principal);
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
   * Job `albums.zip-mail`: the zip of a whole album too big to stream to a page, written into
   * storage entry by entry as it is read (nothing held but one chunk), then its link mailed.
   */
  async buildAndMail(job: AlbumZipJob): Promise<void> {
    const { ticket, principal, grant } = await this.deps.files.unseal(job.ticket);
    const listed = this.deps.files.entries(principal, grant, ticket);
    async function* entries(): AsyncIterable<ZipEntry> {
      for await (const { entry } of listed) yield entry;
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
}
