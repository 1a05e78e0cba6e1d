// Vitest globalSetup of the `server-pg` project: one throwaway PostgreSQL cluster per run.
//
// The URL (superuser `postgres`, database `postgres`) reaches the test files two ways:
//  - `process.env.FLASHBULB_TEST_PG_URL` — the one the server's test helper should read. Vitest
//    runs every project's globalSetup before it starts any worker, and forked workers copy the
//    parent's environment when they start, so the variable set here is visible in every test file.
//  - `inject('pgUrl')` from 'vitest' — the same value through Vitest's provide/inject channel
//    (typed by the declaration below once a file imports this module's types).
// Each test file should create its own database from this URL (CREATE DATABASE …) so files can
// run in parallel without sharing state.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startThrowawayCluster } from '../pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startThrowawayCluster();
  process.env.FLASHBULB_TEST_PG_URL = cluster.url;
  project.provide('pgUrl', cluster.url);
  return async () => {
    await cluster.stop();
  };
}
