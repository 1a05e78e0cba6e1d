// The suite's own plumbing: a PGlite database a file drops goes to the worker's next file emptied
// (helpers/test-app.ts, "one loaded PGlite template per worker"). What one file wrote must never
// reach the next, and a database closed on purpose stays closed.
import { describe, expect, it } from 'vitest';
import { handsOnPglite, openTestDatabase } from '../helpers/test-app.ts';

// PGlite only (PostgreSQL files get a new database each; FLASHBULB_TEST_ALL_ENGINES=1 runs
// every file there too).
describe.runIf(handsOnPglite())('a reused test database', () => {
  it('comes back empty, with identities restarted and the job queue kept', async () => {
    const first = await openTestDatabase();
    // A row that points at another (a foreign key), and a sequence whose one row is gone again.
    await first.database.executeSql(`insert into organisations (name) values ('gone')`);
    await first.database.executeSql(`delete from organisations`);
    await first.database.executeSql(`insert into organisations (name) values ('kept')`);
    await first.database.executeSql(
      `insert into users (email, password_hash, role, status, organisation_id)
         values ('a@example.com', 'x', 1, 'CONFIRMED', 2)`,
    );
    await first.database.executeSql(`set statement_timeout = 1234`);
    const queues = await first.database.executeSql('select count(*)::int as n from pgboss.queue');
    const client = (first.database as unknown as { client: object }).client;
    await first.drop();

    const second = await openTestDatabase();
    try {
      // The same loaded template, handed on (not a fresh load).
      expect((second.database as unknown as { client: object }).client).toBe(client);
      const users = await second.database.executeSql('select count(*)::int as n from users');
      expect(users.rows[0]!.n).toBe(0);
      const { rows } = await second.database.executeSql(
        `insert into users (email, password_hash, role, status)
           values ('b@example.com', 'x', 1, 'CONFIRMED') returning id`,
      );
      expect(rows[0]!.id).toBe(1);
      const organisations = await second.database.executeSql(
        'select count(*)::int as n from organisations',
      );
      expect(organisations.rows[0]!.n).toBe(0);
      const organisation = await second.database.executeSql(
        `insert into organisations (name) values ('next') returning id`,
      );
      expect(organisation.rows[0]!.id).toBe(1);
      const timeout = await second.database.executeSql('show statement_timeout');
      expect(timeout.rows[0]!.statement_timeout).toBe('0');
      const kept = await second.database.executeSql('select count(*)::int as n from pgboss.queue');
      expect(kept.rows[0]!.n).toBe(queues.rows[0]!.n);
      expect(Number(kept.rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      await second.drop();
    }
  });

  it('is not handed on once closed, nor after its schema changed', async () => {
    const closed = await openTestDatabase();
    const closedClient = (closed.database as unknown as { client: object }).client;
    await closed.database.close();
    await closed.drop();
    const altered = await openTestDatabase();
    const alteredClient = (altered.database as unknown as { client: object }).client;
    expect(alteredClient).not.toBe(closedClient);
    await altered.database.executeSql('alter table users add column scratch text');
    await altered.drop();
    const next = await openTestDatabase();
    try {
      expect((next.database as unknown as { client: object }).client).not.toBe(alteredClient);
      const columns = await next.database.executeSql(
        `select count(*)::int as n from information_schema.columns
            where table_name = 'users' and column_name = 'scratch'`,
      );
      expect(columns.rows[0]!.n).toBe(0);
    } finally {
      await next.drop();
    }
  });
});
