import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EndpointName, Endpoints, ParsedBodyOf } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  PrintStationRepository,
  PrintStationRow,
} from '../../repositories/printing/print-station.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { eventPools } from './print-sheets.ts';

type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/** How long an agent holds a sheet before it goes back to the queue. */
export const PRINT_LEASE_SECONDS = 60;
const KEY_PREFIX = 'fbps_';

const hashKey = (key: string) => createHash('sha256').update(key.trim()).digest('hex');

const readAll = async (body: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

/**
 * Print stations and the print agent's calls: the owner creates a key per pool (shown
 * once, stored hashed) and revokes it; the agent leases sheets of its pool (a lease runs out
 * after 60 s, so a crashed agent's sheet goes back to the queue) and reports them printed,
 * failed, or handed back for another printer, with its printers' state.
 */
export class PrintStationService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      stations: PrintStationRepository;
      storage: StorageRepository;
      bus: SignalEmitter;
      clock: Clock;
    },
  ) {}

  async create(principal: Principal, input: Body<'printStationCreate'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    if (!eventPools(event).includes(input.printer_pool_name))
      throw new AppError('printer_pool_name_invalid', 'printer_pool_name');
    const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    const row = await this.deps.stations.insert({
      eventId: event.row.id,
      pool: input.printer_pool_name,
      name: input.name,
      keyHash: hashKey(key),
    });
    return { id: row.id, printer_pool_name: row.pool, key };
  }

  async list(principal: Principal, input: Body<'printStationList'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const rows = await this.deps.stations.forEvent(event.row.id);
    return {
      stations: rows.map((r) => ({
        id: r.id,
        name: r.name,
        printer_pool_name: r.pool,
        revoked: r.revokedAt ? (1 as const) : (0 as const),
        last_seen_date: r.lastSeenAt?.toISOString() ?? null,
        printers: r.printers,
      })),
    };
  }

  async revoke(principal: Principal, input: Body<'printStationRevoke'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    if (!(await this.deps.stations.revoke(event.row.id, input.id, this.deps.clock.now())))
      throw new AppError('not_found', 'id');
    return { id: input.id };
  }

  private async station(key: string): Promise<PrintStationRow> {
    const row = key.startsWith(KEY_PREFIX)
      ? await this.deps.stations.byKeyHash(hashKey(key))
      : undefined;
    if (!row) throw new AppError('invalid_key', 'station_key');
    return row;
  }

  async lease(input: Body<'printAgentLease'>) {
    const station = await this.station(input.station_key);
    const now = this.deps.clock.now();
    await this.deps.stations.seen(station.id, input.printers, now);
    const token = randomBytes(16).toString('hex');
    const job = await this.deps.stations.lease(
      station.eventId,
      station.pool,
      token,
      now,
      new Date(now.getTime() + PRINT_LEASE_SECONDS * 1000),
    );
    let sheet: Buffer | null = null;
    if (job?.sheetKey) {
      const object = await this.deps.storage.get(job.sheetKey);
      sheet = object ? await readAll(object.body) : null;
    }
    return {
      printer_pool_name: station.pool,
      lease_seconds: PRINT_LEASE_SECONDS,
      job:
        job && sheet
          ? {
              id: job.id,
              lease_token: token,
              copies: job.copies,
              sheet_base64: sheet.toString('base64'),
              media: '4x6',
            }
          : null,
    };
  }

  async report(input: Body<'printAgentReport'>) {
    const station = await this.station(input.station_key);
    const now = this.deps.clock.now();
    if (input.printers) await this.deps.stations.seen(station.id, input.printers, now);
    if (input.state === 'printing') {
      // Renewal while CUPS still works on the sheet (a long print, a printer out of paper).
      const renewed = await this.deps.stations.renew(
        input.job_id,
        input.lease_token,
        new Date(now.getTime() + PRINT_LEASE_SECONDS * 1000),
        { printer: input.printer, error: input.error },
        now,
      );
      if (!renewed || renewed.eventId !== station.eventId || renewed.pool !== station.pool)
        throw new AppError('not_found', 'job_id');
      return { id: renewed.id, state: renewed.state };
    }
    const row = await this.deps.stations.report(
      input.job_id,
      input.lease_token,
      input.state,
      {
        printer: input.printer,
        error: input.state === 'failed' || input.state === 'cancelled' ? input.error : null,
      },
      now,
    );
    if (!row || row.eventId !== station.eventId || row.pool !== station.pool)
      throw new AppError('not_found', 'job_id');
    if (row.state === 'printed')
      await this.deps.bus.emit('print.finished', { printJobId: row.id, eventId: row.eventId });
    return { id: row.id, state: row.state };
  }
}
