import { facesSweep } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type FacesSweepDeps = { faceIndex: { sweep(): Promise<unknown> } };

export const facesSweepJob = defineJob(facesSweep, (_payload, deps: FacesSweepDeps) =>
  deps.faceIndex.sweep(),
);
