#!/usr/bin/env node
// `npm run lint`: ESLint over the whole repo and `prettier --check .`, reporting every problem
// before failing. Type-aware ESLint is single-threaded and builds one TypeScript program per
// tsconfig.json it meets, so the files are split by tsconfig into separate ESLint processes, run
// side by side on the machine's cores: no program is built twice (ESLint's own --concurrency
// hands files to its threads in any order, so each thread would build every program again).
// Together the groups are exactly `eslint .`. Each job's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** @param {string} pkg @param {string} bin the package's bin file (not in its exports) */
const binOf = (pkg, bin) => join(dirname(require.resolve(`${pkg}/package.json`)), bin);
const eslint = binOf('eslint', 'bin/eslint.js');
const prettier = binOf('prettier', 'bin/prettier.cjs');

// Largest first, so the pool ends with the short jobs (CPU seconds measured in docs/testing.md).
const separate = ['apps/web', 'apps/server'];
/** @type {{ name: string, args: string[] }[]} */
const jobs = [
  ...separate.map((dir) => ({ name: `eslint ${dir}`, args: [eslint, dir] })),
  {
    name: 'eslint (the rest)',
    args: [eslint, '.', ...separate.flatMap((dir) => ['--ignore-pattern', `${dir}/**`])],
  },
  { name: 'prettier --check .', args: [prettier, '--check', '.'] },
];

const slots = Math.max(1, Number(process.env.LINT_JOBS) || Math.min(availableParallelism(), 4));

/**
 * @param {{ name: string, args: string[] }} job
 * @returns {Promise<void>}
 */
function run(job) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, job.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The jobs write to a pipe: keep the colours a terminal would show.
      env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
    });
    /** @type {Buffer[]} */
    const out = [];
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
    child.stderr.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
    child.on('close', (code, signal) => {
      const secs = Math.round((Date.now() - started) / 1000);
      const status = code ?? signal;
      process.stdout.write(`[lint] ${job.name}: exit ${status} after ${secs}s\n`);
      process.stdout.write(Buffer.concat(out));
      if (code !== 0) process.exitCode = 1;
      resolve();
    });
  });
}

const queue = [...jobs];
async function worker() {
  for (let job = queue.shift(); job; job = queue.shift()) await run(job);
}
await Promise.all(Array.from({ length: Math.min(slots, jobs.length) }, worker));
