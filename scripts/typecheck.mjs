#!/usr/bin/env node
// `npm run typecheck`: tsc (no emit) over every TypeScript project of the repo, one after the
// other, reporting all of them before failing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const projects = ['packages/shared', 'apps/server', 'apps/web', 'scripts'];
// The end-to-end suite gets its own tsconfig (e2e/tsconfig.json) once it has TypeScript files.
if (existsSync('e2e/tsconfig.json')) {
  projects.push('e2e');
} else if (existsSync('e2e') && readdirSync('e2e', { recursive: true }).some(isTs)) {
  console.error('[typecheck] e2e/ has TypeScript files but no e2e/tsconfig.json: not checked');
  process.exitCode = 1;
}

/** @param {string | Buffer} name */
function isTs(name) {
  return /\.m?tsx?$/.test(String(name));
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const project of projects) {
  console.log(`[typecheck] tsc -p ${project}`);
  const res = spawnSync(process.execPath, [tsc, '-p', project, '--pretty'], { stdio: 'inherit' });
  if (res.status !== 0) process.exitCode = 1;
}
