import { defaultEventSettings } from '@flashbulb/shared';
import type { Photo } from '@flashbulb/shared';
import { enMail } from '@flashbulb/shared/i18n/en-mail';
import { fillText as fillI18n, pluralForms, pluralText } from '@flashbulb/shared/i18n/format';
import {
  DEFAULT_GUEST_LANGUAGE,
  translatedText,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import type { EventRow } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import { MEDIA_PATH } from '../photos/photo-urls.ts';
import { senderFor } from './event-from-address.service.ts';
import { eventLanguage } from './event-language.ts';
import { mailBrand, type BrandEvent } from './mail-brand.ts';
import type { OutboxService } from './outbox.service.ts';
import type { NotificationService } from './notification.service.ts';
import { httpUrlOrNull, type MailBrand, type MailFrame } from './mail-layout.ts';
import { renderMail, renderSms, type RenderedMail } from './template-render.ts';
import { clipLines, clipThumb, type MailClip, type MailThumb } from './clip-mail.ts';

/** The product's default subject (owner console §9) when an event leaves `email_subject` empty. */
export const DEFAULT_ALBUM_SUBJECT = enMail.defaultSubject;

/** A text of the mail's words worded for the count: its plural form, or the `…NoCount` text. */
const counted = (
  texts: Readonly<Record<string, string>>,
  base: 'heading' | 'body' | 'action',
  count: number | null,
  language: GuestLanguage,
  values: Readonly<Record<string, string>> = {},
): string =>
  !count
    ? fillI18n(texts[`${base}NoCount`] ?? '', values)
    : pluralText(pluralForms(texts, base), count, values, language);

/**
 * The product's own album and share texts, worded for the number of photos. An event that left
 * the template empty, or still has the product's stored default (which cannot know the count:
 * "your photo is ready", "A photo was shared with you"), gets these.
 */
const defaultBody = (
  template: 'album' | 'share',
  count: number | null,
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
  videos = 0,
): string => {
  const texts = sharedTexts(language);
  // One shared clip: the share greeting with the video's own sentence.
  if (template === 'share' && count === 1 && videos === 1)
    return counted(texts.mail.share, 'body', 1, language).replace(
      /<\/p><p>.*<\/p>$/s,
      `</p><p>${texts.pages.mail.videoShared}</p>`,
    );
  return counted(texts.mail[template], 'body', count, language);
};

const PRODUCT_DEFAULTS = (() => {
  const d = defaultEventSettings();
  return new Set([d.email_body_template.trim(), d.email_body_template_share.trim()]);
})();

/** The body an event's template field gives: its own text, or the count-aware default. */
export const albumBodyTemplate = (
  own: string,
  template: 'album' | 'share',
  count: number | null,
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
  videos = 0,
): string => {
  const trimmed = own.trim();
  return !trimmed || PRODUCT_DEFAULTS.has(trimmed)
    ? defaultBody(template, count, language, videos)
    : own;
};

/**
 * Thumbnail URLs for a mail: photos a guest may see now, and only public ones — a signed media
 * URL lasts an hour or two, a mail is read for weeks.
 */
export const mailThumbnails = (
  rows: PhotoRow[],
  event: EventRow,
  present: (row: PhotoRow) => Pick<Photo, 'urls'>,
  now: Date,
  limit = 6,
): string[] =>
  rows
    .filter((row) => albumDecision(row, event, 'private', now, { streamWindow: false }).show)
    .map((row) => present(row).urls.thumbnail)
    .filter(
      (url): url is string => !!url && !url.includes(`${MEDIA_PATH}/`) && !!httpUrlOrNull(url),
    )
    .slice(0, limit);

/**
 * The photos of a mail as its thumbnails, and its clips: a clip's thumbnail is its poster, named
 * a video, linking to the clip's share page when the public may see it (`shareUrl`); a photo's is
 * its thumbnail. Public URLs only, as `mailThumbnails`.
 */
export const mailMedia = (
  rows: PhotoRow[],
  event: EventRow,
  present: (row: PhotoRow) => Pick<Photo, 'urls'>,
  now: Date,
  shareUrl: (uid: string) => string,
  limit = 6,
): { thumbnails: MailThumb[]; clips: MailClip[] } => {
  const shown = rows.filter(
    (row) => albumDecision(row, event, 'private', now, { streamWindow: false }).show,
  );
  const publicUrl = (url: string | null | undefined) =>
    url && !url.includes(`${MEDIA_PATH}/`) && httpUrlOrNull(url) ? url : null;
  const clips: MailClip[] = [];
  const thumbnails: MailThumb[] = [];
  for (const row of shown) {
    const poster = publicUrl(present(row).urls.thumbnail);
    if (row.mediaType === 'video') {
      const clip: MailClip = {
        posterUrl: poster,
        durationMs: row.durationMs,
        pageUrl: albumDecision(row, event, 'public', now, { streamWindow: false }).show
          ? shareUrl(row.uid)
          : null,
      };
      clips.push(clip);
      const thumb = clipThumb(clip);
      if (thumb) thumbnails.push(thumb);
    } else if (poster) thumbnails.push({ src: poster });
  }
  return { thumbnails: thumbnails.slice(0, limit), clips };
};

type AlbumEvent = Pick<
  EventRow,
  | 'id'
  | 'name'
  | 'full_name'
  | 'email_subject'
  | 'email_body_template'
  | 'email_body_template_share'
  | 'email_from_address'
  | 'email_from_name'
  | 'emailFromAddressVerified'
  | 'is_sms_enabled'
  | 'sms_body_template'
  | 'logo_full_path'
  | 'logo_link'
  | 'opts'
>;

export interface AlbumMailOptions {
  template?: 'album' | 'share';
  /** How many photos the link shows; null: not known (an album that fills later). */
  count?: number | null;
  /** Public thumbnail URLs of (some of) the photos, or thumbnails with their own link and text. */
  thumbnails?: (string | MailThumb)[];
  /** The clips among the photos: the mail names them videos and links each one's page. */
  clips?: MailClip[];
  /** The sender's name for `{sender_name_or_email}` (share mail). */
  senderName?: string;
  brand?: MailBrand;
}

/**
 * The album e-mail `email_body_template` (`{user_name}`, `{image_url}`) and the share mail
 * `email_body_template_share` — rendered here only, for every sender of album links (kiosk
 * update, web-app registration, mini-albums). Subject from `email_subject`; the frame carries the
 * event's logo, a heading and button worded for the number of photos, and up to six thumbnails.
 * Same escaping rules as topic mail (template-render.ts).
 */
export const renderAlbumMail = (
  event: AlbumEvent,
  values: { userName: string; imageUrl: string },
  unsubscribeUrl: string | null,
  options: AlbumMailOptions = {},
): RenderedMail => {
  const template = options.template ?? 'album';
  const count = options.count ?? null;
  const language = eventLanguage(event);
  const texts = sharedTexts(language).mail;
  const translations = event.opts.textTranslations;
  const title = event.full_name || event.name;
  const bodyField = template === 'share' ? 'email_body_template_share' : 'email_body_template';
  const clips = options.clips ?? [];
  const onlyClip = count === 1 && clips.length === 1;
  const body = albumBodyTemplate(
    translatedText(event[bodyField], translations, bodyField, language),
    template,
    count,
    language,
    clips.length,
  );
  const heading =
    template === 'share' && onlyClip
      ? fillI18n(sharedTexts(language).pages.mail.videoHeading, { title })
      : counted(texts[template], 'heading', count, language, { title });
  const thumbnails = (options.thumbnails ?? []).slice(0, 6);
  const frame: MailFrame = {
    eventTitle: title,
    unsubscribeUrl,
    brand: options.brand,
    language,
    heading,
    thumbnails: thumbnails.map((thumb) =>
      typeof thumb === 'string'
        ? { src: thumb, href: values.imageUrl }
        : { ...thumb, href: thumb.href ?? values.imageUrl },
    ),
    moreCount:
      count && count > thumbnails.length && thumbnails.length > 0 ? count - thumbnails.length : 0,
    details: clipLines(clips, values.imageUrl),
    action: {
      label: onlyClip
        ? sharedTexts(language).pages.mail.watchVideo
        : counted(texts.album, 'action', count, language),
      url: values.imageUrl,
    },
  };
  // The product's stored default subject is the product's words: said in the guest's language.
  const subject = translatedText(
    event.email_subject,
    translations,
    'email_subject',
    language,
  ).trim();
  return renderMail(
    !subject || subject === DEFAULT_ALBUM_SUBJECT ? texts.defaultSubject : subject,
    body,
    {
      user_name: values.userName,
      userName: values.userName,
      image_url: values.imageUrl,
      imageUrl: values.imageUrl,
      url: values.imageUrl,
      sender_name_or_email: options.senderName ?? (event.email_from_name.trim() || title),
    },
    frame,
  );
};

/**
 * Sends an event's album link (mail, and SMS with `sms_body_template` when `is_sms_enabled` and
 * a number is given) through the outbox. With `onceKey`, at most once per recipient and key.
 */
export class AlbumMailService {
  constructor(
    private readonly deps: {
      outbox: OutboxService;
      notifications: Pick<NotificationService, 'unsubscribeUrl'>;
      platformFrom: string;
      /** A storage key (the event's uploaded logo) → its public URL. */
      publicMediaUrl: (key: string) => string;
    },
  ) {}

  /** The event's logo, logo link and accent for its mail. */
  brand(event: BrandEvent): MailBrand {
    return mailBrand(event, this.deps.publicMediaUrl);
  }

  async send(
    event: AlbumEvent,
    to: { email?: string | null; phone?: string | null; name?: string | null },
    albumUrl: string,
    options: Omit<AlbumMailOptions, 'brand'> & { kind?: string; onceKey?: string } = {},
  ): Promise<{ mail: boolean; sms: boolean }> {
    const kind = options.kind ?? 'album_link';
    const email = to.email?.trim() || null;
    const phone = to.phone?.replace(/\D/g, '') || null;
    const userName = to.name?.trim() || email || '';
    let mail = false;
    let sms = false;
    if (email) {
      const unsubscribeUrl = this.deps.notifications.unsubscribeUrl(event.id, 'mail', email);
      const rendered = renderAlbumMail(event, { userName, imageUrl: albumUrl }, unsubscribeUrl, {
        ...options,
        brand: this.brand(event),
      });
      const message = {
        channel: 'mail' as const,
        kind,
        eventId: event.id,
        recipient: email,
        sender: senderFor(event, this.deps.platformFrom),
        content: {
          ...rendered,
          headers: {
            'List-Unsubscribe': `<${unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        },
      };
      mail = options.onceKey
        ? (await this.deps.outbox.enqueueOnce({
            ...message,
            dedupeKey: `${kind}:${event.id}:${options.onceKey}:mail:${email.toLowerCase()}`,
          })) !== null
        : (await this.deps.outbox.enqueue(message), true);
    }
    if (phone && event.is_sms_enabled === 1 && event.sms_body_template.trim()) {
      const language = eventLanguage(event);
      const body = renderSms(
        translatedText(
          event.sms_body_template,
          event.opts.textTranslations,
          'sms_body_template',
          language,
        ),
        {
          user_name: userName || phone,
          userName: userName || phone,
          url: albumUrl,
          image_url: albumUrl,
        },
        this.deps.notifications.unsubscribeUrl(event.id, 'sms', phone),
        language,
      );
      const message = {
        channel: 'sms' as const,
        kind,
        eventId: event.id,
        recipient: phone,
        sender: null,
        content: { body },
      };
      sms = options.onceKey
        ? (await this.deps.outbox.enqueueOnce({
            ...message,
            dedupeKey: `${kind}:${event.id}:${options.onceKey}:sms:${phone}`,
          })) !== null
        : (await this.deps.outbox.enqueue(message), true);
    }
    return { mail, sms };
  }
}
