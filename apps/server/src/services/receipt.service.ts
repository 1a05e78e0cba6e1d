import { formatCents, PLACEHOLDERS, stripTags } from '@flashbulb/shared';
import { escapeHtml } from '../lib/escape-html.ts';
import type { AttendeeRepository } from '../repositories/attendee.repository.ts';
import type { EventRepository } from '../repositories/event.repository.ts';
import type { PaymentRepository } from '../repositories/payment.repository.ts';
import { senderFor } from './event-from-address.service.ts';
import { renderBodyHtml } from './notifications/template-render.ts';
import type { MailService } from './mail.service.ts';
import type { PaymentConfirmed } from './payment.service.ts';

/**
 * The receipt e-mail (issue 10; owner console §3 `receipt_email_body`, which must hold
 * `{user_name}`): a subscriber of `payment.confirmed`, sent through the outbox to the attendee's
 * address. `payment.confirmed` is raised once per payment (the state machine's compare-and-set),
 * so one receipt per payment. An attendee without an address gets none.
 */
export class ReceiptService {
  constructor(
    private readonly deps: {
      payments: PaymentRepository;
      events: EventRepository;
      attendees: AttendeeRepository;
      mail: MailService;
      platformFrom: string;
    },
  ) {}

  async onPaymentConfirmed(confirmed: PaymentConfirmed): Promise<void> {
    const order = await this.deps.payments.orderById(confirmed.orderId);
    const event = await this.deps.events.findById(confirmed.eventId);
    const attendee = await this.deps.attendees.findById(confirmed.attendeeId);
    const to = attendee?.email?.trim();
    if (!order || !event || !to) return;
    const row = event.row;
    // No name is known for an attendee: the greeting uses their address.
    const userName = to;
    const fill = (encode: (v: string) => string) =>
      row.receipt_email_body.split(PLACEHOLDERS.userName).join(encode(userName));
    const summary = `${order.buttonText}: ${formatCents(confirmed.amount)} (${confirmed.currency})`;
    // The owner's HTML is sanitised like every mail template (formatting tags and http(s) links
    // survive, a <script> does not); the name is escaped.
    const html = `${renderBodyHtml(row.receipt_email_body, { user_name: userName })}<p>${escapeHtml(summary)}</p>`;
    const text = `${stripTags(fill((v) => v)).trim()}\n\n${summary}`;
    await this.deps.mail.send({
      kind: 'payment_receipt',
      eventId: row.id,
      to,
      from: senderFor(row, this.deps.platformFrom),
      subject: `Your receipt: ${row.full_name}`.replace(/[\r\n]+/g, ' '),
      text,
      html,
    });
  }
}
