import type { SqlRunner } from '../db/database.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface RouteOptions {
  routeInfo?: { method?: string; url?: string };
}

/**
 * A store for @fastify/rate-limit that counts in the database (table `rate_limit_hits`), so the
 * identity rate limit holds across every API process, not per process. One statement
 * per request: count up within the window, or start a new one when it has ended. Times are the
 * database's, so processes with skewed clocks agree.
 */
export const databaseRateLimitStore = (db: SqlRunner) =>
  class DatabaseRateLimitStore {
    constructor(
      _global?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow = 60_000): void {
      db.executeSql(
        `insert into rate_limit_hits (key, count, window_ends_at)
           values ($1, 1, now() + $2 * interval '1 millisecond')
         on conflict (key) do update set
           count = case when rate_limit_hits.window_ends_at <= now() then 1
                        else rate_limit_hits.count + 1 end,
           window_ends_at = case when rate_limit_hits.window_ends_at <= now()
                                 then excluded.window_ends_at else rate_limit_hits.window_ends_at end
         returning count, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`,
        [`${this.prefix}${key}`, timeWindow],
      ).then(
        ({ rows }) => {
          const row = rows[0] as { count: number; ttl: number };
          callback(null, { current: row.count, ttl: row.ttl });
          // Now and then, forget windows that ended long ago (bounded table, no extra job).
          if (Math.random() < 0.01) {
            void db
              .executeSql(
                `delete from rate_limit_hits where window_ends_at < now() - interval '1 hour'`,
              )
              .catch(() => undefined);
          }
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
