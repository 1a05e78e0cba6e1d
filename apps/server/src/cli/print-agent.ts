import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The print agent: runs on the booth's computer, takes the sheets of its pool from the
 * server under a lease and prints them on local CUPS queues with `lp`, reading printer state with
 * `lpstat`. Why the CUPS commands and not IPP by hand: they are what an operator uses to check the
 * same queues, they speak IPP to the local scheduler already (CUPS_SERVER picks which one), and
 * they need no dependency. A printer that is stopped, offline or reports paper out / jam is
 * skipped and the sheet goes to another printer of the pool. A journal (one file per job in the
 * state directory) remembers the CUPS job of each sheet, so an agent killed after CUPS took the
 * sheet does not print it again when the lease comes back to it.
 */

const run = promisify(execFile);

export interface PrinterStatus {
  name: string;
  state: 'idle' | 'processing' | 'stopped' | 'offline';
  reasons: string[];
}

/** Reasons that make a printer unusable (IPP printer-state-reasons, CUPS alerts). */
const TROUBLE = ['media-empty', 'media-jam', 'media-needed', 'offline', 'paused', 'door-open'];

const cupsEnv = (cupsServer?: string) =>
  cupsServer ? { ...process.env, CUPS_SERVER: cupsServer } : process.env;

/** `lpstat -p <queue> -l`: state and alerts (printer-state-reasons) of one queue. */
export const printerStatus = async (name: string, cupsServer?: string): Promise<PrinterStatus> => {
  try {
    const { stdout } = await run('lpstat', ['-p', name, '-l'], { env: cupsEnv(cupsServer) });
    const first = stdout.split('\n')[0] ?? '';
    const alerts = /Alerts:\s*(.*)/.exec(stdout)?.[1]?.trim() ?? '';
    const reasons = alerts && alerts !== 'none' ? alerts.split(/\s+/) : [];
    const state = /disabled/.test(first)
      ? 'stopped'
      : /now printing/.test(first)
        ? 'processing'
        : 'idle';
    return { name, state, reasons };
  } catch {
    return { name, state: 'offline', reasons: ['offline'] };
  }
};

export const usable = (p: PrinterStatus): boolean =>
  (p.state === 'idle' || p.state === 'processing') && !p.reasons.some((r) => TROUBLE.includes(r));

/**
 * Where the local CUPS scheduler answers IPP: `CUPS_SERVER` (host[:port] or a socket path) as the
 * CUPS commands read it, else Debian's domain socket, else localhost:631.
 */
const ippTarget = (
  cupsServer?: string,
): { socketPath: string } | { host: string; port: number } => {
  const server =
    cupsServer ??
    process.env.CUPS_SERVER ??
    (existsSync('/run/cups/cups.sock') ? '/run/cups/cups.sock' : 'localhost:631');
  if (server.startsWith('/')) return { socketPath: server };
  const [host, port] = server.split(':');
  return { host: host || 'localhost', port: Number(port) || 631 };
};

/** One IPP attribute: value tag, name, value (RFC 8010 §3.1.4). */
const ippAttribute = (tag: number, name: string, value: Buffer) => {
  const nameBytes = Buffer.from(name, 'utf8');
  const head = Buffer.alloc(3);
  head.writeUInt8(tag, 0);
  head.writeUInt16BE(nameBytes.length, 1);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(value.length, 0);
  return Buffer.concat([head, nameBytes, length, value]);
};

/** IPP `job-state` values (RFC 8011 §5.3.7). */
export type CupsJobState =
  'pending' | 'held' | 'processing' | 'stopped' | 'canceled' | 'aborted' | 'completed' | 'unknown';
const JOB_STATES: Record<number, CupsJobState> = {
  3: 'pending',
  4: 'held',
  5: 'processing',
  6: 'stopped',
  7: 'canceled',
  8: 'aborted',
  9: 'completed',
};

/**
 * The state CUPS reports for one of its jobs: an IPP Get-Job-Attributes request asking only for
 * `job-state`. `lpstat -W completed` lists cancelled and aborted jobs with the completed ones, so
 * it cannot tell a printed sheet from one an operator cancelled by hand in CUPS.
 */
