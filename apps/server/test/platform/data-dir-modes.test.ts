import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secureDataDir } from '../../src/lib/data-dir-modes.ts';

/**
 * The data folder holds the embedded database, the generated secret key and every stored object:
 * nobody but the server's own user may read or write it. A fresh start makes it 0700 and nothing in
 * it group- or world-writable; an existing folder left open is closed and reported.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'flashbulb-modes-'));
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

const everyEntry = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    out.push(full);
    if (entry.isDirectory()) out.push(...(await everyEntry(full)));
  }
  return out;
};

describe('the data folder', () => {
  it('starts 0700 with the embedded database files closed to group and world', async () => {
    const dataDir = path.join(parent, 'fresh');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FLASHBULB_DATA_DIR: dataDir,
      FLASHBULB_SECRET_KEY: 'modes-test-secret-key-0123456789abcdef',
    };
    // The embedded engine is what writes files here, whichever engine the suite runs on.
    delete env.DATABASE_URL;
    // Started under a permissive umask, as a service manager or a shared shell may leave it.
    await run(
      '/bin/sh',
      [
        '-c',
        'umask 000 && exec "$0" --import tsx apps/server/src/cli/main.ts organisation create --name Modes',
        process.execPath,
      ],
      { cwd: root, env },
    );
    expect(await modeOf(dataDir)).toBe(0o700);
    const entries = await everyEntry(dataDir);
    const dbFiles = entries.filter((f) => f.startsWith(path.join(dataDir, 'db') + path.sep));
    expect(dbFiles.length).toBeGreaterThan(10);
    const open: string[] = [];
    for (const file of entries) if ((await modeOf(file)) & 0o077) open.push(file);
    expect(open).toEqual([]);
  });

  it('closes an existing open folder and names what inside is open', async () => {
    const dataDir = path.join(parent, 'existing');
    await mkdir(path.join(dataDir, 'db'), { recursive: true, mode: 0o700 });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'db', 'PG_VERSION'), '17');
    await chmod(path.join(dataDir, 'db', 'PG_VERSION'), 0o666);
    await writeFile(path.join(dataDir, 'secret.key'), 'x', { mode: 0o600 });

    const warnings = await secureDataDir(dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(warnings).toEqual([
      expect.objectContaining({ path: dataDir, mode: '755', fixed: true }),
      expect.objectContaining({ path: path.join(dataDir, 'db', 'PG_VERSION'), mode: '666' }),
    ]);
    // Already closed: nothing to say.
    await chmod(path.join(dataDir, 'db', 'PG_VERSION'), 0o600);
    expect(await secureDataDir(dataDir)).toEqual([]);
  });

  it('is created 0700 when missing', async () => {
    const dataDir = path.join(parent, 'missing', 'data');
    expect(await secureDataDir(dataDir)).toEqual([]);
    expect(await modeOf(dataDir)).toBe(0o700);
  });
});
