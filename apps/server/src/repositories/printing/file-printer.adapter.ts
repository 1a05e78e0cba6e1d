import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where a rendered sheet goes: one adapter per printer kind. */
export interface PrinterAdapter {
  readonly kind: string;
  /** Prints `copies` of the sheet; idempotent per job (a retried job overwrites, never adds). */
  print(sheet: {
    jobId: number;
    pool: string;
    copies: number;
    bytes: Buffer;
  }): Promise<{ printer: string; output: string }>;
  /**
   * Removes every copy this adapter wrote for a job (`printer` and `output` as `print` answered
   * them); a job another printer kind printed is not this adapter's and is left alone.
   */
  discard(job: {
    jobId: number;
    printer: string | null;
    output: string | null;
    copies: number;
  }): Promise<void>;
}

/** Pool names are checked (`[A-Za-z0-9_-]{1,80}`) before they get here; this is the last guard. */
const safeSegment = (pool: string): string => {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(pool)) throw new Error('print pool name is not a safe folder');
  return pool;
};

/**
 * The embedded default printer: each printed sheet is a JPEG file in `<root>/<pool>/`
 * (`$FLASHBULB_DATA_DIR/prints/<pool>/`), so a fresh install prints without any set-up. Copies are
 * separate files `job-<id>-<copy>.jpg`, written whole (temp file, then rename).
 */
export class FilePrinterAdapter implements PrinterAdapter {
  readonly kind = 'file';

  constructor(private readonly root: string) {}

  async print(sheet: { jobId: number; pool: string; copies: number; bytes: Buffer }) {
    const dir = path.join(this.root, safeSegment(sheet.pool));
    await mkdir(dir, { recursive: true });
    for (let copy = 1; copy <= sheet.copies; copy++) {
      const target = path.join(dir, `job-${sheet.jobId}-${copy}.jpg`);
      const temp = `${target}.${process.pid}.part`;
      await writeFile(temp, sheet.bytes);
      await rename(temp, target);
    }
    return { printer: `file:${sheet.pool}`, output: dir };
  }

  async discard(job: {
    jobId: number;
    printer: string | null;
    output: string | null;
    copies: number;
  }) {
    if (!job.output || !job.printer?.startsWith('file:')) return;
    for (let copy = 1; copy <= job.copies; copy++)
      await rm(path.join(job.output, `job-${job.jobId}-${copy}.jpg`), { force: true });
  }
}
