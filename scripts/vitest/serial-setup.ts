// Set-up file of a project whose files run one at a time beside the rest (the e2e journeys):
// the file waits for its turn before its own hooks start servers and browsers (the first turn
// also waits for the web build and the seed), and gives it back after its own last hook (hooks
// after the tests run in reverse order: this one last).
import { afterAll, beforeAll, inject } from 'vitest';
import { acquireTurn } from './serial-lock.ts';

/** The wait is for the journey before it, which has its own timeouts; this only bounds a hang. */
const TURN_TIMEOUT_MS = 20 * 60_000;

let release: (() => void) | undefined;

beforeAll(async () => {
  // The project's global set-up starts the lock (e2e/global-setup.ts); without it, no turns.
  const address = inject('serialLock') as string | undefined;
  if (address) release = await acquireTurn(address);
}, TURN_TIMEOUT_MS);

afterAll(() => {
  release?.();
  release = undefined;
});
