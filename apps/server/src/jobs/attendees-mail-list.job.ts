import { attendeesMailList, type JobData } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type AttendeesMailListDeps = {
  eventMail?: { mailAttendeeList(job: JobData<'attendees.mail-list'>): Promise<unknown> };
};

export const attendeesMailListJob = defineJob(
  attendeesMailList,
  async (payload, deps: AttendeesMailListDeps) => {
    await deps.eventMail?.mailAttendeeList(payload);
  },
);
