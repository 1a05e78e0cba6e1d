import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** `attendee_reminder` notifications for albums that expire within a day. */
export const notificationsRemindJob = defineJob({
  name: 'notifications.remind',
  summary: 'Remind attendees whose album expires within a day (attendee_reminder topic)',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '23 * * * *',
  run: (_payload, deps) => deps.notifications.sendReminders(deps.clock.now()),
});
