#!/usr/bin/env node
// Prints the failed tests of a Vitest JSON report, one line each with the first line of the
// error, so the end of a CI log (often all that is shown of it) says what failed. The first few
// failures get a few more lines: what Playwright was waiting for, and a journey's page state and
// last server lines (e2e/support/journey.ts, withServerLog).
// Errors outside any test (an unhandled rejection, a worker that died) fail a run without a failed
// test in the report; with the run's log given, its "Unhandled Errors" section is printed too.
// Usage: node scripts/ci-failures.mjs <report.json> [run.log] [max lines]
import { existsSync, readFileSync } from 'node:fs';

const [file, logFile, maxArg] = process.argv.slice(2);
const max = Number(maxArg ?? 40);

// Colour codes of the terminal reporter.
// eslint-disable-next-line no-control-regex
const COLOURS = /\u001b\[[0-9;]*m/g;

/**
 * The log's section about errors outside tests, without colours, at most `limit` lines.
 * @param {string | undefined} path
 * @param {number} limit
 * @returns {string[]}
 */
function errorsOutsideTests(path, limit) {
  if (!path || !existsSync(path)) return [];
  const log = readFileSync(path, 'utf8').replace(COLOURS, '').split('\n');
  const start = log.findIndex((line) =>
    /Unhandled (Errors?|Rejection)|Errors? occurred while/.test(line),
  );
  return start < 0 ? [] : log.slice(start, start + limit);
}

const outside = errorsOutsideTests(logFile, 30);
if (outside.length > 0) {
  console.log('\n::: errors outside tests');
  for (const line of outside) console.log(`  ${line}`);
}
if (!file || !existsSync(file)) process.exit(0);
/**
 * @typedef {{ title: string, status: string, failureMessages?: string[] }} Assertion
 * @typedef {{ name: string, status: string, message?: string, assertionResults?: Assertion[] }} FileResult
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a Vitest JSON report
const report = /** @type {{ testResults?: FileResult[] }} */ (
  JSON.parse(readFileSync(file, 'utf8'))
);
const root = process.cwd() + '/';
const lines = [];
let detailed = 0;
let failures = 0;
/** Failures that get detail lines, and the most lines each. */
const DETAILED = 3;
const DETAIL_LINES = 12;

/**
 * The lines of a failure message worth reading at the end of a log: Playwright's "waiting for"
 * lines, the journey's page block and the last lines of its server's output.
 * @param {string} message
 * @returns {string[]}
 */
function details(message) {
  const all = message.replace(COLOURS, '').split('\n');
  const waiting = all.filter((line) => /waiting for/.test(line)).slice(0, 2);
  const pageAt = all.indexOf('--- page ---');
  const serverAt = all.indexOf('--- server output ---');
  const page = pageAt < 0 ? [] : all.slice(pageAt + 1, serverAt < 0 ? pageAt + 5 : serverAt);
  const serverEnd = all.indexOf('--- end of server output ---');
  const server =
    serverAt < 0
      ? []
      : all
          .slice(serverAt + 1, serverEnd < 0 ? undefined : serverEnd)
          .filter((line) => line.trim() !== '')
          .slice(-4);
  return [...waiting, ...page, ...(server.length > 0 ? ['server:', ...server] : [])]
    .slice(0, DETAIL_LINES)
    .map((line) => line.trim().slice(0, 300));
}

for (const result of report.testResults ?? []) {
  const name = String(result.name).replace(root, '');
  const failed = (result.assertionResults ?? []).filter((a) => a.status === 'failed');
  if (failed.length === 0 && result.status === 'failed')
    lines.push(
      `${name}: ${String(result.message ?? '')
        .split('\n', 1)
        .join('')
        .slice(0, 200)}`,
    );
  failures += failed.length;
  if (failed.length === 0 && result.status === 'failed') failures += 1;
  for (const a of failed) {
    const first = String(a.failureMessages?.[0] ?? '')
      .split('\n', 1)
      .join('')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .slice(0, 200);
    lines.push(`${name} > ${a.title.slice(0, 100)}: ${first}`);
    if (detailed < DETAILED) {
      detailed += 1;
      for (const line of details(String(a.failureMessages?.[0] ?? ''))) lines.push(`    ${line}`);
    }
  }
}
if (lines.length === 0) process.exit(0);
console.log(`\n::: failed tests (${failures})`);
for (const line of lines.slice(0, max)) console.log(`  ${line}`);
if (lines.length > max) console.log(`  … and ${lines.length - max} more`);
