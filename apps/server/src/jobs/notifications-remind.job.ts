import type { Clock } from '../lib/clock.ts';
import { notificationsRemind } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type NotificationsRemindDeps = {
  notifications: { sendReminders(now: Date): Promise<unknown> };
  clock: Clock;
};

export const notificationsRemindJob = defineJob(
  notificationsRemind,
  (_payload, deps: NotificationsRemindDeps) => deps.notifications.sendReminders(deps.clock.now()),
);
