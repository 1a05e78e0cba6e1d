// How many browser journeys (project e2e) run at once: one place for the Vitest config (the e2e
// project's workers) and the journeys' global set-up (the turn lock). See docs/testing.md,
// "The schedule".

/**
 * After the other projects, three journeys at a time. A journey keeps about half a core busy
 * (its server and test in one Node process, a Chromium beside it) and spends the rest waiting
 * for its page, its server's jobs and its timers: the twenty journey files alone, one at a time,
 * took 325 s wall for 232 s CPU (0.71 of one core; 2026-11-28, quiet machine), two at a time
 * 207 s for 220 s, three at a time 170 s for 203 s; all passed in each.
 */
export const JOURNEYS_AT_ONCE = 3;

/**
 * The journeys that may run at once: one beside the other projects
 * (`FLASHBULB_TEST_JOURNEYS=beside`), else `FLASHBULB_TEST_JOURNEYS_AT_ONCE` (to rule out that
 * journeys disturb each other: 1) or `JOURNEYS_AT_ONCE`.
 */
export function journeysAtOnce(env: NodeJS.ProcessEnv = process.env): number {
  if (env.FLASHBULB_TEST_JOURNEYS === 'beside') return 1;
  const asked = Number(env.FLASHBULB_TEST_JOURNEYS_AT_ONCE);
  return Number.isInteger(asked) && asked >= 1 ? asked : JOURNEYS_AT_ONCE;
}
