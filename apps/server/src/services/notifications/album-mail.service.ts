import type { EventRow } from '../../repositories/event.repository.ts';
import { senderFor } from '../event-from-address.service.ts';
import type { OutboxService } from '../outbox.service.ts';
import type { NotificationService } from './notification.service.ts';
import { renderMail, renderSms, type RenderedMail } from './template-render.ts';

/** The product's default subject (owner console §9) when an event leaves `email_subject` empty. */
export const DEFAULT_ALBUM_SUBJECT = 'Your photo from Flashbulb';
/** The body used when an event leaves `email_body_template` empty. */
export const DEFAULT_ALBUM_BODY = 'Hello {user_name},\n\nYour photos are here: {image_url}';

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
>;

/**
 * The album e-mail `email_body_template` (`{user_name}`, `{image_url}`) — rendered here only, for
 * every sender of album links (kiosk update, web-app registration, attendee list). Subject from
 * `email_subject`; the sender is the event's verified address with `email_from_name`
 * (`senderFor`). Same escaping rules as topic mail (template-render.ts).
 */
export const renderAlbumMail = (
  event: AlbumEvent,
  values: { userName: string; imageUrl: string },
  unsubscribeUrl: string | null,
  template: 'album' | 'share' = 'album',
): RenderedMail => {
  const body =
    (template === 'share' ? event.email_body_template_share : event.email_body_template).trim() ||
    DEFAULT_ALBUM_BODY;
  return renderMail(
    event.email_subject.trim() || DEFAULT_ALBUM_SUBJECT,
    body,
    {
      user_name: values.userName,
      userName: values.userName,
      image_url: values.imageUrl,
      imageUrl: values.imageUrl,
      url: values.imageUrl,
    },
    { eventTitle: event.full_name || event.name, unsubscribeUrl },
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
    },
  ) {}

  async send(
    event: AlbumEvent,
    to: { email?: string | null; phone?: string | null; name?: string | null },
    albumUrl: string,
    options: { kind?: string; template?: 'album' | 'share'; onceKey?: string } = {},
  ): Promise<{ mail: boolean; sms: boolean }> {
    const kind = options.kind ?? 'album_link';
    const email = to.email?.trim() || null;
    const phone = to.phone?.replace(/\D/g, '') || null;
    const userName = to.name?.trim() || email || '';
    let mail = false;
    let sms = false;
    if (email) {
      const unsubscribeUrl = this.deps.notifications.unsubscribeUrl(event.id, 'mail', email);
      const rendered = renderAlbumMail(
        event,
        { userName, imageUrl: albumUrl },
        unsubscribeUrl,
        options.template,
      );
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
      const body = renderSms(
        event.sms_body_template,
        {
          user_name: userName || phone,
          userName: userName || phone,
          url: albumUrl,
          image_url: albumUrl,
        },
        this.deps.notifications.unsubscribeUrl(event.id, 'sms', phone),
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
