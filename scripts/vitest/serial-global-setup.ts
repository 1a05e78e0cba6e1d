// Vitest globalSetup of a project whose files run one at a time beside the rest (the e2e
// journeys): the lock server of serial-lock.ts, its address given to the files as
// inject('serialLock'); serial-setup.ts takes the turn in each file.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startLockServer } from './serial-lock.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    serialLock: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const lock = await startLockServer();
  project.provide('serialLock', lock.address);
  return () => lock.close();
}
