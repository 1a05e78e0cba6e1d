import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { randomInt } from 'node:crypto';
import {
  ATTENDEE_ID_ALPHABET,
  ATTENDEE_ID_LENGTH,
  attendeeKeyOf,
  formatAttendeeId,
  isValidEmail,
  isValidUsPhone,
  normalisePhone,
  type ParsedBodyOf,
  type WebappEvent,
  type webappRegister,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  AttendeeRepository,
  AttendeeRow,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { AlbumMailService } from '../messaging/album-mail.service.ts';
import type { NotificationService } from '../messaging/notification.service.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';
import { supportChatUrl } from './support-chat.ts';
import { renderSms } from '../messaging/template-render.ts';
import type { OutboxService } from '../messaging/outbox.service.ts';
import { HOUR_MS, type GuestLimits, type UsageBudgets } from '../../access/guest-limits.ts';

export { safeHttpUrl };

const randomUid = (): string => {
  let code = '';
  for (let i = 0; i < ATTENDEE_ID_LENGTH; i += 1)
    code += ATTENDEE_ID_ALPHABET[randomInt(ATTENDEE_ID_ALPHABET.length)];
  return code;
};

type RegisterBody = ParsedBodyOf<typeof webappRegister>;

/**
 * Registration by e-mail needs the address; registration by card id (`byIdFirst`) asks for one
 * only when the event collects them (`enableEmailCollect`).
 */
const collectsEmail = (
  o: Pick<EventRecord['row']['opts'], 'webappRegistrationType' | 'enableEmailCollect'>,
): boolean => o.webappRegistrationType !== 'byIdFirst' || o.enableEmailCollect === 1;

/**
 * The web-app page (`/?eName=<code>[&token=…]`, albums spec §2.1, §2.6 web-app tab, §3 web-app
 * settings): the event's branded guest page by its code, and registration that finds or creates
 * the guest's attendee album. The event code is public (it is in every link), so the page shows
 * only guest-facing branding and texts.
 */
export class WebappService {
  constructor(
    private readonly deps: {
      events: EventRepository;
      attendees: AttendeeRepository;
      access: Pick<AccessControl, 'attendeeById'>;
      albumMail: AlbumMailService;
      notifications: Pick<NotificationService, 'unsubscribeUrl'>;
      outbox: OutboxService;
      clock: Clock;
      publicUrl: string;
      /** A storage key of an uploaded web-app image → its public URL. */
      publicMediaUrl: (key: string) => string;
      budgets: UsageBudgets;
      limits: GuestLimits;
      bus?: SignalEmitter;
    },
  ) {}

  private async event(eventName: string): Promise<EventRecord> {
    const event = await this.deps.events.findByName(eventName.trim());
    if (!event) throw new AppError('event_not_found', 'event_name');
    return event;
  }

  /** A web-app image source: a full http(s) URL as given, a storage key through public storage. */
  private image(enabled: 0 | 1, src: string, link = ''): { src: string; link: string } | null {
    const trimmed = src.trim();
    if (enabled !== 1 || !trimmed) return null;
    const url = /^[a-z][a-z0-9+.-]*:/i.test(trimmed)
      ? safeHttpUrl(trimmed)
      : this.deps.publicMediaUrl(trimmed.replace(/^\/+/, ''));
    return url ? { src: url, link: safeHttpUrl(link) ?? '' } : null;
  }

  present(event: EventRecord): WebappEvent {
    const row = event.row;
    const o = row.opts;
    const logoPath = row.logo_full_path?.trim() || null;
    return {
      name: row.name,
      full_name: row.full_name,
      description: o.description,
      // The event logo as the album pages show it: an http(s) URL, an inline image (data:image/…,
      // which an <img> never runs) or a storage key.
      logo_full_path: logoPath
        ? /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(logoPath)
          ? logoPath
          : /^[a-z][a-z0-9+.-]*:/i.test(logoPath)
            ? safeHttpUrl(logoPath)
            : this.deps.publicMediaUrl(logoPath.replace(/^\/+/, ''))
        : null,
      logo_link: safeHttpUrl(row.logo_link) ?? '',
      logo: this.image(o.webappLogoEnabled, o.webappLogoSrc),
      background: this.image(o.webappBackgroundEnabled, o.webappBackgroundSrc),
      banner_top: this.image(o.webappBannerTopEnabled, o.webappBannerTopSrc, o.webappBannerTopLink),
      banner_bottom: this.image(
        o.webappBannerBottomEnabled,
        o.webappBannerBottomSrc,
        o.webappBannerBottomLink,
      ),
      share_title: o.webappShareTitle,
      og_title: o.ogpTitle.trim() || o.webappShareTitle.trim() || row.full_name,
      og_description: o.ogpDescription.trim() || o.description.trim(),
      faq_text: o.faqText,
      agreement_text: o.agreementText,
      support_link: safeHttpUrl(o.supportLink) ?? '',
      registration_type: o.webappRegistrationType,
      redirect_to_webapp: o.redirectToWebApp === 1,
      sms_enabled: o.webappSmsEnabled === 1 && row.is_sms_enabled === 1,
      sms_agreement: o.webappSmsAgreement,
      email_ends: o.emailEnds,
      accent_color: o.guestAccentColor ?? '',
      show_event_label: o.disableEventLabel !== 1,
      // Registration by e-mail needs the address; by card id it is asked only when collected.
      collect_email: collectsEmail(o),
      link_photos: o.disableLinkPhotos !== 1,
      picture_size: o.pictureSize,
      time_in_time_text: o.timeInTimeText,
      user_content: {
        tooltip: o.userContentTooltip,
        upload_message: o.userContentUploadMessage,
        process_message: o.userContentProcessMessage,
      },
      support_chat_url: supportChatUrl(o.supportChatKey),
      guest_language: o.guestLanguage,
      guest_language_auto: o.guestLanguageAuto === 1,
      // Only the page's own texts' translations (never the mail templates').
      text_translations: Object.fromEntries(
        (['faqText', 'agreementText'] as const).flatMap((field) => {
          const given = o.textTranslations[field];
          return given ? [[field, given]] : [];
        }),
      ),
    };
  }

  async page(eventName: string): Promise<WebappEvent> {
    return this.present(await this.event(eventName));
  }

  /** The page for the server-rendered HTML shell (Open Graph tags), or null for an unknown code. */
  async pageOrNull(eventName: string): Promise<WebappEvent | null> {
    if (!eventName.trim() || eventName.length > 40) return null;
    const event = await this.deps.events.findByName(eventName.trim());
    return event ? this.present(event) : null;
  }

  private albumUrl(
    row: Pick<AttendeeRow, 'uid' | 'urlPrefix' | 'privateId' | 'customUid'>,
  ): string {
    const base = (row.urlPrefix ?? this.deps.publicUrl).replace(/\/+$/, '');
    return `${base}/?attId=${encodeURIComponent(attendeeKeyOf(row))}`;
  }

  /**
   * Registration (web-app registration type `byIdFirst`: the id on the guest's card opens their
   * album; `default`: by e-mail). An album found by e-mail is only mailed to that address — the
   * reply never hands someone else's album to whoever typed the address. A new album's link is
   * answered and mailed. The SMS invite (web-app SMS text, `{userName}` and `{url}`) needs the
   * guest's agreement and the event's SMS on.
   */
  async register(input: RegisterBody, client: { address: string }) {
    const event = await this.event(input.event_name);
    const row = event.row;
    const email = input.email.trim();
    if (email && !isValidEmail(email)) throw new AppError('email_invalid', 'email');
    // An event that registers by card id without collecting addresses keeps none (the page does
    // not ask): a client sending one anyway is told, and nothing is stored or mailed.
    if (email && !collectsEmail(row.opts)) throw new AppError('email_not_collected', 'email');
    const phone = input.phone.trim();
    const smsOn = row.opts.webappSmsEnabled === 1 && row.is_sms_enabled === 1;
    if (phone) {
      if (!smsOn) throw new AppError('sms_not_enabled', 'phone');
      if (!isValidUsPhone(phone)) throw new AppError('phone_invalid', 'phone');
      if (input.sms_agreement !== 1) throw new AppError('consent_required', 'sms_agreement');
    }
    // Anyone may register (the call takes no key), so what it mails and texts comes out of hourly
    // budgets per client address, per event and per recipient: the page is no relay.
    const l = this.deps.limits;
    await this.deps.budgets.spend(
      [
        { key: `register:address:${client.address}`, limit: l.registerPerAddressHourly },
        { key: `register:event:${row.id}`, limit: l.registerPerEventHourly },
        ...(email
          ? [{ key: `send:mail:to:${email.toLowerCase()}`, limit: l.mailPerRecipientHourly }]
          : []),
        ...(phone
          ? [{ key: `send:sms:to:${normalisePhone(phone)}`, limit: l.smsPerRecipientHourly }]
          : []),
      ],
      1,
      HOUR_MS,
    );
    if (phone)
      await this.deps.budgets.spend(
        [
          { key: `send:sms:address:${client.address}`, limit: l.smsPerAddressHourly },
          { key: `send:sms:event:${row.id}`, limit: l.smsPerEventHourly },
        ],
        1,
        HOUR_MS,
      );
    const byId = row.opts.webappRegistrationType === 'byIdFirst' || input.attendee_uid !== '';
    let attendee: AttendeeRow | undefined;
    let created = false;
    let revealUrl = true;
    if (byId) {
      const { record, refusal } = await this.deps.access.attendeeById(input.attendee_uid, {
        eventId: row.id,
      });
      if (refusal === 'attendee_locked') throw new AppError('attendee_locked', 'attendee_uid');
      if (!record || refusal || record.row.organisationId !== row.organisationId)
        throw new AppError('invalid_attendee_id', 'attendee_uid');
      attendee = record.row;
      if (email && !attendee.email)
        attendee = (await this.deps.attendees.update(attendee.id, { email })) ?? attendee;
    } else {
      if (!email) throw new AppError('email_invalid', 'email');
      attendee = await this.deps.attendees.findByEmailInEvent(row.id, email);
      if (attendee) revealUrl = false;
      else {
        attendee = await this.deps.attendees.insertOrGet({
          uid: randomUid(),
          organisationId: row.organisationId,
          email,
          createdAt: this.deps.clock.now(),
        });
        created = true;
      }
    }
    await this.deps.attendees.linkEvent(attendee.id, row.id);
    if (created)
      await this.deps.bus?.emit('attendee.created', {
        attendeeId: attendee.id,
        uid: attendee.uid,
        eventId: row.id,
      });
    const albumUrl = this.albumUrl(attendee);
    const name = input.name.trim();
    let emailed = false;
    if (email) {
      const sent = await this.deps.albumMail.send(row, { email, name: name || null }, albumUrl, {
        kind: 'webapp_registration',
      });
      emailed = sent.mail;
    }
    let smsSent = false;
    if (phone) {
      const number = normalisePhone(phone);
      const body = renderSms(
        row.opts.webappSmsText,
        { userName: name || email || number, user_name: name || email || number, url: albumUrl },
        this.deps.notifications.unsubscribeUrl(row.id, 'sms', number),
      );
      await this.deps.outbox.enqueue({
        channel: 'sms',
        kind: 'webapp_sms_invite',
        eventId: row.id,
        recipient: number,
        sender: null,
        content: { body },
      });
      smsSent = true;
    }
    return {
      attendee_uid: revealUrl ? formatAttendeeId(attendee.uid) : '',
      album_url: revealUrl ? albumUrl : '',
      created,
      emailed,
      sms_sent: smsSent,
    };
  }
}
