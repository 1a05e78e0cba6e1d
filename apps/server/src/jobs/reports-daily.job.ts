import type { Clock } from '../lib/clock.ts';
import { reportsDaily } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type ReportsDailyDeps = {
  eventMail?: { sendDailyReports(now: Date): Promise<unknown> };
  clock: Clock;
};

export const reportsDailyJob = defineJob(reportsDaily, async (_payload, deps: ReportsDailyDeps) => {
  await deps.eventMail?.sendDailyReports(deps.clock.now());
});
