import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatAttendeeId, TRANSACTIONAL_TOPIC_KEYS } from '@flashbulb/shared';
import type { OutboxChannel } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventRepository, EventRow } from '../../repositories/events/event.repository.ts';
import {
  NotificationRepository,
  type AttendeeContact,
} from '../../repositories/messaging/notification.repository.ts';
import { senderFor } from './event-from-address.service.ts';
import { eventLanguage } from './event-language.ts';
import type { OutboxService } from './outbox.service.ts';
import { mailBrand } from './mail-brand.ts';
import { renderMail, renderSms, type TemplateValues } from './template-render.ts';
import { clipLines, clipThumb, type MailClip } from './clip-mail.ts';
import { isProtectedKey } from '../../storage/key-space.ts';

export interface NotificationRecipient {
  email?: string | null;
  /** Digits or a formatted number; SMS channels need one. */
  phone?: string | null;
  /** Shown as `{user_name}`; the address when unknown. */
  name?: string | null;
}

export interface TopicNotice {
  eventId: number;
  /** The topic key (`photo_ready` …; NOTIFICATION_TOPIC_KEYS). */
  topicKey: string;
  /** What happened, unique per fact (`photo:<id>`): a recipient gets one message per fact. */
  factKey: string;
  recipient: NotificationRecipient;
  /** Placeholder values; `{url}`/`{image_url}` default to nothing. */
  values?: TemplateValues;
  /**
   * The fact is a clip: the mail shows its poster and a line naming it a video with its length
   * (linked to its page, else `{url}`); the SMS gets the line too.
   */
  clip?: MailClip;
}

/** What happened to each channel of a notice. */
export type ChannelOutcome =
  'queued' | 'duplicate' | 'unsubscribed' | 'no_channel' | 'no_recipient' | 'no_topic';

export const UNSUBSCRIBE_PATH = '/api/unsubscribe';

/**
 * Notifications by topic (albums spec §3 notification data). A product fact names a
 * topic key; the event's topic with that key renders its channels' texts (`cachedTopicsData`,
 * kept in step with the topics on every save) with the §9 placeholders and puts them in the
 * outbox — at most once per recipient and fact (the outbox's unique dedupe key), never to a
 * recipient who unsubscribed from the event (except transactional topics: the receipt).
 * Every message carries the recipient's unsubscribe link; mail also `List-Unsubscribe` with
 * one-click POST (RFC 8058).
 */
