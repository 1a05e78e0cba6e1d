import {
  NOTIFICATION_TOPIC_KEYS,
  type Endpoints,
  type OutboxMessage,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { isOperator, type Principal } from '../../access/principal.ts';
import { isSuperUser } from '../../access/roles.ts';
import type { MailContent, SmsContent } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { NotificationRepository } from '../../repositories/messaging/notification.repository.ts';
import type {
  OutboxRepository,
  OutboxRow,
} from '../../repositories/messaging/outbox.repository.ts';
import type { OutboxService } from './outbox.service.ts';

/** An outbox row as the console shows it (the text of a mail, never its headers). */
export const presentOutboxMessage = (row: OutboxRow): OutboxMessage => {
  const mail = row.channel === 'mail' ? (row.content as MailContent) : null;
  return {
    id: row.id,
    channel: row.channel,
    kind: row.kind,
    topic: row.kind.startsWith('topic.') ? row.kind.slice('topic.'.length) : null,
    recipient: row.recipient,
    sender: row.sender,
    status: row.status,
    attempts: row.attempts,
    provider: row.provider,
    provider_message_id: row.providerMessageId,
    last_error: row.lastError,
    created_date: row.createdAt.toISOString(),
    sent_date: row.sentAt?.toISOString() ?? null,
    subject: mail?.subject ?? null,
    text: mail ? mail.text : (row.content as SmsContent).body,
  };
};

/**
 * The console's Outbox page: an event's messages for those who manage the
 * event (`event.manage`: owner, admin, super user within their reach; other organisations see
 * no such event), and resending one as a new message.
 */
export class OutboxAdminService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      rows: NotificationRepository;
      outboxRows: Pick<OutboxRepository, 'findById'>;
      outbox: Pick<OutboxService, 'enqueue'>;
    },
  ) {}

  /**
   * The event a call names (`event.manage` on it), or — no event named — null for a super user
   * (the messages of no event: sign-in codes, invitations, password resets; with the embedded
   * default they are read here). Anyone else: `forbidden`.
   */
  private async scope(principal: Principal, eventId: number | undefined): Promise<number | null> {
    if (eventId === undefined) {
      if (!isOperator(principal)) throw new AppError('unauthorized_user');
      if (!isSuperUser(principal.actor)) throw new AppError('forbidden', 'event_id');
      return null;
    }
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
      field: 'event_id',
    });
    return event.row.id;
  }

  async list(principal: Principal, input: ParsedBodyOf<Endpoints['outboxList']>) {
    const eventId = await this.scope(principal, input.event_id);
    const rows = await this.deps.rows.outboxOfEvent(eventId, {
      channel: input.channel,
      status: input.status,
      limit: input.limit,
    });
    return { messages: rows.map(presentOutboxMessage), topic_keys: [...NOTIFICATION_TOPIC_KEYS] };
  }

  async resend(principal: Principal, input: ParsedBodyOf<Endpoints['outboxResend']>) {
    const eventId = await this.scope(principal, input.event_id);
    const original = await this.deps.outboxRows.findById(input.message_id);
    if (!original || original.eventId !== eventId) throw new AppError('not_found', 'message_id');
    const copy = await this.deps.outbox.enqueue({
      channel: original.channel,
      kind: original.kind,
      eventId: original.eventId,
      recipient: original.recipient,
      sender: original.sender,
      content: original.content,
    });
    return { message: presentOutboxMessage(copy) };
  }
}
