import { and, desc, eq } from 'drizzle-orm';
import type { BackupSchedule } from '@flashbulb/shared';
import type { Db } from '../../db/database.ts';
import { backupRuns, operationsSettings } from '../../db/schema.ts';

export type BackupRunRow = typeof backupRuns.$inferSelect;
export type NewBackupRun = typeof backupRuns.$inferInsert;

/** The row of the install's operations settings (there is one). */
const SETTINGS_ID = 1;

/** The backup schedule, its retention and the record of each backup the server made. */
export class BackupRunsRepository {
  constructor(private readonly db: Db) {}

  async settings(): Promise<{
    schedule: BackupSchedule;
    keep: number;
    updatedAt: Date;
  } | null> {
    const [row] = await this.db
      .select()
      .from(operationsSettings)
      .where(eq(operationsSettings.id, SETTINGS_ID));
    return row
      ? { schedule: row.backupSchedule, keep: row.backupKeep, updatedAt: row.updatedAt }
      : null;
  }

  async saveSettings(schedule: BackupSchedule, keep: number, now: Date): Promise<void> {
    await this.db
      .insert(operationsSettings)
      .values({ id: SETTINGS_ID, backupSchedule: schedule, backupKeep: keep, updatedAt: now })
      .onConflictDoUpdate({
        target: operationsSettings.id,
        set: { backupSchedule: schedule, backupKeep: keep, updatedAt: now },
      });
  }

  async record(run: NewBackupRun): Promise<void> {
    await this.db.insert(backupRuns).values(run);
  }

  /** The newest run (any trigger), or of one trigger. */
  async last(trigger?: 'schedule' | 'manual'): Promise<BackupRunRow | null> {
    const [row] = await this.db
      .select()
      .from(backupRuns)
      .where(trigger ? and(eq(backupRuns.trigger, trigger)) : undefined)
      .orderBy(desc(backupRuns.startedAt), desc(backupRuns.id))
      .limit(1);
    return row ?? null;
  }
}
