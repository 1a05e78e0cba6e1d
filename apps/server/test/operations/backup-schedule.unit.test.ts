import { describe, expect, it } from 'vitest';
import {
  backupDue,
  nextBackupAt,
  scheduleSince,
} from '../../src/services/operations/backup-schedule.ts';

const at = (iso: string) => new Date(iso);

describe('when the next scheduled backup is due', () => {
  it('never when the schedule is off', () => {
    expect(nextBackupAt({ kind: 'off' }, at('2026-11-27T10:00:00Z'))).toBeNull();
    expect(backupDue({ kind: 'off' }, at('2020-01-01T00:00:00Z'), at('2026-11-27T10:00:00Z'))).toBe(
      false,
    );
  });

  it('daily: the next HH:MM (UTC) after the last one, today or tomorrow', () => {
    const daily = { kind: 'daily', at: '03:30' } as const;
    expect(nextBackupAt(daily, at('2026-11-27T01:00:00Z'))?.toISOString()).toBe(
      '2026-11-27T03:30:00.000Z',
    );
    expect(nextBackupAt(daily, at('2026-11-27T03:30:00Z'))?.toISOString()).toBe(
      '2026-11-28T03:30:00.000Z',
    );
    expect(backupDue(daily, at('2026-11-27T03:30:00Z'), at('2026-11-28T03:29:59Z'))).toBe(false);
    expect(backupDue(daily, at('2026-11-27T03:30:00Z'), at('2026-11-28T03:31:00Z'))).toBe(true);
  });

  it('every N hours: N hours after the last one', () => {
    const hours = { kind: 'hours', every: 6 } as const;
    expect(nextBackupAt(hours, at('2026-11-27T10:00:00Z'))?.toISOString()).toBe(
      '2026-11-27T16:00:00.000Z',
    );
    expect(backupDue(hours, at('2026-11-27T10:00:00Z'), at('2026-11-27T16:00:00Z'))).toBe(true);
  });

  it('counts from the saving of the schedule until a scheduled backup ran after it', () => {
    const saved = at('2026-11-27T10:00:00Z');
    expect(scheduleSince(null, saved)).toBe(saved);
    expect(scheduleSince(at('2026-11-26T03:30:00Z'), saved)).toBe(saved);
    const later = at('2026-11-28T03:30:00Z');
    expect(scheduleSince(later, saved)).toBe(later);
  });
});
