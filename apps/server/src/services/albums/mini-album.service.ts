import {
  instantLinkUrl,
  isValidEmail,
  normaliseInstantCode,
  isValidUsPhone,
  normalisePhone,
  PLACEHOLDERS,
  splitList,
  type Endpoints,
  type MiniAlbum,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { attendeeOf, credentialName, isOperator, type Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import { albumDecision } from './album-visibility.ts';
import { mailMedia, type AlbumMailService } from '../messaging/album-mail.service.ts';
import { clipLines } from '../messaging/clip-mail.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import type { SmsService } from '../messaging/sms.service.ts';
import { inertText } from '../messaging/template-render.ts';
import { HOUR_MS, type GuestLimits, type UsageBudgets } from '../../access/guest-limits.ts';
import type { InstantLinkRepository } from '../../repositories/photos/instant-link.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';

/** The send-link call's parsed body without its key: the principal already carries it. */
export type SendMiniAlbumInput = Omit<
  ParsedBodyOf<Endpoints['sendMiniAlbumLink']>,
  'key_type' | 'key_value'
>;

/**
 * The recipients of an e-mail list, per albums spec §5 taken literally: a comma-separated list is
 * allowed, and with several entries a bad entry does not make the list invalid (it is skipped and
 * reported); a single entry must be valid.
 */
export const parseRecipientList = (
  entries: string[],
): { valid: string[]; rejected: string[]; invalidSingle: boolean } => {
  const all = entries.flatMap(splitList);
  const valid: string[] = [];
  const rejected: string[] = [];
  const seen = new Set<string>();
  for (const entry of all) {
    if (!isValidEmail(entry)) {
      rejected.push(entry);
      continue;
    }
    const key = entry.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push(entry);
  }
  return { valid, rejected, invalidSingle: all.length === 1 && valid.length === 0 };
};

/** Fills `{user_name}`, `{image_url}`, `{sender_name_or_email}`; `encode` escapes each value. */
const fill = (
  template: string,
  values: { userName: string; imageUrl: string; sender: string },
  encode: (value: string) => string = (v) => v,
): string =>
  template
    .split(PLACEHOLDERS.userName)
    .join(encode(values.userName))
    .split(PLACEHOLDERS.imageUrl)
    .join(encode(values.imageUrl))
    .split(PLACEHOLDERS.senderNameOrEmail)
    .join(encode(values.sender));

const clean = (value: string | null | undefined): string => (value ?? '').trim();

/** Mini-album links (albums §5 and §7.2). */
export class MiniAlbumService {
  constructor(
    private readonly deps: {
      albums: AlbumRepository;
      events: EventRepository;
      photos: PhotoListingService;
      access: AccessControl;
      /** The one album mail renderer and sender (wired after this service). */
      albumMail: () => Pick<AlbumMailService, 'send'>;
      sms: SmsService;
      clock: Clock;
      publicUrl: string;
      platformFrom: string;
      budgets: UsageBudgets;
      limits: GuestLimits;
      /** Instant links: a mini-album may be sent before its photos are ready. */
      instantLinks: Pick<InstantLinkRepository, 'findByCodes' | 'findByIds'>;
      photoRows: Pick<PhotoRepository, 'findById'>;
    },
  ) {}

  /**
   * A key's sends (never an operator's) come out of hourly budgets per key, per client address,
   * per event and per recipient, so the public key printed on share pages cannot make the event a
   * mail or SMS relay. Refused (`too_many_requests`) before anything is stored or sent.
   */
  private async spendSendBudgets(
    principal: Principal,
    eventId: number,
    address: string,
    mails: string[],
    sms: string | null,
  ): Promise<void> {
    if (isOperator(principal)) return;
    const l = this.deps.limits;
    const who = credentialName(principal);
    const { budgets } = this.deps;
    if (mails.length > 0) {
      await budgets.spend(
        [
          { key: `send:mail:key:${who}`, limit: l.mailPerKeyHourly },
          { key: `send:mail:address:${address}`, limit: l.mailPerAddressHourly },
          { key: `send:mail:event:${eventId}`, limit: l.mailPerEventHourly },
        ],
        mails.length,
        HOUR_MS,
      );
      await budgets.spend(
        mails.map((to) => ({
          key: `send:mail:to:${to.toLowerCase()}`,
          limit: l.mailPerRecipientHourly,
        })),
        1,
        HOUR_MS,
      );
    }
    if (sms) {
      await budgets.spend(
        [
          { key: `send:sms:key:${who}`, limit: l.smsPerKeyHourly },
          { key: `send:sms:address:${address}`, limit: l.smsPerAddressHourly },
          { key: `send:sms:event:${eventId}`, limit: l.smsPerEventHourly },
          { key: `send:sms:to:${sms}`, limit: l.smsPerRecipientHourly },
        ],
        1,
        HOUR_MS,
      );
    }
  }

  /**
   * Checks everything first, then stores the mini-album and sends: a refused call stores and sends
   * nothing.
   */
  async sendLink(principal: Principal, input: SendMiniAlbumInput, client: { address: string }) {
    // Operators name the event; a key names its own (an event_id given must be that one).
    const target =
      input.event_id !== undefined
        ? { eventId: input.event_id }
        : isOperator(principal)
          ? { eventId: 0 }
          : ({ keyEvent: true } as const);
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.share', target);
    const row = event.row;

    const emails = parseRecipientList(input.email_to_address_array);
    // A key names at most a handful of recipients, however its entries are split.
    if (
      !isOperator(principal) &&
      emails.valid.length + emails.rejected.length > this.deps.limits.recipientsPerCall
    )
      throw new AppError('too_many_recipients', 'email_to_address_array');
    if (emails.invalidSingle) throw new AppError('email_invalid', 'email_to_address_array');
    let smsTo: string | null = null;
    const smsNumber = clean(input.sms_number);
    if (smsNumber) {
      if (!isValidUsPhone(smsNumber)) throw new AppError('phone_invalid', 'sms_number');
      // SMS goes out only where the event has it enabled.
      if (row.is_sms_enabled === 1) smsTo = normalisePhone(smsNumber);
    }
    const contactPhone = clean(input.contact_phone_number);
    if (contactPhone && !isValidUsPhone(contactPhone))
      throw new AppError('phone_invalid', 'contact_phone_number');
    if (emails.valid.length === 0 && !smsTo) {
      if (smsNumber) throw new AppError('sms_not_enabled', 'sms_number');
      throw new AppError('recipient_required', 'email_to_address_array');
    }
    if (row.collect_leads === 1 && input.receiver_consent !== 1)
      throw new AppError('consent_required', 'receiver_consent');

    const uids = [...new Set(input.photo_uid_array)];
    const codes = [...new Set(input.instant_code_array.map((c) => normaliseInstantCode(c) ?? c))];
    if (uids.length === 0 && codes.length === 0)
      throw new AppError('photos_required', 'photo_uid_array');
    const rows = await this.deps.albums.photosByUids(row.id, uids);
    const now = this.deps.clock.now();
    // Instant links of this event that may still bring a photo (not refused, not expired empty).
    const links = await this.deps.instantLinks.findByCodes(row.id, codes);
    if (
      links.length !== codes.length ||
      links.some((l) => l.photoId === null && (l.failedAt !== null || l.expiresAt <= now))
    )
      throw new AppError('not_found', 'instant_code_array');
    if (
      rows.length !== uids.length ||
      rows.some((p) => !albumDecision(p, row, 'private', now, { streamWindow: false }).show)
    ) {
      throw new AppError('not_found', 'photo_uid_array');
    }
    // An attendee key sends only photos of its own album.
    if (attendeeOf(principal)) {
      for (const photo of rows)
        await this.deps.access.requireEventAccess(principal, 'photo.share', {
          photo,
          field: 'photo_uid_array',
        });
    }
    const byUid = new Map(rows.map((p) => [p.uid, p]));
    await this.spendSendBudgets(principal, row.id, client.address, emails.valid, smsTo);

    const token = randomToken(24);
    await this.deps.albums.createMiniAlbum({
      tokenHash: hashToken(token),
      eventId: row.id,
      photoIds: uids.map((uid) => byUid.get(uid)!.id),
      instantLinkIds: links.map((l) => l.id),
      receiverFullName: input.receiver_full_name,
      receiverCompanyName: clean(input.receiver_company_name) || null,
      contactPhoneNumber: contactPhone ? normalisePhone(contactPhone) : null,
      receiverConsent: input.receiver_consent ?? 0,
      senderAttendeeUid: clean(input.sender_attendee_uid) || null,
      emailAddresses: emails.valid,
      smsNumber: smsTo,
      createdAt: now,
    });
    const url = `${this.deps.publicUrl}/?mId=${token}`;
    const values = {
      userName: input.receiver_full_name,
      imageUrl: url,
      sender: row.email_from_name.trim() || row.full_name,
    };

    // The share mail: the event's template in its branded frame, worded for the number of
    // photos, the receiver's name, thumbnails; one message per address with its unsubscribe link.
    const albumMail = this.deps.albumMail();
    // Clips are named videos, shown by their poster and linked to their own share page.
    const { thumbnails, clips } = mailMedia(
      uids.map((uid) => byUid.get(uid)!),
      row,
      (p) => this.deps.photos.presentForGuest(p, 'public', { event: row }),
      now,
      (uid) => `${this.deps.publicUrl}/share/${uid}`,
    );
    for (const to of emails.valid) {
      await albumMail.send(row, { email: to, name: input.receiver_full_name }, url, {
        kind: 'mini_album_link',
        template: 'share',
        // Photos still developing count too: the link shows them once they are ready.
        count: uids.length + links.length,
        thumbnails,
        clips,
        senderName: values.sender,
      });
    }
    if (smsTo) {
      await this.deps.sms.send({
        kind: 'mini_album_link',
        eventId: row.id,
        to: smsTo,
        from: row.notification_data.smsSettings.from.trim() || null,
        // The receiver's name is the requester's text: never a link on the phone.
        body: [
          fill(row.sms_body_template, {
            ...values,
            userName: inertText(values.userName),
            sender: inertText(values.sender),
          }),
          ...clipLines(clips, url),
        ].join('\n'),
      });
    }
    return {
      url,
      emailed_addresses: emails.valid,
      rejected_addresses: emails.rejected,
      sms_count: smsTo ? 1 : 0,
    };
  }

  /** The mini-album behind a link: its event's basics and the photos still visible. */
  async retrieve(token: string): Promise<MiniAlbum> {
    const album = await this.deps.albums.miniAlbumByTokenHash(hashToken(token));
    if (!album) throw new AppError('not_found', 'token');
    const event = await this.deps.events.findById(album.eventId);
    if (!event) throw new AppError('not_found', 'token');
    const now = this.deps.clock.now();
    const rows = await this.deps.albums.photosByIds(event.row.id, album.photoIds);
    // Photos sent by their instant links: shown once ready, else their developing page.
    const developing: MiniAlbum['developing'] = [];
    for (const link of await this.deps.instantLinks.findByIds(event.row.id, album.instantLinkIds)) {
      const photo =
        link.photoId === null ? undefined : await this.deps.photoRows.findById(link.photoId);
      if (photo && albumDecision(photo, event.row, 'private', now, { streamWindow: false }).show) {
        if (!rows.some((r) => r.id === photo.id)) rows.push(photo);
      } else if (!photo && (link.failedAt !== null || link.expiresAt <= now)) {
        // Refused, or never arrived: nothing to show.
      } else if (photo?.status !== 'failed') {
        developing.push({
          code: link.code,
          url: instantLinkUrl(this.deps.publicUrl, event.row.name, link.code),
        });
      }
    }
    return {
      event: {
        id: event.row.id,
        name: event.row.name,
        full_name: event.row.full_name,
        empty_album_text: event.row.empty_album_text,
        logo_full_path: event.row.logo_full_path,
      },
      photos: rows
        .filter((p) => albumDecision(p, event.row, 'private', now, { streamWindow: false }).show)
        .map((p) => this.deps.photos.presentForGuest(p, 'public', { event: event.row })),
      developing,
      created_date: album.createdAt.toISOString(),
    };
  }
}
