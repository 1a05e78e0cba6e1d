import type { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface RouteOptions {
  routeInfo?: { method?: string; url?: string };
}

/**
 * A store for @fastify/rate-limit that counts in the database (the hit counter's
 * `rate_limit_hits`), so the identity rate limit holds across every API process, not per
 * process. One statement per request: count up within the window, or start a new one when it has
 * ended.
 */
export const databaseRateLimitStore = (hits: Pick<HitCounterRepository, 'hit' | 'forgetEnded'>) =>
  class DatabaseRateLimitStore {
    constructor(
      _global?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow = 60_000): void {
      hits.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ count, ttl }) => {
          callback(null, { current: count, ttl });
          // Now and then, forget windows that ended long ago (bounded table, no extra job).
          if (Math.random() < 0.01) void hits.forgetEnded().catch(() => undefined);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(options: object): DatabaseRateLimitStore {
      const routeOptions = options as RouteOptions;
      const route = `${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}|`;
      return new DatabaseRateLimitStore(undefined, route);
    }
  };
