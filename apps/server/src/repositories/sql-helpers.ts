import { sql, type SQL } from 'drizzle-orm';

/** Escapes `\`, `%` and `_` for a `like … escape '\'` pattern. */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `1, 2, 3` as bound parameters, for `in (…)` inside raw SQL. */
export const idList = (ids: number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