export const cupsJobState = async (cupsJob: string, cupsServer?: string): Promise<CupsJobState> => {
  const jobId = Number(/(\d+)$/.exec(cupsJob)?.[1]);
  if (!Number.isInteger(jobId)) throw new Error(`not a CUPS job id: ${cupsJob}`);
  const id = Buffer.alloc(4);
  id.writeInt32BE(jobId, 0);
  const header = Buffer.alloc(8);
  header.writeUInt8(2, 0); // IPP 2.0
  header.writeUInt8(0, 1);
  header.writeUInt16BE(0x0009, 2); // Get-Job-Attributes
  header.writeInt32BE(1, 4); // request-id
  const body = Buffer.concat([
    header,
    Buffer.from([0x01]), // operation-attributes-tag
    ippAttribute(0x47, 'attributes-charset', Buffer.from('utf-8')),
    ippAttribute(0x48, 'attributes-natural-language', Buffer.from('en')),
    ippAttribute(0x45, 'printer-uri', Buffer.from('ipp://localhost/')),
    ippAttribute(0x21, 'job-id', id),
    ippAttribute(0x42, 'requesting-user-name', Buffer.from('flashbulb')),
    ippAttribute(0x44, 'requested-attributes', Buffer.from('job-state')),
    Buffer.from([0x03]), // end-of-attributes-tag
  ]);
  const answer = await new Promise<Buffer>((resolve, reject) => {
    const req = request(
      {
        ...ippTarget(cupsServer),
        method: 'POST',
        path: '/jobs/',
        headers: { 'content-type': 'application/ipp', 'content-length': body.length },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`CUPS answered HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('CUPS did not answer')));
    req.on('error', reject);
    req.end(body);
  });
  const status = answer.readUInt16BE(2);
  // client-error-not-found: CUPS no longer keeps the job (its history was purged).
  if (status === 0x0406) return 'unknown';
  if (status >= 0x0100) throw new Error(`CUPS answered IPP status 0x${status.toString(16)}`);
  // Walk the attribute groups for job-state (an enum, tag 0x23, four bytes).
  let at = 8;
  while (at < answer.length) {
    const tag = answer.readUInt8(at);
    at += 1;
    if (tag === 0x03) break;
    if (tag < 0x10) continue; // a group delimiter
    const nameLength = answer.readUInt16BE(at);
    const name = answer.toString('utf8', at + 2, at + 2 + nameLength);
    at += 2 + nameLength;
    const valueLength = answer.readUInt16BE(at);
    at += 2;
    if (name === 'job-state' && tag === 0x23 && valueLength === 4)
      return JOB_STATES[answer.readInt32BE(at)] ?? 'unknown';
    at += valueLength;
  }
  return 'unknown';
};

type Post = (path: string, body: Record<string, unknown>) => Promise<unknown>;

interface Lease {
  printer_pool_name: string;
  job: {
    id: number;
    lease_token: string;
    copies: number;
    sheet_base64: string;
    media: string;
  } | null;
}

/** An HTTP client of the public API (`{status, result}` envelopes). */
export const httpPost =
  (server: string): Post =>
  async (route, body) => {
    const response = await fetch(new URL(`/api/v1${route}`, server), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as {
      status: string;
      result?: unknown;
      error?: unknown;
    };
    if (envelope.status !== 'ok') throw new Error(`${route}: ${JSON.stringify(envelope.error)}`);
    return envelope.result;
  };

export interface AgentOptions {
  post: Post;
  key: string;
  printers: string[];
  stateDir: string;
  cupsServer?: string;
  /** How long to wait for CUPS to finish a sheet before handing it back. */
  printTimeoutMs?: number;
  /** While CUPS works on a sheet: how often the printers are checked (default 1 s). */
  statusEveryMs?: number;
  /** While CUPS works on a sheet: how often the lease is renewed (default 20 s; lease 60 s). */
  renewEveryMs?: number;
  /** Test seam: runs just before `lp` hands the sheet to `printer`. */
  beforeSubmit?: (jobId: number, printer: string) => Promise<void>;
  /** Test seam: runs after CUPS took the sheet and the journal has it, before the report. */
  afterSubmit?: (jobId: number) => Promise<void>;
}

export type AgentOutcome =
  | { kind: 'idle' }
  | { kind: 'printed'; jobId: number; printer: string; cupsJob: string; resubmitted: boolean }
  | { kind: 'handed_back'; jobId: number; reason: string }
  | { kind: 'not_printed'; jobId: number; printer: string; cupsState: 'canceled' | 'aborted' };

const journalPath = (dir: string, jobId: number) => path.join(dir, `job-${jobId}.json`);

/** What a printer's trouble looks like on the desk: "booth1: stopped, media-empty". */
const troubleNote = (p: PrinterStatus) => `${p.name}: ${[p.state, ...p.reasons].join(', ')}`;

type Wait =
  | { kind: 'completed' }
  | { kind: 'cancelled'; state: 'canceled' | 'aborted' }
  | { kind: 'timeout' }
  | { kind: 'lease_lost' }
  | { kind: 'trouble'; note: string };

/**
 * Waits for CUPS to finish the sheet, polling the job's IPP `job-state` and the printers. A job
 * CUPS reports canceled (7, e.g. cancelled by hand) or aborted (8) is not a printed sheet.
 * Meanwhile the lease is renewed (a long print or a printer out of paper is not mistaken for a
 * dead agent), with the printers' state and a note of the printer's trouble for the desk. A
 * printer in trouble while another of the pool is usable: `trouble` (the sheet fails over).
 */
const waitCompleted = async (
  queue: string,
  cupsJob: string,
  options: AgentOptions,
  renew?: (printers: PrinterStatus[], note: string | null) => Promise<boolean>,
): Promise<Wait> => {
  const deadline = Date.now() + (options.printTimeoutMs ?? 60_000);
  const statusEvery = options.statusEveryMs ?? 1000;
  const renewEvery = options.renewEveryMs ?? 20_000;
  let checked = Date.now();
  let renewed = Date.now();
  let lastNote: string | null = null;
  for (;;) {
    const state = await cupsJobState(cupsJob, options.cupsServer);
    if (state === 'completed') return { kind: 'completed' };
    if (state === 'canceled' || state === 'aborted') return { kind: 'cancelled', state };
    if (Date.now() > deadline) return { kind: 'timeout' };
    if (renew && Date.now() - checked >= statusEvery) {
      checked = Date.now();
      const statuses = await Promise.all(
        options.printers.map((p) => printerStatus(p, options.cupsServer)),
      );
      const mine = statuses.find((p) => p.name === queue);
      const note = mine && !usable(mine) ? troubleNote(mine) : null;
      if (note && statuses.some((p) => p.name !== queue && usable(p)))
        return { kind: 'trouble', note };
      if (note !== lastNote || Date.now() - renewed >= renewEvery) {
        if (!(await renew(statuses, note))) return { kind: 'lease_lost' };
        renewed = Date.now();
        lastNote = note;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** One round: report the printers, lease a sheet, print it (or hand it back), report. */
export const runAgentOnce = async (options: AgentOptions): Promise<AgentOutcome> => {
  const statuses = await Promise.all(
    options.printers.map((p) => printerStatus(p, options.cupsServer)),
  );
  const lease = (await options.post('/print-agent/lease', {
    station_key: options.key,
    printers: statuses,
  })) as Lease;
  const job = lease.job;
  if (!job) return { kind: 'idle' };
  const report = (
    state: 'printed' | 'sent' | 'failed' | 'cancelled',
    printer: string | null,
    error: string | null,
  ) =>
    options.post('/print-agent/report', {
      station_key: options.key,
      job_id: job.id,
      lease_token: job.lease_token,
      state,
      printer,
      error,
    });

  /** Renews the lease; false only when the server says the lease is no longer this agent's. */
  const renewFor =
    (queue: string) =>
    (printers: PrinterStatus[], note: string | null): Promise<boolean> =>
      options
        .post('/print-agent/report', {
          station_key: options.key,
          job_id: job.id,
          lease_token: job.lease_token,
          state: 'printing',
          printer: queue,
          error: note,
          printers,
        })
        .then(
          () => true,
          // A network blip is not a lost lease: only the server's "not found" is.
          (error: unknown) => !/not_found/.test(String(error)),
        );

  /**
   * CUPS ended the sheet without printing it: cancelled by hand (IPP job-state 7) is reported
   * `cancelled` — the operator meant it, so it is not printed elsewhere — and aborted (8) `failed`
   * with the reason; the print desk can reprint either.
   */
  const notPrinted = async (
    queue: string,
    cupsState: 'canceled' | 'aborted',
  ): Promise<AgentOutcome> => {
    await report(
      cupsState === 'canceled' ? 'cancelled' : 'failed',
      queue,
      cupsState === 'canceled'
        ? `cancelled in CUPS on ${queue}`
        : `CUPS aborted the job on ${queue}`,
    );
    await rm(journalPath(options.stateDir, job.id), { force: true });
    return { kind: 'not_printed', jobId: job.id, printer: queue, cupsState };
  };

  await mkdir(options.stateDir, { recursive: true });
  // Killed after CUPS took this sheet? Then only wait for it and report: never print it twice.
  const journal = await readFile(journalPath(options.stateDir, job.id), 'utf8')
    .then((text) => JSON.parse(text) as { queue: string; cupsJob: string })
    .catch(() => null);
  if (journal) {
    const waited = await waitCompleted(
      journal.queue,
      journal.cupsJob,
      { ...options, printers: [journal.queue] },
      renewFor(journal.queue),
    );
    if (waited.kind === 'completed') {
      await report('printed', journal.queue, null);
      await rm(journalPath(options.stateDir, job.id), { force: true });
      return {
        kind: 'printed',
        jobId: job.id,
        printer: journal.queue,
        cupsJob: journal.cupsJob,
        resubmitted: false,
      };
    }
    if (waited.kind === 'cancelled') return notPrinted(journal.queue, waited.state);
  }

  const printer = statuses.find(usable);
  if (!printer) {
    await report('sent', null, 'no usable printer');
    return { kind: 'handed_back', jobId: job.id, reason: 'no usable printer' };
  }
  const sheetPath = path.join(options.stateDir, `job-${job.id}.jpg`);
  await writeFile(sheetPath, Buffer.from(job.sheet_base64, 'base64'));
  await options.beforeSubmit?.(job.id, printer.name);
  const { stdout } = await run(
    'lp',
    [
      '-d',
      printer.name,
      '-n',
      String(job.copies),
      '-t',
      `flashbulb-job-${job.id}`,
      '-o',
      `media=${job.media}`,
      '-o',
      'fit-to-page',
      sheetPath,
    ],
    { env: cupsEnv(options.cupsServer) },
  );
  const cupsJob = /request id is (\S+)/.exec(stdout)?.[1];
  if (!cupsJob) throw new Error(`lp answered: ${stdout}`);
  await writeFile(
    journalPath(options.stateDir, job.id),
    JSON.stringify({ queue: printer.name, cupsJob }),
  );
  await options.afterSubmit?.(job.id);
  const waited = await waitCompleted(printer.name, cupsJob, options, renewFor(printer.name));
  if (waited.kind === 'cancelled') {
    await rm(sheetPath, { force: true });
    return notPrinted(printer.name, waited.state);
  }
  if (waited.kind !== 'completed') {
    // Not printed here: the CUPS job is cancelled, so the sheet can only print where it goes next.
    await run('cancel', [cupsJob], { env: cupsEnv(options.cupsServer) }).catch(() => undefined);
    await rm(journalPath(options.stateDir, job.id), { force: true });
    const reason =
      waited.kind === 'trouble'
        ? `printer trouble (${waited.note})`
        : waited.kind === 'lease_lost'
          ? 'lease lost'
          : 'printer did not finish';
    // A lost lease is another agent's sheet now: nothing to report.
    if (waited.kind !== 'lease_lost') await report('sent', printer.name, reason);
    return { kind: 'handed_back', jobId: job.id, reason };
  }
  await report('printed', printer.name, null);
  await rm(journalPath(options.stateDir, job.id), { force: true });
  await rm(sheetPath, { force: true });
  return { kind: 'printed', jobId: job.id, printer: printer.name, cupsJob, resubmitted: true };
};

/** `npm run cli -- print-agent`: rounds until stopped; waits a second when there is nothing. */
export const runPrintAgent = async (
  options: AgentOptions & { signal: AbortSignal; log: (line: string) => void },
) => {
  while (!options.signal.aborted) {
    try {
      const outcome = await runAgentOnce(options);
      if (outcome.kind !== 'idle') options.log(JSON.stringify(outcome));
      else await new Promise((r) => setTimeout(r, 1000));
    } catch (error) {
      options.log(`print agent: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
};
