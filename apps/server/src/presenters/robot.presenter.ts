import type { robotSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import type { RobotWithEvent } from '../repositories/events/robot.repository.ts';

type Robot = z.infer<typeof robotSchema>;

/** A robot (booth) with the event it feeds and its last upload. */
export const robotForOperator = (row: RobotWithEvent): Robot => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  event_id: row.eventId,
  event_name: row.eventName,
  last_upload_date: row.lastUploadAt?.toISOString() ?? null,
});