export class NotificationService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      rows: NotificationRepository;
      outbox: OutboxService;
      platformFrom: string;
      publicUrl: string;
      signingKey: Buffer;
      /** A storage key (the event's uploaded logo) → its public URL. */
      publicMediaUrl?: (key: string) => string;
    },
  ) {}

  // ---- unsubscribe tokens -----------------------------------------------------------------------

  private mac(payload: string): string {
    return createHmac('sha256', this.deps.signingKey)
      .update(`unsubscribe:${payload}`)
      .digest('base64url');
  }

  /** A token naming an event, a channel and a recipient, signed with the server's key. */
  unsubscribeToken(eventId: number, channel: OutboxChannel, recipient: string): string {
    const payload = `${eventId}.${channel}.${Buffer.from(
      NotificationRepository.normalise(channel, recipient),
    ).toString('base64url')}`;
    return `${payload}.${this.mac(payload)}`;
  }

  unsubscribeUrl(eventId: number, channel: OutboxChannel, recipient: string): string {
    const token = this.unsubscribeToken(eventId, channel, recipient);
    return `${this.deps.publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
  }

  /** The token's event, channel and recipient; `unsubscribe_link_invalid` when it was not ours. */
  readToken(token: string): { eventId: number; channel: OutboxChannel; recipient: string } {
    const parts = token.split('.');
    const invalid = new AppError('unsubscribe_link_invalid', 'token');
    if (parts.length !== 4) throw invalid;
    const [event, channel, recipient, mac] = parts as [string, string, string, string];
    const expected = Buffer.from(this.mac(`${event}.${channel}.${recipient}`));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
    if (!/^\d+$/.test(event) || (channel !== 'mail' && channel !== 'sms')) throw invalid;
    return {
      eventId: Number(event),
      channel,
      recipient: Buffer.from(recipient, 'base64url').toString('utf8'),
    };
  }

  /** Records the unsubscribe a link or a one-click POST asks for; answers the event's title. */
  async unsubscribe(token: string): Promise<{ eventTitle: string; recipient: string }> {
    const { eventId, channel, recipient } = this.readToken(token);
    const event = await this.deps.events.findById(eventId);
    if (!event) throw new AppError('unsubscribe_link_invalid', 'token');
    await this.deps.rows.unsubscribe(eventId, channel, recipient);
    return { eventTitle: event.row.full_name || event.row.name, recipient };
  }

  /** The event's title for the confirmation page (the link is checked first). */
  async describe(token: string): Promise<{ eventTitle: string; recipient: string }> {
    const { eventId, recipient } = this.readToken(token);
    const event = await this.deps.events.findById(eventId);
    if (!event) throw new AppError('unsubscribe_link_invalid', 'token');
    return { eventTitle: event.row.full_name || event.row.name, recipient };
  }

  // ---- delivery ---------------------------------------------------------------------------------

  /** An attendee's album link (the same one the owner console shows). */
  albumUrl(attendee: Pick<AttendeeContact, 'uid' | 'urlPrefix'>): string {
    const base = (attendee.urlPrefix ?? this.deps.publicUrl).replace(/\/+$/, '');
    return `${base}/?attId=${encodeURIComponent(formatAttendeeId(attendee.uid))}`;
  }

  /**
   * Notifies an attendee: `{user_name}` is their address, `{url}`/`{image_url}` their album. A
   * clip's notice names it a video and shows its poster (a public thumbnail only; the clip itself
   * is watched in the album).
   */
  notifyAttendee(
    eventId: number,
    topicKey: string,
    factKey: string,
    attendee: AttendeeContact,
    clip: { durationMs: number | null; posterKey: string | null } | null = null,
  ): Promise<Record<OutboxChannel, ChannelOutcome>> {
    const url = this.albumUrl(attendee);
    const poster =
      clip?.posterKey && !isProtectedKey(clip.posterKey) && this.deps.publicMediaUrl
        ? this.deps.publicMediaUrl(clip.posterKey)
        : null;
    return this.notify({
      eventId,
      topicKey,
      factKey,
      recipient: { email: attendee.email },
      values: { url, image_url: url, imageUrl: url },
      ...(clip ? { clip: { posterUrl: poster, durationMs: clip.durationMs, pageUrl: null } } : {}),
    });
  }

  /**
   * `attendee_reminder`: every attendee whose album expires within the next day at an event
   * with `enableAttendeeReminder` on; once per attendee, event and expiry date (a new expiry
   * gets a new reminder). Answers how many attendees were looked at.
   */
  async sendReminders(now: Date): Promise<number> {
    const due = await this.deps.rows.expiringAlbums(
      now,
      new Date(now.getTime() + 86_400_000),
      5000,
    );
    for (const attendee of due)
      await this.notifyAttendee(
        attendee.eventId,
        'attendee_reminder',
        `expires:${attendee.expiresAt.toISOString()}`,
        attendee,
      );
    return due.length;
  }

  async notify(notice: TopicNotice): Promise<Record<OutboxChannel, ChannelOutcome>> {
    const event = await this.deps.events.findById(notice.eventId);
    const row = event?.row;
    const texts = row?.notification_data.cachedTopicsData[notice.topicKey];
    if (!row || !texts) return { mail: 'no_topic', sms: 'no_topic' };
    const email = notice.recipient.email?.trim() || null;
    const phone = notice.recipient.phone?.replace(/\D/g, '') || null;
    const values: TemplateValues = {
      ...notice.values,
      user_name: notice.recipient.name?.trim() || email || phone || '',
      userName: notice.recipient.name?.trim() || email || phone || '',
      sender_name_or_email: row.email_from_name.trim() || senderFor(row, this.deps.platformFrom),
    };
    const mail = !texts.emailBody.trim()
      ? 'no_channel'
      : !email
        ? 'no_recipient'
        : await this.sendMail(row, notice, email, texts.emailSubject, texts.emailBody, values);
    const sms = !texts.SMSMessage.trim()
      ? 'no_channel'
      : !phone
        ? 'no_recipient'
        : await this.sendSms(row, notice, phone, texts.SMSMessage, values);
    return { mail, sms };
  }

  private dedupeKey(notice: TopicNotice, channel: OutboxChannel, recipient: string): string {
    const who = NotificationRepository.normalise(channel, recipient);
    return `topic:${notice.eventId}:${notice.topicKey}:${notice.factKey}:${channel}:${who}`;
  }

  private async mayReceive(notice: TopicNotice, channel: OutboxChannel, recipient: string) {
    if (TRANSACTIONAL_TOPIC_KEYS.includes(notice.topicKey)) return true;
    return !(await this.deps.rows.isUnsubscribed(notice.eventId, channel, recipient));
  }

  private async sendMail(
    row: EventRow,
    notice: TopicNotice,
    to: string,
    subject: string,
    body: string,
    values: TemplateValues,
  ): Promise<ChannelOutcome> {
    if (!(await this.mayReceive(notice, 'mail', to))) return 'unsubscribed';
    const unsubscribeUrl = this.unsubscribeUrl(row.id, 'mail', to);
    const link = String(values.url ?? '');
    const clipThumbnail = notice.clip ? clipThumb(notice.clip) : null;
    const rendered = renderMail(subject.trim() ? subject : row.email_subject, body, values, {
      eventTitle: row.full_name || row.name,
      unsubscribeUrl,
      brand: mailBrand(row, this.deps.publicMediaUrl ?? ((key) => key)),
      language: eventLanguage(row),
      ...(clipThumbnail
        ? { thumbnails: [{ ...clipThumbnail, href: clipThumbnail.href ?? link }] }
        : {}),
      ...(notice.clip ? { details: clipLines([notice.clip], link) } : {}),
    });
    const stored = await this.deps.outbox.enqueueOnce({
      channel: 'mail',
      kind: `topic.${notice.topicKey}`,
      eventId: row.id,
      recipient: to,
      sender: senderFor(row, this.deps.platformFrom),
      dedupeKey: this.dedupeKey(notice, 'mail', to),
      content: {
        ...rendered,
        headers: {
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      },
    });
    return stored ? 'queued' : 'duplicate';
  }

  private async sendSms(
    row: EventRow,
    notice: TopicNotice,
    to: string,
    message: string,
    values: TemplateValues,
  ): Promise<ChannelOutcome> {
    if (!(await this.mayReceive(notice, 'sms', to))) return 'unsubscribed';
    const clipLine = notice.clip ? clipLines([notice.clip], String(values.url ?? '')) : [];
    const body = renderSms(
      [message.trim(), ...clipLine].join('\n'),
      values,
      this.unsubscribeUrl(row.id, 'sms', to),
      eventLanguage(row),
    );
    const stored = await this.deps.outbox.enqueueOnce({
      channel: 'sms',
      kind: `topic.${notice.topicKey}`,
      eventId: row.id,
      recipient: to,
      sender: row.notification_data.smsSettings.from.trim() || null,
      dedupeKey: this.dedupeKey(notice, 'sms', to),
      content: { body },
    });
    return stored ? 'queued' : 'duplicate';
  }
}
