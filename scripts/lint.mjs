#!/usr/bin/env node
// `npm run lint`: ESLint over the whole repo and `prettier --check .`, reporting every problem
// before failing. Type-aware ESLint is single-threaded and builds one TypeScript program per
// tsconfig.json it meets, so the files are split by tsconfig into separate ESLint processes, run
// side by side on the machine's cores: no program is built twice (ESLint's own --concurrency
// hands files to its threads in any order, so each thread would build every program again).
// Together the groups are exactly `eslint .`. Each job's output is printed whole when it ends.
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runJobPool } from './job-pool.mjs';

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

await runJobPool('lint', jobs, slots);
