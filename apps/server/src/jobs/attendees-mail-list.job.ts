import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** The generated attendee list (CSV + QR card sheet) mailed to the generate call's address. */
export const attendeesMailListJob = defineJob({
  name: 'attendees.mail-list',
  summary:
    "Mail a generated attendee list (CSV and printable QR cards) to the generate call's e-mail",
  payload: z.object({
    batchId: z.number().int().positive(),
    email: z.string().min(3).max(320),
    eventIds: z.array(z.number().int().positive()).min(1).max(100),
  }),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  singletonKey: (payload) => `attendee-list:${payload.batchId}`,
  run: async (payload, deps) => {
    await deps.eventMail?.mailAttendeeList(payload);
  },
});
