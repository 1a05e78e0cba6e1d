import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createContractClient, endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DataDirLock,
  DataDirLockedError,
  lockPathOf,
  processStartTime,
  readLockHolder,
} from '../../src/db/data-dir-lock.ts';
import { openDatabase } from '../../src/db/database.ts';
import { cliInProcess } from '../helpers/cli.ts';
import { loadTemplateInto } from '../helpers/pglite-folder.ts';

/**
 * One writer per embedded database: the folder is locked by the process that opens
 * it, a second process is refused, a killed holder's lock is taken over, and the CLI goes through
 * the running server's API instead of opening the folder.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
const embedded = process.env.FLASHBULB_TEST_DB !== 'postgres';

const children: ChildProcess[] = [];
let dir: string;

type Cli = (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
/** The server the CLI test starts, handed on to the restore test after it. */
let running:
  | {
      child: ChildProcess;
      cli: Cli;
      apiKey: string;
      client: ReturnType<typeof createContractClient>;
      owner: { authorization: string };
      backupsDir: string;
      backupPath: string;
    }
  | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-lock-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts a process and resolves when a line of its output matches (or rejects when it exits). */
const startUntil = (args: string[], env: NodeJS.ProcessEnv, ready: RegExp) => {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env });
  children.push(child);
  let output = '';
  const seen = new Promise<void>((resolve, reject) => {
    const onLine = (line: string) => {
      output += `${line}\n`;
      if (ready.test(line)) resolve();
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready:\n${output}`)));
  });
  return { child, seen, output: () => output };
};

/**
 * Makes `folder` a migrated embedded database, as a server's first start leaves it, from the run's
 * template (helpers/db-template-setup.ts). The processes below start on it instead of creating the
 * cluster and migrating it themselves (PGlite's initdb alone was ≈ 8 s of CPU per process). Run
 * without the project's set-up, there is no template: the process makes the database as before.
 */
const seedFolder = async (folder: string): Promise<void> => {
  const dump = process.env.FLASHBULB_TEST_PGLITE_DUMP;
  if (dump) await loadTemplateInto(folder, dump);
};

const kill9 = async (child: ChildProcess) => {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
};

const HOLDER = `
import { openDatabase } from './apps/server/src/db/database.ts';
const database = await openDatabase({ engine: 'pglite', dataDir: process.argv[2] });
await database.executeSql("insert into organisations (name) values ('From the holder')");
process.stdout.write('holding\\n');
setInterval(() => undefined, 60_000);
`;

describe.runIf(embedded)('embedded database folder lock', () => {
  it('refuses a second process while the first holds the folder, and takes over after kill -9', async () => {
    const folder = path.join(dir, 'two-processes', 'db');
    const script = path.join(root, `.lock-holder-${process.pid}.ts`);
    await writeFile(script, HOLDER);
    await seedFolder(folder);
    try {
      const holder = startUntil([script, folder], process.env, /^holding$/);
      await holder.seen;

      const refused = await openDatabase({ engine: 'pglite', dataDir: folder }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataDirLockedError);
      expect((refused as DataDirLockedError).holder.pid).toBe(holder.child.pid);
      expect((refused as Error).message).toContain('is in use by a running Flashbulb server');
      expect(await readLockHolder(folder)).toMatchObject({ pid: holder.child.pid });

      // kill -9 leaves the lock file behind; its holder is dead, so the next process takes over.
      await kill9(holder.child);
      const lockText = JSON.parse(await readFile(lockPathOf(folder), 'utf8')) as { pid: number };
      expect(lockText.pid).toBe(holder.child.pid);
      expect(await readLockHolder(folder)).toBeNull();

      const database = await openDatabase({ engine: 'pglite', dataDir: folder });
      try {
        expect(database.lock).toBeDefined();
        const rows = await database.executeSql('select name from organisations');
        expect(rows.rows).toEqual([{ name: 'From the holder' }]);
        expect(await readLockHolder(folder)).toMatchObject({ pid: process.pid });
      } finally {
        await database.close();
      }
      // Closing releases the lock.
      await expect(readFile(lockPathOf(folder), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(script, { force: true });
    }
  }, 180_000);

  it('does not count a reused pid: a holder whose process started at another time is stale', async () => {
    const folder = path.join(dir, 'reused-pid', 'db');
    const started = processStartTime(process.pid);
    if (started === null) return; // no /proc: start times cannot be compared here
    await rm(path.dirname(folder), { recursive: true, force: true });
    await mkdir(path.dirname(folder), { recursive: true });
    // A live pid (our parent's) with a start time it never had: the holder died, the pid was reused.
    const parentPid = process.ppid;
    await writeFile(
      lockPathOf(folder),
      JSON.stringify({
        pid: parentPid,
        host: hostname(),
        started: `${started}9`,
        role: 'server',
        url: null,
        nonce: 'old',
      }),
    );
    expect(await readLockHolder(folder)).toBeNull();
    const lock = await DataDirLock.acquire(folder);
    expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    // A second acquisition in a live holder's presence is refused.
    await expect(DataDirLock.acquire(folder)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
    // Released: free again.
    const again = await DataDirLock.acquire(folder);
    await again.release();
  });

  it('a second server refuses to start; the CLI goes through the running server with an API key', async () => {
    const dataDir = path.join(dir, 'server');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FLASHBULB_DATA_DIR: dataDir,
      FLASHBULB_SECRET_KEY: 'lock-test-secret-key-0123456789abcdef',
      FLASHBULB_ADMIN_EMAIL: 'root@example.com',
      FLASHBULB_ADMIN_PASSWORD: 'Lock-test-password-42',
      FLASHBULB_MFA_EXEMPT_USERS: 'root@example.com',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    delete env.FLASHBULB_URL;
    delete env.FLASHBULB_API_KEY;
    const folder = path.join(dataDir, 'db');
    await seedFolder(folder);

    const first = startUntil(['apps/server/src/main.ts'], env, /Server listening/);
    await first.seen;
    // The lock names the server and, once it listens, its address.
    const url = `http://127.0.0.1:${port}`;
    let holder = await readLockHolder(folder);
    while (!holder?.url) {
      // The address is written right after `listen` resolves; wait for that write.
      await new Promise((resolve) => setImmediate(resolve));
      holder = await readLockHolder(folder);
    }
    expect(holder).toMatchObject({ pid: first.child.pid, role: 'server', url });

    // A second server on the same folder (another port) refuses with a clear message.
    const second = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...env, PORT: String(await freePort()) },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('Flashbulb cannot start');
    expect(second.stderr).toContain(`in use by a running Flashbulb server (pid ${first.child.pid}`);

    // The CLI's commands in this process: they read the folder's lock as a process of their own
    // would (the holder is the server above), and open the folder only once it is free.
    const cli = (...args: string[]) => cliInProcess(args, env);

    // Without an API key the CLI says why and opens nothing.
    const noKey = await cli('organisation', 'create', '--name', 'Acme Events');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(`A Flashbulb server is running on this database (${url}`);
    expect(noKey.stderr).toContain('--api-key or FLASHBULB_API_KEY');

    const client = createContractClient({ baseUrl: url });
    const signIn = await client.call(endpoints.signIn, {
      username: 'root@example.com',
      password: 'Lock-test-password-42',
    });
    if (!('authentication_result' in signIn))
      throw new Error(`challenge ${JSON.stringify(signIn)}`);
    const owner = { authorization: `Bearer ${signIn.authentication_result.access_token}` };
    const key = await client.call(endpoints.createApiKey, { name: 'cli' }, owner);

    const created = await cli(
      'organisation',
      'create',
      '--name',
      'Acme Events',
      '--api-key',
      key.api_key,
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toContain('Created organisation Acme Events');
    // The running server sees it at once (two writers made it answer 404 until a restart).
    const { organisations } = await client.call(endpoints.listOrganisations, {}, owner);
    expect(organisations.map((o) => o.name)).toEqual(['Acme Events']);

    const user = await cli(
      'user',
      'create',
      '--email',
      'owner@example.com',
      '--role',
      'owner',
      '--organisation',
      'acme events',
      '--temporary-password',
      'Temporary-pass-77',
      '--api-key',
      key.api_key,
    );
    expect(user).toMatchObject({ code: 0 });
    expect(user.stdout).toContain('Created Event owner owner@example.com');

    // Refusals come back as the server's error key.
    const duplicate = await cli(
      'organisation',
      'create',
      '--name',
      'Acme Events',
      '--api-key',
      key.api_key,
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('Refused by the server: organisation_exists');
    const badKey = await cli('organisation', 'list', '--api-key', 'not-a-key');
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('unauthorized_user');

    const list = await cli('organisation', 'list', '--api-key', key.api_key);
    expect(list.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^\d+\tAcme Events$/)]);
    // Backups and the integrity check go through it too (the server writes <data dir>/backups).
    const backup = await cli('backup', 'create', '--api-key', key.api_key);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.stdout).toContain(`Backup written to ${path.join(dataDir, 'backups')}`);
    const integrity = await cli('integrity', 'check', '--api-key', key.api_key);
    expect(integrity).toMatchObject({ code: 0 });
    expect(integrity.stdout).toContain('missing: 0, untracked: 0, checksum mismatches: 0');

    running = {
      child: first.child,
      cli,
      apiKey: key.api_key,
      client,
      owner,
      backupsDir: path.join(dataDir, 'backups'),
      backupPath: /Backup written to (\S+):/.exec(backup.stdout)![1]!,
    };
  }, 300_000);

  it('the CLI restores a backup into the running server through its API, with the API key', async () => {
    // The server, its key and its first backup come from the test above.
    if (!running) throw new Error('the server of the test above did not start');
    const { cli, apiKey, client, owner, backupPath, backupsDir } = running;
    const made = await cli('organisation', 'create', '--name', 'Made Later', '--api-key', apiKey);
    expect(made).toMatchObject({ code: 0 });

    // Without a key the CLI says why and restores nothing.
    const noKey = await cli('backup', 'restore', '--from', backupPath);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--api-key or FLASHBULB_API_KEY');
    // A folder the server did not write is refused by the server (it reads only its own backups).
    const elsewhere = await cli('backup', 'restore', '--from', dir, '--api-key', apiKey);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('backup_not_found');
    const names = async () =>
      (await client.call(endpoints.listOrganisations, {}, owner)).organisations.map((o) => o.name);
    expect((await names()).sort()).toEqual(['Acme Events', 'Made Later']);

    expect(path.dirname(backupPath)).toBe(backupsDir);
    const restored = await cli('backup', 'restore', '--from', backupPath, '--api-key', apiKey);
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.stdout).toMatch(
      /^Restored \d+ rows and \d+ objects into the running server \(http:\/\/127\.0\.0\.1:\d+\)/,
    );
    // The same server process answers with the backup's data: what was made after it is gone.
    expect(running.child.exitCode).toBeNull();
    expect(await names()).toEqual(['Acme Events']);

    // The server is stopped the hard way; afterwards the CLI opens the database itself.
    await kill9(running.child);
    const offline = await cli('organisation', 'list');
    expect(offline).toMatchObject({ code: 0 });
    expect(offline.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^\d+\tAcme Events$/),
    ]);
  }, 300_000);
});
