import { facesSelfiesExpire } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type FacesSelfiesExpireDeps = { faceSelfies?: { expire(): Promise<number> } };

export const facesSelfiesExpireJob = defineJob(
  facesSelfiesExpire,
  async (_payload, deps: FacesSelfiesExpireDeps) =>
    deps.faceSelfies ? deps.faceSelfies.expire() : 0,
);
