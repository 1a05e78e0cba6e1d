import type {
  BackupRun,
  BackupSchedule,
  BackupScheduleState,
  BackupSummary,
} from '@flashbulb/shared';
import { isSuperUser } from '../../access/roles.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  BackupRunRow,
  BackupRunsRepository,
} from '../../repositories/operations/backup-runs.repository.ts';
import type { BackupArchive, BackupResult, LiveRestore } from './backup-archive.ts';
import type { BackupRestorer } from './backup-restore.ts';
import { backupDue, nextBackupAt, scheduleSince } from './backup-schedule.ts';

/** Until a super user sets one: no scheduled backup, retention of seven. */
const DEFAULT_SCHEDULE: BackupSchedule = { kind: 'off' };
const DEFAULT_KEEP = 7;

const runOf = (row: BackupRunRow): BackupRun => ({
  trigger: row.trigger,
  started_date: row.startedAt.toISOString(),
  duration_ms: row.durationMs,
  bytes: row.bytes,
  path: row.path,
  result: row.result,
  error: row.error,
});

/** A failed run's record names the error key, never a message (paths, provider text). */
const errorKeyOf = (error: unknown): string => (error instanceof AppError ? error.key : 'internal');

/** Only super users: a backup holds every organisation. */
const requireSuperUser = (actor: SignedInUser | null): void => {
  if (!actor) throw new AppError('unauthorized_user');
  if (!isSuperUser(actor)) throw new AppError('forbidden');
};

export interface BackupServiceDeps {
  archive: BackupArchive;
  restorer: BackupRestorer;
  clock: Clock;
  /** Where the owner call writes (`<data dir>/backups`): never a folder a caller names. */
  serverFolder: string;
  /** The schedule and the record of runs. */
  runs: BackupRunsRepository;
  /** The running server a backup can be restored into. */
  live: LiveRestore;
}

/**
 * The server's backups (docs/deploy.md "Backups"; ADR 0011): the owner calls of super users, the
 * schedule and its job, the record of runs, one backup or restore at a time in this process.
 * What a backup holds is `backup-archive.ts`'s; how one is restored, `backup-restore.ts`'s (the
 * CLI calls those two directly, with the server stopped or on PostgreSQL).
 */
export class BackupService {
  private running = false;
  constructor(private readonly deps: BackupServiceDeps) {}

  /** The owner call: super users (a backup holds every organisation); one at a time. */
  async createFor(
    actor: SignedInUser | null,
    input: { keep?: number | undefined },
  ): Promise<BackupResult & { created_date: string; removed: string[] }> {
    requireSuperUser(actor);
    return this.runRecorded('manual', input.keep);
  }

  /**
   * One backup into the server's folder, then retention, recorded (time, size, duration,
   * result) for the console. One at a time in this process (`backup_running`).
   */
  private async runRecorded(
    trigger: 'schedule' | 'manual',
    keep: number | undefined,
  ): Promise<BackupResult & { created_date: string; removed: string[] }> {
    if (this.running) throw new AppError('backup_running');
    this.running = true;
    const { archive, clock, runs, serverFolder } = this.deps;
    const startedAt = clock.now();
    try {
      const result = await archive.create(serverFolder);
      const removed = keep !== undefined ? await archive.prune(serverFolder, keep) : [];
      await runs.record({
        trigger,
        startedAt,
        durationMs: result.duration_ms,
        bytes: result.bytes,
        path: result.path,
        result: 'ok',
        removed: removed.length,
      });
      return { ...result, created_date: result.created_at, removed };
    } catch (error) {
      await runs
        .record({
          trigger,
          startedAt,
          durationMs: Math.max(0, clock.now().getTime() - startedAt.getTime()),
          result: 'failed',
          error: errorKeyOf(error),
        })
        .catch(() => undefined);
      throw error;
    } finally {
      this.running = false;
    }
  }

  /** The console's schedule panel: the schedule, retention, last backup and next run. */
  async scheduleFor(actor: SignedInUser | null): Promise<BackupScheduleState> {
    requireSuperUser(actor);
    return this.scheduleState();
  }

  /** Super users set when the server backs itself up and how many backups it keeps. */
  async setScheduleFor(
    actor: SignedInUser | null,
    input: { schedule: BackupSchedule; keep: number },
  ): Promise<BackupScheduleState> {
    requireSuperUser(actor);
    await this.deps.runs.saveSettings(input.schedule, input.keep, this.deps.clock.now());
    return this.scheduleState();
  }

  /**
   * The job `backup.scheduled` (every five minutes): a backup when the schedule says one is due,
   * then retention keeps the newest `keep`. Answers whether it ran.
   */
  async runScheduled(): Promise<{ ran: boolean }> {
    const { runs } = this.deps;
    const settings = await runs.settings();
    if (!settings) return { ran: false };
    const lastScheduled = await runs.last('schedule');
    const since = scheduleSince(lastScheduled?.startedAt ?? null, settings.updatedAt);
    if (!backupDue(settings.schedule, since, this.deps.clock.now())) return { ran: false };
    await this.runRecorded('schedule', settings.keep);
    return { ran: true };
  }

  private async scheduleState(): Promise<BackupScheduleState> {
    const { runs } = this.deps;
    const settings = await runs.settings();
    const schedule = settings?.schedule ?? DEFAULT_SCHEDULE;
    const last = await runs.last();
    const lastScheduled = await runs.last('schedule');
    const next = settings
      ? nextBackupAt(schedule, scheduleSince(lastScheduled?.startedAt ?? null, settings.updatedAt))
      : null;
    return {
      schedule,
      keep: settings?.keep ?? DEFAULT_KEEP,
      last_run: last ? runOf(last) : null,
      next_run_date: next ? next.toISOString() : null,
    };
  }

  /**
   * The owner call `backupRestore`: one of the server's own backups (a folder `backupList`
   * names) restored into the running server (ADR 0011 "Restore into the running server").
   */
  async restoreFor(
    actor: SignedInUser | null,
    input: { path: string },
  ): Promise<{ objects: number; rows: number; duration_ms: number }> {
    requireSuperUser(actor);
    const from = await this.deps.restorer.serverBackup(input.path);
    if (this.running) throw new AppError('backup_running');
    this.running = true;
    try {
      return await this.deps.restorer.restoreLive(this.deps.live, from);
    } finally {
      this.running = false;
    }
  }

  /** The owner call: the complete backups in the server's folder, newest first (at most 50). */
  async listFor(actor: SignedInUser | null): Promise<{ folder: string; backups: BackupSummary[] }> {
    requireSuperUser(actor);
    return { folder: this.deps.serverFolder, backups: await this.deps.archive.list() };
  }
}
