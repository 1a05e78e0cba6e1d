/** Time as a dependency, so lockouts, code expiry and retention are testable with a controllable clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
