/**
 * What the server benchmarks share: a running server on PGlite or a throwaway PostgreSQL cluster
 * with a super user, an organisation, a robot and an event, and a typed POST helper.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createContractClient,
  endpoints,
  defaultEventOpts,
  Role,
  type BodyOf,
  type Endpoint,
  type ResultOf,
} from '@flashbulb/shared';
import { startThrowawayCluster } from '../../../scripts/pg-cluster.mjs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { SignedInUser } from '../src/access/signed-in-user.ts';

/**
 * The benchmark's scheduling group, for its header. Linux shares the CPU between autogroups
 * (sessions) first: the throwaway PostgreSQL cluster runs in sessions of its own at nice 0, so a
 * benchmark started in a reniced session (`echo -19 > /proc/self/autogroup`) starves the database
 * while ingest takes both cores — in session 9 that turned a 44 ms p99 into 268 ms.
 */
export const schedulingNote = async (): Promise<string> => {
  const text = await readFile('/proc/self/autogroup', 'utf8').catch(() => '');
  const nice = /nice (-?\d+)/.exec(text)?.[1];
  if (nice === undefined) return 'scheduling: no autogroup';
  if (nice === '0') return 'scheduling: autogroup nice 0, as the PostgreSQL cluster';
  return `scheduling: WARNING autogroup nice ${nice}, the PostgreSQL cluster runs at 0 — PostgreSQL figures are skewed; run from a session at nice 0`;
};

export interface Setup {
  base: string;
  /** The running app (benchmarks that measure a service or repository directly). */
  app: Awaited<ReturnType<typeof buildApp>>;
  close: () => Promise<void>;
  robotKey: string;
  eventName: string;
  eventId: number;
  apiKey: string;
  insertRows: (rows: number) => Promise<void>;
  /** The event's public album key (streams, guest lists). */
  publicKey: string;
  /** `$FLASHBULB_DATA_DIR` of the running server (the file printer writes under it). */
  dataDir: string;
}

export const setUp = async (
  engine: 'pglite' | 'postgres',
  env: Record<string, string> = {},
): Promise<Setup> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-'));
  const cluster = engine === 'postgres' ? await startThrowawayCluster() : null;
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_PUBLIC_URL: base,
    FLASHBULB_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijkl',
    LOG_LEVEL: 'error',
    // Benchmarks measure throughput: a million attendees in one call, many uploads at once.
    FLASHBULB_QUOTA_ATTENDEES_PER_CALL: '1000000',
    FLASHBULB_QUOTA_ATTENDEES_PER_DAY: '100000000',
    FLASHBULB_QUOTA_UPLOAD_COMPLETIONS: '10000',
    FLASHBULB_QUOTA_FACE_SEARCHES_PER_HOUR: '1000000',
    FLASHBULB_QUOTA_SELFIE_GRANTS_PER_HOUR: '1000000',
    ...(cluster ? { DATABASE_URL: cluster.url } : {}),
    ...env,
  });
  const app = await buildApp(config);
  await app.listen({ port, host: '127.0.0.1' });
  const { services } = app.container;
  await services.firstAdmin.createFirstAdmin(
    { email: 'bench@example.com', password: 'bench password 123' },
    { local: true },
  );
  const user = await app.container.repositories.users.findByEmail('bench@example.com');
  const actor: SignedInUser = {
    userId: user!.id,
    email: user!.email,
    role: Role.SUPER_USER,
    organisationId: null,
    sessionId: null,
  };
  const organisation = await services.organisations.create(null, 'Bench');
  const robot = await services.robots.create(actor, {
    organisation_id: organisation.id,
    name: 'Bench robot',
  });
  const event = await services.events.create(actor, {
    organisation_id: organisation.id,
    full_name: 'Bench',
    email_from_address: 'bench@example.com',
    opts: { ...defaultEventOpts(), description: 'bench' },
    robot_id_array: [robot.id],
  });
  const apiKey = await services.users.createApiKey(actor, 'bench');
  return {
    base,
    app,
    robotKey: robot.api_key,
    eventName: event.name,
    eventId: event.id,
    apiKey: apiKey.api_key,
    publicKey: event.public_api_key,
    dataDir,
    insertRows: async (rows) => {
      // Index rows straight in SQL: the list benchmark measures reading, not ingest.
      await app.container.database.executeSql(
        `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type, width, height,
           size_bytes, status, derivatives, created_at, available_at)
         select 'bench' || g, $1, md5(g::text), 'events/x/photos/uid_bench' || g || '_uid/original.jpg', 'IMG_' || g || '.jpg',
           'image/jpeg', 'image', 2000, 1500, 3000000, 'ready',
           '{"preview":"p.jpg","thumbnail":"t.jpg"}'::jsonb,
           now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
         from generate_series(1, $2::int) g`,
        [event.id, rows],
      );
      // A server that gained these rows over hours has vacuumed them since (PostgreSQL's
      // autovacuum, PGlite's `database.vacuum` job) and written them out in a checkpoint:
      // measure that state, not the vacuum or the checkpoint of a bulk load. The checkpoint comes
      // first too: the throwaway cluster commits asynchronously, and a vacuum before the commit
      // reached the WAL on disk may not mark a page all-visible — every index-only scan then
      // read the table as well (session 11: `relallvisible` 0 of 3,703 pages).
      await app.container.database.executeSql('checkpoint');
      await app.container.database.executeSql('vacuum (analyze) photos');
      await app.container.database.executeSql('checkpoint');
    },
    close: async () => {
      await app.close();
      await cluster?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

/** One typed contract call against the running server (the shared contract client). */
export const post = <E extends Endpoint>(
  base: string,
  endpoint: E,
  body: BodyOf<E>,
  authorization?: string,
): Promise<ResultOf<E>> =>
  createContractClient({ baseUrl: base }).call(
    endpoint,
    body,
    authorization ? { authorization } : {},
  );

/** One photo through the robot path: upload grant → storage POST → completion. */
export const robotUpload = async (
  robot: { base: string; robotKey: string; eventName: string },
  bytes: Buffer,
  name: string,
): Promise<{ id: number; uid: string }> => {
  const key = { key_type: 'robot', key_value: robot.robotKey } as const;
  const grant = (await post(robot.base, endpoints.photoUploadAccess, {
    ...key,
    event_name: robot.eventName,
    file_name: name,
    content_type: 'image/jpeg',
  })) as { url: string; fields: Record<string, string>; key: string };
  const form = new FormData();
  for (const [k, v] of Object.entries(grant.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const stored = await fetch(grant.url, { method: 'POST', body: form });
  if (stored.status !== 201) throw new Error(`storage ${stored.status}`);
  return await post(robot.base, endpoints.photoUploadComplete, { ...key, key: grant.key });
};
