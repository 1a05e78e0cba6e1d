import type { IntegrityReport, IntegrityReportSummary } from '@flashbulb/shared';
import type { SqlRunner } from '../../db/database.ts';

/** A storage key named by a row, with the checksum recorded for it (originals only). */
export interface NamedObject {
  key: string;
  /** SHA-256 (hex) of the bytes, where the row records one. */
  sha256: string | null;
  /** The table and the role of the key in it: `photos.original`, `photos.derivative:thumbnail`… */
  owner: string;
  ownerId: number;
  eventId: number | null;
}

/**
 * Every column of the schema that names a stored object (db/schema.ts): a photo's original
 * (`storage_key`, its `sha256` recorded at ingest) and its derivatives (`derivatives` values), a
 * guest's selfie, an attendee's profile photo, a rendered print sheet.
 */
const NAMED_OBJECTS = `
  select storage_key as key, sha256, 'photos.original' as owner, id, event_id from photos
  union all
  select d.value, null, 'photos.derivative:' || d.key, p.id, p.event_id
    from photos p, jsonb_each_text(p.derivatives) d
  union all
  select storage_key, null, 'face_selfies', id, event_id from face_selfies
  union all
  select pp.storage_key, null, 'attendee_profile_photos', pp.id, null
    from attendee_profile_photos pp
  union all
  select sheet_key, null, 'print_jobs.sheet', id, event_id from print_jobs where sheet_key is not null`;

/** A row of NAMED_OBJECTS as the check reads it. */
const namedObject = (row: Record<string, unknown>): NamedObject => ({
  key: String(row.key),
  sha256: row.sha256 == null ? null : (row.sha256 as string),
  owner: String(row.owner),
  ownerId: Number(row.id),
  eventId: row.event_id == null ? null : Number(row.event_id),
});

/** The database side of the storage integrity check. */
export class IntegrityRepository {
  constructor(private readonly db: SqlRunner) {}

  async namedObjects(): Promise<NamedObject[]> {
    const { rows } = await this.db.executeSql(NAMED_OBJECTS, []);
    return rows.map(namedObject);
  }

  /** The rows naming one key (a repair re-checks the key's state, not a report's). */
  async namersOf(key: string): Promise<NamedObject[]> {
    const { rows } = await this.db.executeSql(
      `select * from (${NAMED_OBJECTS}) named where key = $1`,
      [key],
    );
    return rows.map(namedObject);
  }

  /** The photo with this uid: its id, recorded checksum and original's key. */
  async photoByUid(
    uid: string,
  ): Promise<{ id: number; sha256: string; storageKey: string } | null> {
    const { rows } = await this.db.executeSql(
      'select id, sha256, storage_key from photos where uid = $1',
      [uid],
    );
    const row = rows[0];
    return row
      ? { id: Number(row.id), sha256: String(row.sha256), storageKey: String(row.storage_key) }
      : null;
  }

  /** Sends a photo back to processing, as the owner's reprocess does (its job makes the files). */
  async markProcessing(photoId: number): Promise<void> {
    await this.db.executeSql(`update photos set status = 'processing' where id = $1`, [photoId]);
  }

  /** Points a photo at another copy of its original (only while it still names `fromKey`). */
  async reattachOriginal(photoId: number, fromKey: string, toKey: string): Promise<boolean> {
    const { rows } = await this.db.executeSql(
      'update photos set storage_key = $3 where id = $1 and storage_key = $2 returning id',
      [photoId, fromKey, toKey],
    );
    return rows.length === 1;
  }

  /** Keeps a check's report and removes all but the newest `keep`. */
  async saveReport(
    trigger: 'schedule' | 'manual',
    report: IntegrityReport,
    keep: number,
  ): Promise<void> {
    await this.db.executeSql(
      'insert into integrity_reports (trigger, checked_at, report) values ($1, $2, $3::jsonb)',
      [trigger, report.checked_date, JSON.stringify(report)],
    );
    await this.db.executeSql(
      `delete from integrity_reports where id not in
         (select id from integrity_reports order by checked_at desc, id desc limit $1)`,
      [keep],
    );
  }

  /** The kept reports' counts, newest first. */
  async reportSummaries(): Promise<IntegrityReportSummary[]> {
    const { rows } = await this.db.executeSql(
      `select id, trigger, report->>'checked_date' as checked_date,
              (report->>'missing')::int as missing, (report->>'untracked')::int as untracked,
              (report->>'checksum_mismatch')::int as checksum_mismatch
         from integrity_reports order by checked_at desc, id desc`,
      [],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      trigger: row.trigger === 'manual' ? 'manual' : 'schedule',
      checked_date: String(row.checked_date),
      missing: Number(row.missing),
      untracked: Number(row.untracked),
      checksum_mismatch: Number(row.checksum_mismatch),
    }));
  }

  /** The newest kept report in full, or null before the first check. */
  async latestReport(): Promise<IntegrityReport | null> {
    const { rows } = await this.db.executeSql(
      'select report from integrity_reports order by checked_at desc, id desc limit 1',
      [],
    );
    const report = rows[0]?.report;
    if (report === undefined || report === null) return null;
    return (typeof report === 'string' ? JSON.parse(report) : report) as IntegrityReport;
  }
}
