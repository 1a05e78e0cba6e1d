import { OutboxRepository } from '../repositories/messaging/outbox.repository.ts';
import { createProviders } from '../repositories/providers.ts';
import { WebhookEventRepository } from '../repositories/operations/webhook-event.repository.ts';
import { MailService } from '../services/messaging/mail.service.ts';
import { OutboxService } from '../services/messaging/outbox.service.ts';
import { SmsService } from '../services/messaging/sms.service.ts';
import { WebhookService } from '../services/operations/webhook-in.service.ts';
import type { Core } from './core.ts';

/** Messaging: provider adapters, the one mail + SMS outbox, provider webhooks. */
export const wireMessaging = (core: Core) => {
  const { config, database, jobs, clock, logger } = core;
  // Outside services: one adapter per capability, chosen by configuration (embedded default first).
  const providers = createProviders(config);
  const outbox = new OutboxRepository(database.db);
  // One outbox for mail and SMS: stored first, delivered by the mail/sms.deliver jobs.
  const outboxService = new OutboxService({
    rows: outbox,
    jobs,
    providers,
    clock,
    logger: logger.child({ component: 'outbox' }),
  });
  const webhooks = new WebhookService({
    receivers: providers.webhooks,
    events: new WebhookEventRepository(database.db),
    outbox,
    logger: logger.child({ component: 'webhooks' }),
  });
  return {
    repositories: { outbox },
    services: {
      mail: new MailService(outboxService),
      sms: new SmsService(outboxService),
      outbox: outboxService,
      webhooks,
    },
    close(): void {
      providers.close();
    },
  };
};
export type Messaging = ReturnType<typeof wireMessaging>;
