/**
 * The printers capability (interface only; the printing issue implements it). Adapters:
 * `<provider>.adapter.ts` next to this file — the embedded default `file.adapter.ts` writes
 * print-ready files into the data directory; at scale `cups.adapter.ts` reaches CUPS queues (IPP /
 * `lp`) through the print agent — chosen by configuration in repositories/providers.ts.
 *
 * Rules every adapter keeps:
 * - `submit` is idempotent by our print job id: submitting the same job twice prints it once.
 * - A print job runs as a pg-boss job (never inline in a request); its end raises the
 *   `print.finished` domain event.
 * - Failures are ProviderErrors: `permanent` for a refused job (unknown printer, bad media),
 *   `retryable` for an offline printer or agent.
 * - Credentials (an agent's token) come from configuration and are never logged.
 */

export interface PrinterInfo {
  /** The adapter's id for the printer (a CUPS queue name, a folder). */
  id: string;
  name: string;
  /** The print pool it serves (albums spec: `printer_pool_name`). */
  pool: string;
  online: boolean;
  /** Media it takes (`4x6`, `5x7`, `A4` …). */
  media: readonly string[];
}

export interface PrintJobRequest {
  /** Our print job id: the idempotency key. */
  printJobId: string;
  /** A printer id, or a pool for the adapter to choose a printer in. */
  target: { printerId: string } | { pool: string };
  /** The print-ready image (template applied), as an object storage key. */
  fileKey: string;
  copies: number;
  media: string;
}

export type PrintJobStatus =
  | { state: 'queued' }
  | { state: 'printing' }
  | { state: 'printed'; printedAt: Date }
  | { state: 'failed'; reason: string }
  | { state: 'cancelled' };

export interface PrintersProvider {
  readonly name: string;
  listPrinters(): Promise<PrinterInfo[]>;
  /** Hands the job to a printer; answers the provider's id for it. */
  submit(job: PrintJobRequest): Promise<{ providerJobId: string; printerId: string }>;
  status(providerJobId: string): Promise<PrintJobStatus>;
  cancel(providerJobId: string): Promise<void>;
}
