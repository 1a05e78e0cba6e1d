import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli.ts';
import { openTestDatabase } from '../helpers/test-app.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

let dataDir: string;
let env: NodeJS.ProcessEnv;
let drop: () => Promise<void>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-cli-'));
  env = {
    ...process.env,
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_SECRET_KEY: 'cli-test-secret-key-0123456789abcdef',
  };
  delete env.DATABASE_URL;
  if (process.env.FLASHBULB_TEST_DB === 'postgres') {
    // A fresh database on the throwaway cluster; the CLI migrates it itself.
    const test = await openTestDatabase();
    const url = (test.database as unknown as { url?: string }).url;
    drop = test.drop;
    await test.database.close();
    if (url) env.DATABASE_URL = url;
  } else {
    drop = () => Promise.resolve();
  }
});
afterAll(async () => {
  await drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The commands run in this process (what they do); `spawned` proves the process around them. */
const cli = (...args: string[]) => cliInProcess(args, env);

const spawned = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: root, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

describe('command line', () => {
  it('creates organisations and users, and refuses bad input', async () => {
    const org = await cli('organisation', 'create', '--name', 'Acme Events');
    expect(org).toMatchObject({ code: 0 });
    expect(org.stdout).toContain('Created organisation Acme Events');

    const user = await cli(
      'user',
      'create',
      '--email',
      'Owner@Example.com',
      '--role',
      'owner',
      '--organisation',
      'acme events',
    );
    expect(user.code).toBe(0);
    expect(user.stdout).toContain('Created Event owner owner@example.com');
    expect(user.stdout).toContain('e-mailed to owner@example.com');

    const duplicate = await cli(
      'user',
      'create',
      '--email',
      'owner@example.com',
      '--role',
      'owner',
      '--organisation',
      '1',
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('user_exists');

    const badRole = await cli('user', 'create', '--email', 'x@example.com', '--role', 'emperor');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be');
    // `npm run cli` is the same command in a process of its own: its exit code and output.
    const asProcess = await spawned(
      'user',
      'create',
      '--email',
      'x@example.com',
      '--role',
      'emperor',
    );
    expect(asProcess).toEqual(badRole);

    const noOrg = await cli(
      'user',
      'create',
      '--email',
      'y@example.com',
      '--role',
      'admin',
      '--organisation',
      'Nowhere',
    );
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('No organisation "Nowhere"');

    const list = await cli('organisation', 'list');
    expect(list.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^\d+\tAcme Events$/)]);
  }, 180_000);
});
