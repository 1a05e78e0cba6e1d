import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** Builds the web app when needed and seeds the journeys' database (see both below). */
export default function setup(): () => void {
  const seeded = seedDataDir();
  buildWebApp();
  return () => rmSync(seeded, { recursive: true, force: true });
}

/**
 * One migrated embedded database per run (FLASHBULB_E2E_SEED_DIR): each journey's server starts
 * on a copy of it (support/server.ts) instead of migrating its own.
 */
const seedDataDir = (): string => {
  const folder = mkdtempSync(path.join(tmpdir(), 'flashbulb-e2e-seed-'));
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'apps/server/test/helpers/seed-data-dir.ts', folder],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  process.env.FLASHBULB_E2E_SEED_DIR = folder;
  return folder;
};

/**
 * The journeys run against the server serving `apps/web/dist`: build it when it is missing or
 * older than its sources, so a run never tests yesterday's app.
 */
function buildWebApp(): void {
  const builtAt = newestMtime(path.join(webDist, 'index.html'));
  const sourcesAt = Math.max(
    ...buildInputs.map((input) => newestMtime(path.join(repoRoot, input))),
  );
  if (builtAt > 0 && builtAt >= sourcesAt) return;
  console.log(
    builtAt === 0 ? 'e2e: building the web app' : 'e2e: web app sources changed, rebuilding',
  );
  // Vitest sets NODE_ENV=test, and Vite would then bundle React's development build.
  execFileSync('npm', ['run', 'build', '-w', '@flashbulb/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
