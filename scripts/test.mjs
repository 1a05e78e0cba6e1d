#!/usr/bin/env node
// `npm test`: make sure the system packages the suite needs are present, then run every Vitest
// project. Extra arguments go to Vitest: `npm test -- --project server-pg`.
//
// The suite needs these Debian packages (see docs/testing.md):
//   chromium    — the end-to-end journeys drive /usr/bin/chromium through playwright-core
//   postgresql  — the server-pg project starts a throwaway cluster (scripts/pg-cluster.mjs)
//   cups, printer-driver-cups-pdf — the printing tests start their own cupsd in a temp dir
//                 (apps/server/test/helpers/cups.ts); no system CUPS service is used
//   nginx, openssl — e2e/proxy.e2e.test.ts runs deploy/nginx/flashbulb.conf in front of the server
//                 with a certificate it makes; its own nginx instance, no system service
// As root (CI, fresh containers) we install them with apt-get; otherwise we say what to install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findPgBinDir } from './pg-cluster.mjs';

const CHROMIUM = '/usr/bin/chromium';
const PG_BINARIES = ['initdb', 'pg_ctl', 'postgres', 'pg_isready'];
/** The printing tests' private CUPS: the scheduler, its admin commands, the PDF filters. */
const CUPS_FILES = ['/usr/sbin/cupsd', '/usr/sbin/lpadmin', '/usr/bin/lp', '/usr/bin/lpstat'];
const CUPS_PDF_BACKEND = '/usr/lib/cups/backend/cups-pdf';
const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';

function missingPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  const bin = findPgBinDir();
  if (!bin || !PG_BINARIES.every((b) => existsSync(`${bin}/${b}`))) missing.push('postgresql');
  if (!CUPS_FILES.every((f) => existsSync(f))) missing.push('cups');
  if (!existsSync(CUPS_PDF_BACKEND)) missing.push('printer-driver-cups-pdf');
  if (!existsSync(NGINX)) missing.push('nginx');
  if (!existsSync(OPENSSL)) missing.push('openssl');
  return missing;
}

/** @param {string} cmd @param {string[]} args @returns {number} exit status */
function run(cmd, args, env = process.env) {
  console.log(`[test] $ ${[cmd, ...args].join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

let missing = missingPackages();
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `[test] Missing system packages: ${missing.join(', ')}.\n` +
        `[test] Install them and run again:\n\n    sudo apt-get install ${missing.join(' ')}\n`,
    );
    process.exit(1);
  }
  console.log(`[test] Missing system packages: ${missing.join(', ')}; installing with apt-get.`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update'], aptEnv) !== 0) {
    console.error('[test] apt-get update failed');
    process.exit(1);
  }
  if (run('apt-get', ['install', '-y', ...missing], aptEnv) !== 0) {
    console.error(`[test] apt-get install ${missing.join(' ')} failed`);
    process.exit(1);
  }
  missing = missingPackages();
  if (missing.length > 0) {
    console.error(`[test] Still missing after apt-get install: ${missing.join(', ')}`);
    process.exit(1);
  }
}

// Run the Vitest of this repo with the same Node, whatever the caller's PATH.
const require = createRequire(import.meta.url);
const vitestPkg = require.resolve('vitest/package.json');
const vitestBin = join(dirname(vitestPkg), 'vitest.mjs');

// One Vitest process: its sequencer runs the journeys beside the other projects, one at a time
// (scripts/vitest/sequencer.ts, docs/testing.md "The schedule").
const args = [vitestBin, 'run', ...process.argv.slice(2)];
console.log(`[test] $ vitest ${args.slice(1).join(' ')}`);
const child = spawn(process.execPath, args, { stdio: 'inherit' });

// Ctrl-C reaches Vitest directly (same process group): wait for it to clean up (it stops the
// throwaway PostgreSQL on its way out) instead of dying first. A SIGTERM is passed on once, as
// SIGINT: Vitest handles one of each, and a second identical signal (the group got it too)
// would kill it before its cleanup.
let forwarded = false;
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  if (forwarded) return;
  forwarded = true;
  child.kill('SIGINT');
});

child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
