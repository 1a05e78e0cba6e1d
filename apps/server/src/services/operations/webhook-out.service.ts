import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type {
  Endpoints,
  ParsedBodyOf,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '@flashbulb/shared';
import { administersOrganisation, requireAdministeredOrganisation } from '../../access/rules.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { EventRepository } from '../../repositories/events/event.repository.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { UserRepository } from '../../repositories/identity/user.repository.ts';
import type {
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookOutRepository,
} from '../../repositories/operations/webhook-out.repository.ts';
import {
  signatureHeader,
  WebhookAddressRefused,
  type WebhookSender,
} from '../../repositories/operations/webhook-sender.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { MailService } from '../messaging/mail.service.ts';

/** Waits before the 2nd, 3rd … attempt: the first retry within a minute, then backing off. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200] as const;
/** Failed attempts in a row (across deliveries) after which an endpoint is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 10;
/** How long one attempt may take before another worker may take the delivery over. */
const ATTEMPT_LEASE_MS = 2 * 60_000;
const RESUME_BATCH = 1000;
const LOG_LIMIT = 200;

type OwnerBody<N extends keyof Endpoints> = ParsedBodyOf<Endpoints[N]>;

/** The `Flashbulb-Event-Id` of a fact: the same for every endpoint, retry and replay. */
export const webhookEventKey = (type: WebhookEventType, subject: string): string =>
  `evt_${createHash('sha256').update(`${type}:${subject}`).digest('hex').slice(0, 32)}`;

export interface WebhookFact {
  type: WebhookEventType;
  organisationId: number;
  eventId: number | null;
  /** What makes the fact unique within its type (a photo id, a payment id …). */
  subject: string;
  data: Record<string, unknown>;
}

/**
 * Outgoing webhooks. Operators (super users, the organisation's admins) manage endpoints;
 * `publish` stores one delivery per subscribed endpoint (once per fact: the dedupe key), then a
 * `webhook.deliver` job makes one attempt — the outbox's life: claimed and leased, `sent` on 2xx,
 * else retried after 30 s, 2 min, 10 min, 30 min, 2 h and then `failed`. After
 * WEBHOOK_DISABLE_AFTER_FAILURES failed attempts in a row the endpoint is disabled and its creator
 * mailed. The secret is answered once, at creation; it is sealed at rest and never logged.
 */
export class WebhookOutService {
  constructor(
    private readonly deps: {
      rows: WebhookOutRepository;
      organisations: OrganisationRepository;
      events: EventRepository;
      users: Pick<UserRepository, 'findById'>;
      mail: Pick<MailService, 'send'>;
      sender: WebhookSender;
      secrets: SecretBox;
      jobs: JobSender;
      clock: Clock;
      logger: Logger;
      disableAfterFailures?: number;
    },
  ) {}

  private organisationOf(actor: SignedInUser | null, requested: number | undefined) {
    return requireAdministeredOrganisation(actor, requested, this.deps.organisations);
  }

  /** The endpoint, once the caller administers its organisation (others: not found). */
  private async ownEndpoint(actor: SignedInUser | null, id: number): Promise<WebhookEndpointRow> {
    if (!actor) throw new AppError('unauthorized_user');
    const row = await this.deps.rows.endpoint(id);
    if (!row || !administersOrganisation(actor, row.organisationId))
      throw new AppError('webhook_not_found', 'id');
    return row;
  }

  private present(row: WebhookEndpointRow): WebhookEndpoint {
    return {
      id: row.id,
      organisation_id: row.organisationId,
      event_id: row.eventId,
      url: row.url,
      event_types: row.eventTypes as WebhookEventType[],
      enabled: row.enabled ? 1 : 0,
      disabled_reason: row.enabled ? null : row.disabledReason,
      secret_hint: row.secretHint,
      created_date: row.createdAt.toISOString(),
    };
  }

  private presentDelivery(row: WebhookDeliveryRow): WebhookDelivery {
    return {
      id: row.id,
      event_id: row.eventKey,
      event_type: row.eventType as WebhookEventType,
      status: row.status,
      attempts: row.attempts,
      last_status_code: row.lastStatusCode,
      last_error: row.lastError,
      created_date: row.createdAt.toISOString(),
      sent_date: row.sentAt?.toISOString() ?? null,
      next_attempt_date:
        row.status === 'queued' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    };
  }

  async list(actor: SignedInUser | null, input: OwnerBody<'webhookList'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const rows = await this.deps.rows.endpointsOf(organisationId);
    return { endpoints: rows.map((row) => this.present(row)) };
  }

  async create(actor: SignedInUser | null, input: OwnerBody<'webhookCreate'>) {
    const organisationId = await this.organisationOf(actor, input.organisation_id);
    const eventId = input.event_id ?? null;
    if (eventId !== null) {
      const event = await this.deps.events.findById(eventId);
      if (!event || event.row.organisationId !== organisationId)
        throw new AppError('event_not_found', 'event_id');
    }
    const verdict = await this.deps.sender.check(input.url);
    if (verdict === 'invalid') throw new AppError('webhook_url_invalid', 'url');
    if (verdict === 'private') throw new AppError('webhook_url_private', 'url');
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const row = await this.deps.rows.addEndpoint({
      organisationId,
      eventId,
      url: new URL(input.url).toString(),
      eventTypes: [...new Set(input.event_types)],
      secret: this.deps.secrets.encrypt(secret),
      secretHint: secret.slice(-4),
      createdByUserId: actor!.userId,
    });
    this.deps.logger.info({ webhookId: row.id, organisationId }, 'webhook endpoint added');
    return { endpoint: this.present(row), secret };
  }

  async setEnabled(actor: SignedInUser | null, input: OwnerBody<'webhookSetEnabled'>) {
    const row = await this.ownEndpoint(actor, input.id);
    await this.deps.rows.setEnabled(
      row.id,
      input.enabled === 1,
      input.enabled === 1 ? null : 'Disabled by an operator',
    );
    return { endpoint: this.present((await this.deps.rows.endpoint(row.id))!) };
  }

  async remove(actor: SignedInUser | null, input: OwnerBody<'webhookDelete'>) {
    const row = await this.ownEndpoint(actor, input.id);
    await this.deps.rows.deleteEndpoint(row.id);
    return {};
  }

  async deliveries(actor: SignedInUser | null, input: OwnerBody<'webhookDeliveries'>) {
    const row = await this.ownEndpoint(actor, input.id);
    const rows = await this.deps.rows.deliveriesOf(row.id, LOG_LIMIT);
    return { deliveries: rows.map((delivery) => this.presentDelivery(delivery)) };
  }

  async replay(actor: SignedInUser | null, input: OwnerBody<'webhookReplay'>) {
    if (!actor) throw new AppError('unauthorized_user');
    const original = await this.deps.rows.delivery(input.delivery_id);
    const endpoint = original ? await this.deps.rows.endpoint(original.endpointId) : undefined;
    if (!original || !endpoint || !administersOrganisation(actor, endpoint.organisationId))
      throw new AppError('webhook_not_found', 'delivery_id');
    if (!endpoint.enabled) throw new AppError('webhook_disabled', 'delivery_id');
    const copy = await this.deps.rows.addDelivery({
      endpointId: endpoint.id,
      eventKey: original.eventKey,
      eventType: original.eventType,
      body: original.body,
      dedupeKey: null,
    });
    await this.deps.jobs.send('webhook.deliver', { deliveryId: copy!.id });
    return { delivery: this.presentDelivery(copy!) };
  }

  /**
   * A fact happened: one delivery per enabled endpoint that takes its type (for its event, or for
   * every event of the organisation). Stored first, then enqueued; a fact published again (a
   * redone listener) stores nothing new.
   */
  async publish(fact: WebhookFact): Promise<number> {
    const endpoints = await this.deps.rows.subscribers(
      fact.organisationId,
      fact.eventId,
      fact.type,
    );
    if (endpoints.length === 0) return 0;
    const eventKey = webhookEventKey(fact.type, fact.subject);
    const body = JSON.stringify({
      id: eventKey,
      type: fact.type,
      created: Math.floor(this.deps.clock.now().getTime() / 1000),
      organisation_id: fact.organisationId,
      data: fact.data,
    });
    let stored = 0;
    for (const endpoint of endpoints) {
      const row = await this.deps.rows.addDelivery({
        endpointId: endpoint.id,
        eventKey,
        eventType: fact.type,
        body,
        dedupeKey: `${endpoint.id}:${eventKey}`,
      });
      if (!row) continue;
      stored += 1;
      await this.deps.jobs.send('webhook.deliver', { deliveryId: row.id });
    }
    return stored;
  }

  /** Job handler of `webhook.deliver`: one attempt, idempotent. */
  async deliver(deliveryId: number): Promise<void> {
    const { rows, clock, logger } = this.deps;
    const delivery = await rows.delivery(deliveryId);
    if (!delivery) return;
    const endpoint = await rows.endpoint(delivery.endpointId);
    if (!endpoint) return;
    if (!endpoint.enabled) {
      // Disabled since it was stored: nothing more goes out.
      if (delivery.status === 'queued')
        await rows.markFailed(delivery.id, null, 'the endpoint is disabled');
      return;
    }
    const claimed = await rows.claim(delivery.id, clock.now(), ATTEMPT_LEASE_MS);
    if (!claimed) return;
    const log = { webhookId: endpoint.id, deliveryId: delivery.id, type: delivery.eventType };

    let statusCode: number | null = null;
    let failure: string | null = null;
    let permanent = false;
    const secret = this.deps.secrets.decrypt(endpoint.secret);
    const t = Math.floor(clock.now().getTime() / 1000);
    try {
      // The sender resolves the name once, checks every address and connects to the checked one.
      statusCode = await this.deps.sender.post(endpoint.url, claimed.body, {
        'flashbulb-signature': signatureHeader(secret, claimed.body, t),
        'flashbulb-event-id': claimed.eventKey,
        'flashbulb-event-type': claimed.eventType,
      });
      if (statusCode < 200 || statusCode >= 300) failure = `the endpoint answered ${statusCode}`;
    } catch (error) {
      if (error instanceof WebhookAddressRefused) {
        // Refused before connecting (a private or local address, a name that resolves to none).
        failure = error.message;
        permanent = true;
      } else
        failure =
          error instanceof Error && error.name === 'TimeoutError'
            ? 'the endpoint did not answer in time'
            : 'the endpoint could not be reached';
    }

    if (failure === null) {
      await rows.markSent(delivery.id, statusCode!, clock.now());
      await rows.resetFailures(endpoint.id);
      logger.info({ ...log, attempts: claimed.attempts, statusCode }, 'webhook delivered');
      return;
    }
    const failures = await rows.countFailure(endpoint.id);
    const limit = this.deps.disableAfterFailures ?? WEBHOOK_DISABLE_AFTER_FAILURES;
    if (failures >= limit) {
      await rows.markFailed(delivery.id, statusCode, failure);
      await this.disable(endpoint, failures, failure);
      return;
    }
    if (permanent || claimed.attempts > WEBHOOK_RETRY_DELAYS_SECONDS.length) {
      await rows.markFailed(delivery.id, statusCode, failure);
      logger.warn({ ...log, attempts: claimed.attempts, statusCode }, 'webhook delivery failed');
      return;
    }
    const delay = WEBHOOK_RETRY_DELAYS_SECONDS[claimed.attempts - 1]!;
    await rows.markRetry(
      delivery.id,
      statusCode,
      failure,
      new Date(clock.now().getTime() + delay * 1000),
    );
    await this.deps.jobs.send(
      'webhook.deliver',
      { deliveryId: delivery.id },
      { startAfterSeconds: delay },
    );
    logger.warn(
      { ...log, attempts: claimed.attempts, statusCode, retryIn: delay },
      'webhook will be retried',
    );
  }

  /** Disables after repeated failures, and tells the operator who added the endpoint (once). */
  private async disable(endpoint: WebhookEndpointRow, failures: number, last: string) {
    const reason = `Disabled after ${failures} failed deliveries in a row (last: ${last})`;
    if (!(await this.deps.rows.disableAfterFailures(endpoint.id, reason))) return;
    this.deps.logger.warn({ webhookId: endpoint.id, failures }, 'webhook endpoint disabled');
    const creator = endpoint.createdByUserId
      ? await this.deps.users.findById(endpoint.createdByUserId)
      : undefined;
    if (!creator) return;
    await this.deps.mail.send({
      kind: 'webhook_disabled',
      to: creator.email,
      subject: 'A webhook endpoint was disabled',
      text: [
        `Deliveries to ${endpoint.url} failed ${failures} times in a row, so Flashbulb stopped sending to it.`,
        `Last failure: ${last}.`,
        'Fix the receiver, then enable the endpoint again on the Webhooks page of the console; failed deliveries can be replayed from its delivery log.',
      ].join('\n\n'),
    });
  }

  /** Deliveries whose job was lost (a crash between insert and enqueue) or whose worker died. */
  async resumeDue(): Promise<number> {
    const due = await this.deps.rows.due(this.deps.clock.now(), RESUME_BATCH);
    for (const { id } of due) await this.deps.jobs.send('webhook.deliver', { deliveryId: id });
    return due.length;
  }
}
