import { attendeesCleanup } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type AttendeesCleanupDeps = { attendees: { deleteAbandonedBatches(): Promise<unknown> } };

export const attendeesCleanupJob = defineJob(
  attendeesCleanup,
  (_payload, deps: AttendeesCleanupDeps) => deps.attendees.deleteAbandonedBatches(),
);
