import type { BackupSchedule } from '@flashbulb/shared';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * When the next scheduled backup is due: the first slot after `since` (the last scheduled
 * backup's start, or when the schedule was saved, whichever is later). `daily`: the next HH:MM
 * (UTC) after it; `hours`: N hours after it. Null: the schedule is off. A slot already passed is
 * due now (the job that checks runs every few minutes).
 */
export const nextBackupAt = (schedule: BackupSchedule, since: Date): Date | null => {
  if (schedule.kind === 'off') return null;
  if (schedule.kind === 'hours') return new Date(since.getTime() + schedule.every * HOUR);
  const [hours, minutes] = schedule.at.split(':').map(Number) as [number, number];
  const day = new Date(since);
  day.setUTCHours(hours, minutes, 0, 0);
  return day.getTime() > since.getTime() ? day : new Date(day.getTime() + DAY);
};

/** Whether a scheduled backup is due at `now`. */
export const backupDue = (schedule: BackupSchedule, since: Date, now: Date): boolean => {
  const next = nextBackupAt(schedule, since);
  return next !== null && next.getTime() <= now.getTime();
};

/** The later of the last scheduled start and the schedule's saving: what the next slot follows. */
export const scheduleSince = (lastScheduledStart: Date | null, savedAt: Date): Date =>
  lastScheduledStart && lastScheduledStart.getTime() > savedAt.getTime()
    ? lastScheduledStart
    : savedAt;
