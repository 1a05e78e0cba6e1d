import { integrityCheck } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type IntegrityCheckDeps = {
  integrity: {
    check(
      record: 'schedule',
    ): Promise<{ missing: number; untracked: number; checksum_mismatch: number }>;
  };
  integrityLog: {
    warn(data: object, message: string): void;
    info(data: object, message: string): void;
  };
};

export const integrityCheckJob = defineJob(
  integrityCheck,
  async (_payload, deps: IntegrityCheckDeps) => {
    const report = await deps.integrity.check('schedule');
    const counts = {
      missing: report.missing,
      untracked: report.untracked,
      checksum_mismatch: report.checksum_mismatch,
    };
    if (counts.missing + counts.untracked + counts.checksum_mismatch > 0)
      deps.integrityLog.warn(counts, 'storage integrity check found problems');
    else deps.integrityLog.info(counts, 'storage integrity check found no problem');
  },
);
