#!/usr/bin/env node
// Throwaway PostgreSQL cluster for tests and local development.
//
//   import { startThrowawayCluster } from '../scripts/pg-cluster.mjs';
//   const { url, stop } = await startThrowawayCluster();
//
// CLI: `node scripts/pg-cluster.mjs` prints the URL and keeps the cluster up until Ctrl-C.
//
// Uses the Debian `postgresql` server binaries (/usr/lib/postgresql/<version>/bin). The cluster
// lives in a temp dir, trusts local connections (superuser `postgres`, no password), listens on
// 127.0.0.1 on a free port plus a unix socket in the temp dir, and runs with fsync off: it is
// for tests only and is deleted by stop().
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * bin directory of the highest installed PostgreSQL major version, or null.
 * @returns {string | null}
 */
export function findPgBinDir() {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(PG_ROOT, versions[0], 'bin') : null;
}

/**
 * A TCP port that was free on 127.0.0.1 a moment ago.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The command line for a PostgreSQL binary: initdb and pg_ctl refuse to run as root, so as root
 * it runs as the `postgres` OS user.
 * @param {string} bin
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
function pgCommand(bin, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/**
 * Runs a PostgreSQL binary (see pgCommand).
 * @param {string} bin
 * @param {string[]} args
 */
async function run(bin, args) {
  const [cmd, cmdArgs] = pgCommand(bin, args);
  try {
    return await execFileAsync(cmd, cmdArgs, { encoding: 'utf8' });
  } catch (err) {
    const {
      stdout = '',
      stderr = '',
      message,
    } = /** @type {Error & {stdout?: string, stderr?: string}} */ (err);
    const out = `${stdout}${stderr}`.trim();
    throw new Error(`${[cmd, ...cmdArgs].join(' ')} failed: ${out || message}`);
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a fresh cluster. Resolves to `{ url, port, dir, stop }` once it accepts connections;
 * `url` is a superuser URL to database `postgres`.
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<import('./pg-cluster.d.mts').ThrowawayCluster>}
 */
export async function startThrowawayCluster({ timeoutMs = 30_000 } = {}) {
  const bin = findPgBinDir();
  if (!bin) {
    throw new Error(
      `PostgreSQL server binaries not found under ${PG_ROOT}/<version>/bin. ` +
        'Install them with: sudo apt-get install postgresql',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'flashbulb-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  if (isRoot) {
    // mkdtemp makes the dir 0700 owned by root; hand it to postgres so it can write there.
    const { stdout: uid } = await execFileAsync('id', ['-u', 'postgres'], {
      encoding: 'utf8',
    });
    const { stdout: gid } = await execFileAsync('id', ['-g', 'postgres'], {
      encoding: 'utf8',
    });
    chownSync(dir, Number(uid.trim()), Number(gid.trim()));
  }

  const pgCtlStop = ['stop', '-D', dataDir, '-m', 'immediate', '-w'];
  let stopped = false;
  // Last resort when the owning process exits without calling stop() (an interrupted Vitest run
  // calls process.exit): 'exit' handlers must be synchronous.
  const stopOnExit = () => {
    stopped = true;
    try {
      const [cmd, args] = pgCommand(join(bin, 'pg_ctl'), pgCtlStop);
      execFileSync(cmd, args, { stdio: 'ignore' });
    } catch {
      // not running
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopOnExit);
    try {
      await run(join(bin, 'pg_ctl'), pgCtlStop);
    } catch {
      // not running (start failed, or already gone): nothing to stop
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await run(join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    const port = await freePort();
    const postgresOpts = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    await run(join(bin, 'pg_ctl'), ['start', '-D', dataDir, '-l', logFile, '-o', postgresOpts]);

    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await execFileAsync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
        break;
      } catch {
        if (Date.now() > deadline) {
          throw new Error(
            `PostgreSQL did not become ready within ${timeoutMs} ms (log: ${logFile})`,
          );
        }
        await sleep(100);
      }
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    return { url, port, dir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// CLI mode: node scripts/pg-cluster.mjs
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cluster = await startThrowawayCluster();
  console.log(cluster.url);
  console.error(`(data in ${cluster.dir}; Ctrl-C stops the cluster and deletes it)`);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // keep the process alive until a signal arrives
  setInterval(() => {}, 1 << 30);
}
