import { createHash } from 'node:crypto';
import type {
  Endpoints,
  IntegrityAction,
  IntegrityProblem,
  IntegrityReport,
  IntegrityReportSummary,
  ParsedBodyOf,
} from '@flashbulb/shared';
import { isSuperUser } from '../../access/roles.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  IntegrityRepository,
  NamedObject,
} from '../../repositories/operations/integrity.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/**
 * Key spaces whose every object belongs to a row: an object there that no row names is untracked.
 * Elsewhere objects are named by settings (share/, stock-images/), are files the server writes
 * for browsers (data/), or are in flight (tmp/, profile-photos/tmp/, ready-check/, the selfie
 * probe): not judged.
 */
const OWNED_SPACES: readonly RegExp[] = [
  /^protected\/events\/[^/]+\/photos\//,
  /^events\/[^/]+\/photos\//,
  /^archive\//,
  /^selfies\/(?!probe\/)/,
  /^profile-photos\/(?!tmp\/)/,
  /^prints\//,
];
export const isOwnedSpace = (key: string): boolean => OWNED_SPACES.some((re) => re.test(key));

/** An original found outside its row: `…/uid_<uid>_uid/original.<ext>` (protected or archived). */
const ORIGINAL_FILE = /\/uid_([0-9a-f]+)_uid\/original\.[^/]+$/;

/** At most this many problems are listed (the counts are whole). */
const MAX_LISTED = 1000;
/** Reports kept (nightly and on demand): a month of nights. */
export const INTEGRITY_REPORTS_KEPT = 30;

export interface IntegrityMetrics {
  recordIntegrity(report: IntegrityReport): void;
}

export interface IntegrityDeps {
  rows: IntegrityRepository;
  storage: StorageRepository;
  jobs: JobSender;
  clock: Clock;
  metrics?: IntegrityMetrics;
}

/**
 * The storage integrity check (docs/deploy.md "Integrity"): what rows name against what storage
 * holds. Missing: named, not stored. Untracked: stored in a space rows own, named by none.
 * Checksum mismatch: an original whose bytes no longer hash to the SHA-256 recorded at ingest.
 * Runs nightly (job `integrity.check`), from the CLI and as an owner call (super users).
 */
export class IntegrityService {
  constructor(private readonly deps: IntegrityDeps) {}

  /** Runs the check; `record` keeps its report (the nightly job, the owner call). */
  async check(record?: 'schedule' | 'manual'): Promise<IntegrityReport> {
    const { storage, clock } = this.deps;
    const started = clock.now();
    const named = new Map<string, NamedObject[]>();
    for (const row of await this.deps.rows.namedObjects()) {
      const list = named.get(row.key);
      if (list) list.push(row);
      else named.set(row.key, [row]);
    }
    const seen = new Set<string>();
    const problems: IntegrityProblem[] = [];
    const missingOriginals = new Set<string>();
    let objectsInStorage = 0;
    let verified = 0;
    let untracked = 0;
    let mismatched = 0;
    const untrackedList: IntegrityProblem[] = [];
    const mismatchList: IntegrityProblem[] = [];
    for await (const listed of storage.list('')) {
      objectsInStorage += 1;
      const namers = named.get(listed.key);
      if (!namers) {
        if (!isOwnedSpace(listed.key)) continue;
        untracked += 1;
        untrackedList.push({
          problem: 'untracked',
          key: listed.key,
          owner: null,
          owner_id: null,
          event_id: null,
          size: listed.size,
          actions: [],
        });
        continue;
      }
      const expected = namers.find((n) => n.sha256 !== null);
      if (!expected) {
        seen.add(listed.key);
        continue;
      }
      const found = await this.hashOf(listed.key);
      if (found === null) continue; // deleted while the check ran: counted missing below
      seen.add(listed.key);
      verified += 1;
      if (found.sha256 !== expected.sha256) {
        mismatched += 1;
        mismatchList.push({
          problem: 'checksum_mismatch',
          key: listed.key,
          owner: expected.owner,
          owner_id: expected.ownerId,
          event_id: expected.eventId,
          size: found.bytes,
          actions: [],
        });
      }
    }
    let missing = 0;
    for (const [key, namers] of named) {
      if (seen.has(key)) continue;
      missing += 1;
      const first = namers[0]!;
      if (first.owner === 'photos.original') missingOriginals.add(String(first.ownerId));
      problems.push({
        problem: 'missing',
        key,
        owner: first.owner,
        owner_id: first.ownerId,
        event_id: first.eventId,
        size: null,
        actions: first.owner.startsWith('photos.derivative:') ? ['re-derive'] : [],
      });
    }
    for (const item of untrackedList) {
      const original = ORIGINAL_FILE.exec(item.key);
      item.actions = ['delete'];
      if (original) {
        const photo = await this.deps.rows.photoByUid(original[1]!);
        if (photo && missingOriginals.has(String(photo.id))) item.actions = ['re-attach', 'delete'];
      }
    }
    problems.push(...untrackedList, ...mismatchList);
    const report: IntegrityReport = {
      checked_date: started.toISOString(),
      duration_ms: Math.max(0, clock.now().getTime() - started.getTime()),
      objects_in_storage: objectsInStorage,
      objects_named: named.size,
      checksums_verified: verified,
      missing,
      untracked,
      checksum_mismatch: mismatched,
      problems: problems.slice(0, MAX_LISTED),
    };
    if (record) await this.deps.rows.saveReport(record, report, INTEGRITY_REPORTS_KEPT);
    this.deps.metrics?.recordIntegrity(report);
    return report;
  }

