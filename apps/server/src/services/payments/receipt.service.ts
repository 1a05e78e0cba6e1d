import { formatAttendeeId, formatMoney } from '@flashbulb/shared';
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { PaymentRepository } from '../../repositories/payments/payment.repository.ts';
import { fillText } from '@flashbulb/shared/i18n/format';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { eventLanguage } from '../messaging/event-language.ts';
import { senderFor } from '../messaging/event-from-address.service.ts';
import { mailBrand } from '../messaging/mail-brand.ts';
import { renderMail } from '../messaging/template-render.ts';
import type { MailService } from '../messaging/mail.service.ts';
import type { PaymentConfirmed } from './payment.service.ts';

/**
 * The receipt e-mail (owner console §3 `receipt_email_body`, which must hold
 * `{user_name}`): a subscriber of `payment.confirmed`, sent through the outbox to the attendee's
 * address. `payment.confirmed` is raised once per payment (the state machine's compare-and-set),
 * so one receipt per payment. An attendee without an address gets none. Rendered by the shared
 * renderer (template-render.ts): the owner's text sanitised, the event's logo, the amount as a
 * detail line, a button to the album, a plain-text part.
 */
export class ReceiptService {
  constructor(
    private readonly deps: {
      payments: PaymentRepository;
      events: EventRepository;
      attendees: AttendeeRepository;
      mail: MailService;
      platformFrom: string;
      publicUrl?: string;
      /** A storage key (the event's uploaded logo) → its public URL. */
      publicMediaUrl?: (key: string) => string;
    },
  ) {}

  async onPaymentConfirmed(confirmed: PaymentConfirmed): Promise<void> {
    const order = await this.deps.payments.orderById(confirmed.orderId);
    const event = await this.deps.events.findById(confirmed.eventId);
    const attendee = await this.deps.attendees.findById(confirmed.attendeeId);
    const to = attendee?.email?.trim();
    if (!order || !event || !attendee || !to) return;
    const row = event.row;
    const title = row.full_name || row.name;
    const base = (attendee.urlPrefix ?? this.deps.publicUrl ?? '').replace(/\/+$/, '');
    const albumUrl = base
      ? `${base}/?attId=${encodeURIComponent(formatAttendeeId(attendee.uid))}`
      : '';
    // The event's guest language; no name is known for an attendee: the greeting uses their address.
    const language = eventLanguage(row);
    const texts = sharedTexts(language).mail.receipt;
    const rendered = renderMail(
      fillText(texts.subject, { title }),
      row.receipt_email_body.trim() || texts.body,
      { user_name: to, userName: to, url: albumUrl, image_url: albumUrl },
      {
        eventTitle: title,
        unsubscribeUrl: null,
        brand: mailBrand(row, this.deps.publicMediaUrl ?? ((key) => key)),
        language,
        heading: texts.heading,
        // The payment's own currency and minor unit (€4.50, ¥450), written the language's way.
        details: [
          `${order.buttonText}: ${formatMoney(confirmed.amount, confirmed.currency, language)}`,
        ],
        action: albumUrl ? { label: texts.action, url: albumUrl } : undefined,
      },
    );
    await this.deps.mail.send({
      kind: 'payment_receipt',
      eventId: row.id,
      to,
      from: senderFor(row, this.deps.platformFrom),
      ...rendered,
    });
  }
}
