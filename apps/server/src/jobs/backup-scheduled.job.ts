import { backupScheduled } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type BackupScheduledDeps = {
  backups: { runScheduled(): Promise<{ ran: boolean }> };
};

export const backupScheduledJob = defineJob(
  backupScheduled,
  async (_payload, deps: BackupScheduledDeps) => deps.backups.runScheduled(),
);