  /** The owner call: super users only (the check sees every organisation's objects). */
  async checkFor(actor: SignedInUser | null): Promise<IntegrityReport> {
    this.requireOperator(actor);
    return this.check('manual');
  }

  /** The kept reports (newest first) and the newest in full: the console's integrity page. */
  async reportsFor(actor: SignedInUser | null): Promise<{
    reports: IntegrityReportSummary[];
    latest: IntegrityReport | null;
  }> {
    this.requireOperator(actor);
    return {
      reports: await this.deps.rows.reportSummaries(),
      latest: await this.deps.rows.latestReport(),
    };
  }

  /**
   * One action on one key, judged on the key's state now (not on an old report): re-derive a
   * photo whose derivative is missing, re-attach an untracked original to its photo whose
   * original is missing (same SHA-256 only), delete an untracked object.
   */
  async repair(
    actor: SignedInUser | null,
    input: ParsedBodyOf<Endpoints['integrityRepair']>,
  ): Promise<{ done: true }> {
    this.requireOperator(actor);
    const { storage, rows } = this.deps;
    const key = input.key;
    const namers = await rows.namersOf(key);
    const stored = await storage.head(key).catch(() => null);
    const action: IntegrityAction = input.action;
    if (action === 're-derive') {
      const derivative = namers.find((n) => n.owner.startsWith('photos.derivative:'));
      if (!derivative || stored) throw new AppError('integrity_action_unavailable', 'action');
      // The owner's reprocess, for this photo: its derivatives job skips a photo that is ready.
      await rows.markProcessing(derivative.ownerId);
      await this.deps.jobs.send('photo.derivatives', { photoId: derivative.ownerId });
      return { done: true };
    }
    if (namers.length > 0 || !stored || !isOwnedSpace(key))
      throw new AppError('integrity_object_unknown', 'key');
    if (action === 'delete') {
      await storage.delete(key);
      return { done: true };
    }
    const original = ORIGINAL_FILE.exec(key);
    const photo = original ? await rows.photoByUid(original[1]!) : null;
    if (!photo || (await storage.head(photo.storageKey)))
      throw new AppError('integrity_action_unavailable', 'action');
    const hashed = await this.hashOf(key);
    if (!hashed || hashed.sha256 !== photo.sha256)
      throw new AppError('integrity_action_unavailable', 'action');
    if (!(await rows.reattachOriginal(photo.id, photo.storageKey, key)))
      throw new AppError('integrity_action_unavailable', 'action');
    return { done: true };
  }

  private requireOperator(actor: SignedInUser | null): void {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
  }

  /** The object's SHA-256, streamed (never read whole), or null when it is gone. */
  private async hashOf(key: string): Promise<{ sha256: string; bytes: number } | null> {
    const object = await this.deps.storage.get(key);
    if (!object) return null;
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of object.body) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), bytes };
  }
}
