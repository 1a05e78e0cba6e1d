// The size rule of services (docs/ARCHITECTURE.md, "Held by tests"): a service file over
// MAX_LINES lines holds several concerns unless its top says why one concern needs the length,
// in a comment that carries MARKER within its first MARKER_WITHIN lines.
// Run: node scripts/service-length.mjs (lists the files that break it; exit 1 when any does).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 350;
export const MARKER = 'Why this file is long:';
export const MARKER_WITHIN = 15;
export const SERVICES_ROOT = 'apps/server/src/services';

/**
 * Lines of a file's text, as `wc -l` and an editor count them (a last line without newline too).
 * @param {string} text
 * @returns {number}
 */
export const lineCount = (text) => {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
};

/**
 * Whether the text's first lines give the reason (a comment line with the marker).
 * @param {string} text
 * @returns {boolean}
 */
export const givesReason = (text) =>
  text
    .split('\n')
    .slice(0, MARKER_WITHIN)
    .some((/** @type {string} */ line) => /^\s*(\/\/|\/\*|\*)/.test(line) && line.includes(MARKER));

/**
 * The problem of one file, or null: too long and no reason at its top.
 * @param {string} file
 * @param {string} text
 * @returns {string | null}
 */
export const lengthProblem = (file, text) => {
  const lines = lineCount(text);
  if (lines <= MAX_LINES || givesReason(text)) return null;
  return `${file}: ${lines} lines (over ${MAX_LINES}) and no "${MARKER}" comment in its first ${MARKER_WITHIN} lines`;
};

/**
 * @param {string} dir
 * @returns {string[]}
 */
const sourceFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });

/**
 * Every service file under `root` (the repository) that breaks the rule.
 * @param {string} root
 * @param {string} [servicesRoot]
 * @returns {string[]}
 */
export const longServices = (root, servicesRoot = SERVICES_ROOT) =>
  sourceFiles(path.join(root, servicesRoot))
    .sort()
    .map((file) => lengthProblem(path.relative(root, file), readFileSync(file, 'utf8')))
    .filter(/** @returns {problem is string} */ (problem) => problem !== null);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = longServices(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  for (const problem of problems) console.log(problem);
  process.exit(problems.length > 0 ? 1 : 0);
}
