#!/usr/bin/env node
// `npm run typecheck`: tsc (no emit) over every TypeScript project of the repo, reporting all of
// them before failing. tsc is single-threaded, so the projects run side by side on the machine's
// cores (largest first); each project's output is printed whole when it ends.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { runJobPool } from './job-pool.mjs';

// Largest first (CPU seconds in docs/testing.md, "CI"), so the pool ends with the short ones.
const projects = ['apps/web', 'apps/server', 'scripts', 'packages/shared'];
// The end-to-end suite gets its own tsconfig (e2e/tsconfig.json) once it has TypeScript files.
if (existsSync('e2e/tsconfig.json')) {
  projects.splice(2, 0, 'e2e');
} else if (existsSync('e2e') && readdirSync('e2e', { recursive: true }).some(isTs)) {
  console.error('[typecheck] e2e/ has TypeScript files but no e2e/tsconfig.json: not checked');
  process.exitCode = 1;
}

/** @param {string | Buffer} name */
function isTs(name) {
  return /\.m?tsx?$/.test(String(name));
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const slots = Math.max(1, Number(process.env.TYPECHECK_JOBS) || availableParallelism());

await runJobPool(
  'typecheck',
  projects.map((project) => ({
    name: `tsc -p ${project}`,
    args: [tsc, '-p', project, '--pretty'],
  })),
  slots,
);
