import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const migrations = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The committed migrations up to (not including) the outbox one, in a folder of their own. */
const migrationsBeforeOutbox = async (dir: string): Promise<string> => {
  const folder = path.join(dir, 'drizzle');
  await cp(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_outbox'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
};

/** An empty database that migrations can be run on step by step: PGlite, or PostgreSQL for `server-pg`. */
const emptyDatabase = async (): Promise<{
  migrate: (folder: string) => Promise<void>;
  query: (sql: string) => Promise<Record<string, unknown>[]>;
  close: () => Promise<void>;
}> => {
  if (process.env.FLASHBULB_TEST_DB !== 'postgres') {
    const client = await PGlite.create({ extensions: { vector } });
    return {
      migrate: (folder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      query: async (sql) => {
        const results = await client.exec(sql);
        return results.at(-1)?.rows ?? [];
      },
      close: () => client.close(),
    };
  }
  const adminUrl = process.env.FLASHBULB_TEST_PG_URL ?? inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    migrate: (folder) => migratePg(drizzlePg(client), { migrationsFolder: folder }),
    query: async (sql) => {
      const result = (await client.query(sql)) as unknown as
        pg.QueryResult<Record<string, unknown>> | pg.QueryResult<Record<string, unknown>>[];
      return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [];
    },
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
};

describe('the outbox migration', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  const rows = (sql: string) => database.query(sql);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-outbox-migration-'));
    database = await emptyDatabase();
    await database.migrate(await migrationsBeforeOutbox(dir));
    await database.query(`
      insert into mail_outbox (kind, to_address, subject, text_body, html_body, from_address, status, attempts, last_error, created_at, sent_at)
      values
        ('user_invitation', 'ann@example.com', 'Welcome', 'Hello Ann', '<p>Hello Ann</p>', null, 'sent', 1, null, '2026-01-02T03:04:05Z', '2026-01-02T03:04:06Z'),
        ('password_reset', 'bob@example.com', 'Reset', 'Code 123456', null, 'Gala <gala@example.com>', 'queued', 2, 'SMTP 451 try later', '2026-01-03T00:00:00Z', null);
      insert into sms_outbox (kind, event_id, to_number, from_name, body, status, attempts, last_error, created_at, sent_at)
      values
        ('mini_album_link', null, '2125550199', 'GalaPhotos', 'Hi Ann, your photos: https://x/?mId=a', 'outbox', 0, null, '2026-01-04T00:00:00Z', null),
        ('mini_album_link', null, '2125550100', null, 'Hi Bob', 'failed', 1, 'Twilio 21211: not a number', '2026-01-05T00:00:00Z', null);
    `);
    await database.migrate(migrations);
  });
  afterAll(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('moves every mail and SMS row into the one outbox, mail ids kept', async () => {
    expect(
      await rows(
        `select id, channel, kind, event_id, recipient, sender, content, status, attempts, last_error,
                created_at, sent_at, next_attempt_at, provider, provider_message_id
           from outbox order by id`,
      ),
    ).toEqual([
      {
        id: 1,
        channel: 'mail',
        kind: 'user_invitation',
        event_id: null,
        recipient: 'ann@example.com',
        sender: null,
        content: { subject: 'Welcome', text: 'Hello Ann', html: '<p>Hello Ann</p>' },
        status: 'sent',
        attempts: 1,
        last_error: null,
        created_at: new Date('2026-01-02T03:04:05Z'),
        sent_at: new Date('2026-01-02T03:04:06Z'),
        next_attempt_at: null,
        provider: null,
        provider_message_id: null,
      },
      {
        id: 2,
        channel: 'mail',
        kind: 'password_reset',
        event_id: null,
        recipient: 'bob@example.com',
        sender: 'Gala <gala@example.com>',
        content: { subject: 'Reset', text: 'Code 123456', html: null },
        status: 'queued',
        attempts: 2,
        last_error: 'SMTP 451 try later',
        created_at: new Date('2026-01-03T00:00:00Z'),
        sent_at: null,
        next_attempt_at: null,
        provider: null,
        provider_message_id: null,
      },
      {
        id: 3,
        channel: 'sms',
        kind: 'mini_album_link',
        event_id: null,
        recipient: '2125550199',
        sender: 'GalaPhotos',
        content: { body: 'Hi Ann, your photos: https://x/?mId=a' },
        status: 'outbox',
        attempts: 0,
        last_error: null,
        created_at: new Date('2026-01-04T00:00:00Z'),
        sent_at: null,
        next_attempt_at: null,
        provider: null,
        provider_message_id: null,
      },
      {
        id: 4,
        channel: 'sms',
        kind: 'mini_album_link',
        event_id: null,
        recipient: '2125550100',
        sender: null,
        content: { body: 'Hi Bob' },
        status: 'failed',
        attempts: 1,
        last_error: 'Twilio 21211: not a number',
        created_at: new Date('2026-01-05T00:00:00Z'),
        sent_at: null,
        next_attempt_at: null,
        provider: null,
        provider_message_id: null,
      },
    ]);
  });

  it('drops the two old tables and continues the ids after the moved rows', async () => {
    expect(
      await rows(
        "select table_name from information_schema.tables where table_name in ('mail_outbox', 'sms_outbox', 'outbox', 'webhook_events') order by 1",
      ),
    ).toEqual([{ table_name: 'outbox' }, { table_name: 'webhook_events' }]);
    const [inserted] = await rows(
      `insert into outbox (channel, kind, recipient, content, status)
       values ('mail', 'test', 'c@example.com', '{"subject":"s","text":"t","html":null}', 'outbox') returning id`,
    );
    expect(inserted).toEqual({ id: 5 });
  });
});
