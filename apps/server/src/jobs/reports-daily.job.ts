import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** The daily report to each event's `email_for_reports` (the previous UTC day's figures). */
export const reportsDailyJob = defineJob({
  name: 'reports.daily',
  summary: 'Mail the daily report (photos, attendees, sales, prints) to email_for_reports',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  schedule: '7 6 * * *',
  run: async (_payload, deps) => {
    await deps.eventMail?.sendDailyReports(deps.clock.now());
  },
});
