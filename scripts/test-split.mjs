// How `npm test` splits one Vitest run in two processes that run side by side: the browser
// journeys (project e2e, one file at a time) and every other project (two workers). The journeys
// used to run after the rest, with one of the two cores mostly idle for six minutes; side by side
// the run keeps both cores busy (docs/testing.md, "Run time").
//
// Pure functions of the command line and of Vitest's JSON reports; the test:
// scripts/test-split.test.ts.

import { existsSync, readFileSync } from 'node:fs';

export const E2E_PROJECT = 'e2e';

/**
 * @param {string[]} args Vitest arguments after `vitest run`
 * @returns {{ projects: string[], rest: string[] }} the `--project` filters and every other argument
 */
export function parseProjects(args) {
  /** @type {string[]} */
  const projects = [];
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    if (arg === '--project' && next !== undefined) {
      projects.push(next);
      i += 1;
    } else if (arg.startsWith('--project=')) {
      projects.push(arg.slice('--project='.length));
    } else {
      rest.push(arg);
    }
  }
  return { projects, rest };
}

/**
 * The one option whose value is a file both processes would write: the JSON report.
 * @param {string[]} args
 * @returns {string | undefined}
 */
export function jsonReportFile(args) {
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith('--outputFile.json=')) return arg.slice('--outputFile.json='.length);
    if (arg === '--outputFile.json' && args[i + 1] !== undefined) return args[i + 1];
  }
  return undefined;
}

/** @param {string[]} args @param {string} file */
const withJsonReport = (args, file) => {
  /** @type {string[]} */
  const out = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg.startsWith('--outputFile.json=')) out.push(`--outputFile.json=${file}`);
    else if (arg === '--outputFile.json' && args[i + 1] !== undefined) {
      out.push(`--outputFile.json=${file}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
};

/**
 * The Vitest runs for a command line: one run, or the journeys and the rest side by side. Split
 * only when the journeys and at least one other project are both selected and nothing narrows
 * the run to files or tests (a positional filter, `-t`), where one process is simpler to read.
 *
 * @param {string[]} args Vitest arguments after `vitest run`
 * @param {{ split?: boolean }} [options] `split`: run the journeys beside the rest (FLASHBULB_TEST_SPLIT=1)
 * @returns {{ name: string, args: string[], report?: string }[]}
 */
export function planRuns(args, options = {}) {
  const { projects, rest } = parseProjects(args);
  const narrowed = rest.some(
    (arg, i) =>
      arg === '-t' ||
      arg.startsWith('--testNamePattern') ||
      (!arg.startsWith('-') && !isOptionValue(rest, i)),
  );
  const selectsE2e = projects.length === 0 || projects.includes(E2E_PROJECT);
  const others = projects.filter((p) => p !== E2E_PROJECT);
  const selectsOthers = projects.length === 0 || others.length > 0;
  if (!options.split || narrowed || !selectsE2e || !selectsOthers) return [{ name: 'all', args }];

  const report = jsonReportFile(rest);
  const restProjects =
    projects.length === 0
      ? ['--project', `!${E2E_PROJECT}`]
      : others.flatMap((p) => ['--project', p]);
  return [
    {
      name: 'rest',
      args: [...restProjects, ...(report ? withJsonReport(rest, `${report}.rest`) : rest)],
      ...(report ? { report: `${report}.rest` } : {}),
    },
    {
      name: E2E_PROJECT,
      args: ['--project', E2E_PROJECT, ...(report ? withJsonReport(rest, `${report}.e2e`) : rest)],
      ...(report ? { report: `${report}.e2e` } : {}),
    },
  ];
}

/** Options of ours that take a separate value (so the value is not a positional filter). */
const VALUED = new Set(['--reporter', '--outputFile.json', '--maxWorkers', '--shard', '--config']);

/** @param {string[]} args @param {number} i */
const isOptionValue = (args, i) => i > 0 && VALUED.has(args[i - 1] ?? '');

/**
 * One JSON report out of several: counts added, results concatenated, success only when every
 * part succeeded. A part that is missing (its process died before writing) makes the whole fail.
 *
 * @param {(Record<string, unknown> | undefined)[]} parts
 * @returns {Record<string, unknown>}
 */
export function mergeReports(parts) {
  /** @type {Record<string, unknown>} */
  const merged = { success: true, testResults: [] };
  for (const part of parts) {
    if (!part) {
      merged.success = false;
      continue;
    }
    for (const [key, value] of Object.entries(part)) {
      if (key === 'testResults' && Array.isArray(value)) {
        /** @type {unknown[]} */
        const list = /** @type {unknown[]} */ (merged.testResults);
        for (let i = 0; i < value.length; i += 1) list.push(value[i]);
      } else if (key === 'success') {
        merged.success = merged.success === true && value === true;
      } else if (key === 'startTime' && typeof value === 'number') {
        merged.startTime =
          typeof merged.startTime === 'number' ? Math.min(merged.startTime, value) : value;
      } else if (typeof value === 'number') {
        merged[key] =
          (typeof merged[key] === 'number' ? /** @type {number} */ (merged[key]) : 0) + value;
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  return merged;
}

/**
 * A JSON report written by one of the runs, or undefined when its process wrote none.
 * @param {string} file
 * @returns {Record<string, unknown> | undefined}
 */
export function readReport(file) {
  if (!existsSync(file)) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a Vitest JSON report
  const report = /** @type {Record<string, unknown>} */ (JSON.parse(readFileSync(file, 'utf8')));
  return report;
}
