import type { TestApp } from './test-app.ts';

/** `count` completed jobs in `queue`'s partition of pg-boss's job table, as a busy day leaves. */
export const insertCompletedJobs = async (t: TestApp, queue: string, count: number) => {
  await t.database.executeSql(
    `insert into pgboss.job (id, name, data, state, started_on, completed_on, created_on)
     select gen_random_uuid(), $1, '{}'::jsonb, 'completed', now(), now(), now()
     from generate_series(1, $2::int)`,
    [queue, count],
  );
};
