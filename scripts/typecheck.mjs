#!/usr/bin/env node
// `npm run typecheck`: tsc (no emit) over every TypeScript project of the repo, reporting all of
// them before failing. tsc is single-threaded, so the projects run side by side on the machine's
// cores (largest first); each project's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

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

/**
 * @param {string} project
 * @returns {Promise<void>}
 */
function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project, '--pretty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    /** @type {Buffer[]} */
    const out = [];
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
    child.stderr.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
    child.on('close', (code, signal) => {
      const secs = Math.round((Date.now() - started) / 1000);
      process.stdout.write(
        `[typecheck] tsc -p ${project}: exit ${code ?? signal} after ${secs}s\n`,
      );
      process.stdout.write(Buffer.concat(out));
      if (code !== 0) process.exitCode = 1;
      resolve();
    });
  });
}

const queue = [...projects];
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) await check(project);
}
await Promise.all(Array.from({ length: Math.min(slots, projects.length) }, worker));
