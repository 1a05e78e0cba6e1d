// Set-up file of a project whose files run one at a time beside the rest (the e2e journeys):
// the file waits for its turn before its own hooks start servers and browsers, and gives it back
// after its own last hook (hooks after the tests run in reverse order: this one last).
import { afterAll, beforeAll, inject } from 'vitest';
import type {} from './serial-global-setup.ts';
import { acquireTurn } from './serial-lock.ts';

/** The wait is for the journey before it, which has its own timeouts; this only bounds a hang. */
const TURN_TIMEOUT_MS = 20 * 60_000;

let release: (() => void) | undefined;

beforeAll(async () => {
  release = await acquireTurn(inject('serialLock'));
}, TURN_TIMEOUT_MS);

afterAll(() => {
  release?.();
  release = undefined;
});
