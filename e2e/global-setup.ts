import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { journeysAtOnce } from '../scripts/vitest/journeys.ts';
import { startLockServer } from '../scripts/vitest/serial-lock.ts';
import { repoRoot, webDist } from './support/paths.ts';

/** Newest modification time (ms) of the files under `entry`, skipping dependencies and output. */
const newestMtime = (entry: string): number => {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) {
    if (name === 'node_modules' || name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
};

/** The inputs of the web build: the app and the contract it compiles in. */
const buildInputs = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/postcss.config.cjs',
  'apps/web/package.json',
  'packages/shared/src',
];

/**
 * Builds the web app when needed and seeds the journeys' database (see both below), and starts
 * the journeys' turn lock (scripts/vitest/serial-lock.ts: as many journeys at a time as
 * scripts/vitest/journeys.ts says, one when they run beside the other projects). The build and
 * the seed run in the background, beside the other projects' set-ups and first files: the first
 * journey waits for them through its turn.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const seeded = mkdtempSync(path.join(tmpdir(), 'flashbulb-e2e-seed-'));
  process.env.FLASHBULB_E2E_SEED_DIR = seeded;
  const prepared = Promise.all([seedDataDir(seeded), buildWebApp()]);
  const lock = await startLockServer(prepared, journeysAtOnce());
  project.provide('serialLock', lock.address);
  return async () => {
    await lock.close();
    await prepared.catch(() => undefined);
    rmSync(seeded, { recursive: true, force: true });
  };
}

/** Runs a command; its output is shown only when it fails (it would interleave with the tests'). */
const run = (command: string, args: string[], env = process.env): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve();
      console.error(Buffer.concat(output).toString('utf8'));
      reject(new Error(`e2e set-up: ${[command, ...args].join(' ')} failed (exit ${code})`));
    });
  });

/**
 * One migrated embedded database per run (FLASHBULB_E2E_SEED_DIR): each journey's server starts
 * on a copy of it (support/server.ts) instead of migrating its own.
 */
const seedDataDir = (folder: string): Promise<void> =>
  run(process.execPath, ['--import', 'tsx', 'apps/server/test/helpers/seed-data-dir.ts', folder]);

/**
 * The journeys run against the server serving `apps/web/dist`: build it when it is missing or
 * older than its sources, so a run never tests yesterday's app.
 */
async function buildWebApp(): Promise<void> {
  const builtAt = newestMtime(path.join(webDist, 'index.html'));
  const sourcesAt = Math.max(
    ...buildInputs.map((input) => newestMtime(path.join(repoRoot, input))),
  );
  if (builtAt > 0 && builtAt >= sourcesAt) return;
  console.log(
    builtAt === 0 ? 'e2e: building the web app' : 'e2e: web app sources changed, rebuilding',
  );
  // Vitest sets NODE_ENV=test, and Vite would then bundle React's development build.
  await run('npm', ['run', 'build', '-w', '@flashbulb/web'], {
    ...process.env,
    NODE_ENV: 'production',
  });
}
