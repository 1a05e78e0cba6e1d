import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { EventRepository, EventRow } from '../../repositories/events/event.repository.ts';
import type { FromAddressVerificationRepository } from '../../repositories/messaging/from-address-verification.repository.ts';
import type { MailService } from './mail.service.ts';

export const FROM_ADDRESS_LINK_DAYS = 7;

/**
 * The address mail for an event is sent from: the event's own from address once its owner has
 * proved it is theirs (verification link), the platform sender until then. Every mail sender of
 * an event uses this, so an unverified address is never put on outgoing mail.
 */
export const senderFor = (
  event: Pick<EventRow, 'email_from_address' | 'emailFromAddressVerified' | 'email_from_name'>,
  platformFrom: string,
): string => {
  if (!event.emailFromAddressVerified || !event.email_from_address.trim()) return platformFrom;
  const name = event.email_from_name.replace(/[\r\n"\\]/g, ' ').trim();
  const address = event.email_from_address.replace(/[\r\n<>]/g, '').trim();
  return name ? `"${name}" <${address}>` : address;
};

/** From-address verification: a one-time link e-mailed to the new address. */
export class EventFromAddressService {
  constructor(
    private readonly deps: {
      verifications: FromAddressVerificationRepository;
      events: EventRepository;
      mail: MailService;
      clock: Clock;
      publicUrl: string;
    },
  ) {}

  /** Stores a hashed one-time token (valid 7 days) and mails the link to the event's from address. */
  async requestVerification(
    event: Pick<EventRow, 'id' | 'name' | 'full_name' | 'email_from_address'>,
  ): Promise<void> {
    const address = event.email_from_address.trim();
    if (!address) return;
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await this.deps.verifications.create({
      tokenHash: hashToken(token),
      eventId: event.id,
      address,
      createdAt: now,
      expiresAt: new Date(now.getTime() + FROM_ADDRESS_LINK_DAYS * 86_400_000),
    });
    const link = `${this.deps.publicUrl}/verify-from-address?token=${encodeURIComponent(token)}`;
    const title = `${event.full_name} (${event.name})`;
    await this.deps.mail.send({
      kind: 'event_from_address_verification',
      to: address,
      subject: 'Confirm the sender address of your Flashbulb event',
      text:
        `This address was entered as the sender of e-mails for the event ${title}.\n\n` +
        `Open this link within ${FROM_ADDRESS_LINK_DAYS} days to confirm it:\n${link}\n\n` +
        `Until it is confirmed, the event's e-mails are sent from the Flashbulb address. ` +
        `If you did not expect this message, ignore it.`,
      html:
        `<p>This address was entered as the sender of e-mails for the event ` +
        `<strong>${escapeHtml(title)}</strong>.</p>` +
        `<p><a href="${escapeHtml(link)}">Confirm the sender address</a> within ${FROM_ADDRESS_LINK_DAYS} days.</p>` +
        `<p>Until it is confirmed, the event's e-mails are sent from the Flashbulb address. ` +
        `If you did not expect this message, ignore it.</p>`,
    });
  }

  /** Spends the token and marks the address verified, if it is still the event's address. */
  async verify(token: string): Promise<{ email_from_address: string }> {
    const tokenHash = hashToken(token);
    const row = await this.deps.verifications.findByHash(tokenHash);
    const now = this.deps.clock.now();
    if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime())
      throw new AppError('verification_link_invalid', 'token');
    if (!(await this.deps.verifications.markUsed(tokenHash, now)))
      throw new AppError('verification_link_invalid', 'token');
    if (!(await this.deps.events.markFromAddressVerified(row.eventId, row.address)))
      throw new AppError('verification_link_invalid', 'token');
    return { email_from_address: row.address };
  }
}
