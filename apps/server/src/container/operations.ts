import { restoreIntoRunning } from '../db/restore-target.ts';
import { BackupRunsRepository } from '../repositories/operations/backup-runs.repository.ts';
import { IntegrityRepository } from '../repositories/operations/integrity.repository.ts';
import { IntegrityService } from '../services/operations/integrity.service.ts';
import { createBackupService } from './operations-backup.ts';
import { WebhookOutRepository } from '../repositories/operations/webhook-out.repository.ts';
import { WebhookSender, type HostResolver } from '../repositories/operations/webhook-sender.ts';
import { registerWebhookOutListeners } from '../services/operations/webhook-out.listeners.ts';
import { WebhookOutService } from '../services/operations/webhook-out.service.ts';
import { InsightRepository } from '../repositories/operations/insight.repository.ts';
import { InsightService } from '../services/operations/insight.service.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Identity } from './identity.ts';
import type { Messaging } from './messaging.ts';

/**
 * Operations (docs/domains/operations.md): outgoing webhooks, backups, the storage integrity check;
 * metrics and health live in core.
 */
export const wireOperations = (
  core: Core,
  identity: Identity,
  events: Events,
  messaging: Messaging,
  /** Host names of webhook endpoints (tests give a double); the system resolver otherwise. */
  webhookResolve?: HostResolver,
) => {
  const { config, database, bus, secrets, jobs, clock, logger, storage, metrics } = core;
  const webhookOut = new WebhookOutRepository(database.db);
  const webhookOutService = new WebhookOutService({
    rows: webhookOut,
    organisations: identity.repositories.organisations,
    events: events.repositories.events,
    users: identity.repositories.users,
    mail: messaging.services.mail,
    sender: new WebhookSender({
      allowPrivate: config.webhooksAllowPrivate,
      ...(webhookResolve ? { resolve: webhookResolve } : {}),
    }),
    secrets,
    jobs,
    clock,
    logger: logger.child({ component: 'webhooks-out' }),
  });
  registerWebhookOutListeners(bus, {
    webhooks: webhookOutService,
    events: events.repositories.events,
  });
  const integrityRows = new IntegrityRepository(database);
  const integrity = new IntegrityService({ rows: integrityRows, storage, jobs, clock, metrics });
  const backupRuns = new BackupRunsRepository(database.db);
  const backups = createBackupService({
    config,
    database,
    storage,
    clock,
    runs: backupRuns,
    live: {
      enterMaintenance: (own, timeoutMs) => core.maintenance.enter(own, timeoutMs),
      leaveMaintenance: () => core.maintenance.leave(),
      inFlight: () => core.operations.inFlight(),
      restoreDatabase: (input) => restoreIntoRunning(database, input),
    },
  });
  const insightRows = new InsightRepository(database);
  const insight = new InsightService({
    access: events.access,
    rows: insightRows,
    events: events.repositories.events,
    organisations: identity.repositories.organisations,
    clock,
  });
  return {
    repositories: { webhookOut, integrity: integrityRows, backupRuns, insight: insightRows },
    services: { webhookOut: webhookOutService, integrity, backups, insight },
  };
};
export type Operations = ReturnType<typeof wireOperations>;
