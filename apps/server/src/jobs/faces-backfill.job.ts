import { facesBackfill } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type FacesBackfillDeps = { faceIndex: { backfill(eventId: number): Promise<unknown> } };

export const facesBackfillJob = defineJob(facesBackfill, ({ eventId }, deps: FacesBackfillDeps) =>
  deps.faceIndex.backfill(eventId),
);
