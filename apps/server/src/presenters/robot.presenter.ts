import type { RobotActivity, robotSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import type { RobotActivityRow, RobotWithEvent } from '../repositories/events/robot.repository.ts';

type Robot = z.infer<typeof robotSchema>;

/** A robot (booth) with the event it feeds and its last upload. */
export const robotForOperator = (row: RobotWithEvent): Robot => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  event_id: row.eventId,
  event_name: row.eventName,
  last_upload_date: row.lastUploadAt?.toISOString() ?? null,
  upload_count: row.uploadCount,
});

/** An entry of the robot activity log as operators see it. */
export const robotActivityForOperator = (row: RobotActivityRow): RobotActivity => ({
  kind: row.kind,
  id: row.id,
  at: row.at.toISOString(),
  robot_id: row.robotId,
  robot_name: row.robotName,
  event_id: row.eventId,
  event_name: row.eventName,
  name: row.name,
  type: row.type === 'warning' || row.type === 'error' ? row.type : 'info',
  photo_id: row.photoId,
});
