// Refreshes scripts/vitest/file-durations.json, the measured durations the sequencer orders the
// test files by (sequencer.ts, docs/testing.md "The schedule"), from a whole run:
//
//   npm test -- --reporter=default --reporter=json --outputFile.json=report.json
//   npx tsx scripts/vitest/file-durations.ts report.json --root <the clone that ran it> \
//     --note "fresh clone of main at <commit>, <date>, quiet machine"
//
// It reads either kind of file Vitest writes:
//  - its cache, `node_modules/.vite/vitest/<hash>/results.json`, written after every run: each
//    file's whole time (imports and hooks included), keyed by project. The better source.
//  - a JSON report (`--reporter=json`): each file from its first test's start to its last test's
//    end (no imports, no `beforeAll`), and no project: the project is told from the path, and a
//    server file that runs on both engines gets the longer of its two entries for both.
// `--root` names the clone a report was made in (its paths are absolute). Later files win over
// earlier ones. Entries of files that no longer exist are dropped; files the
// inputs do not name keep their entry.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOTH_ENGINES, SERVER_TEST_DIR } from './server-engines.ts';
import { DURATIONS_FILE, fileKey } from './schedule.ts';
import { WEB_HAPPY_DOM_FILES } from './web-dom.ts';
import { webFilesWithModuleMocks } from './web-isolation.ts';

const WEB_ROOT = 'apps/web';

/** The projects a test file (relative to the repository) runs in, by the rules of vitest.config.ts. */
export function projectsOfPath(file: string, webMocked: ReadonlySet<string>): string[] {
  if (file.startsWith('e2e/')) return ['e2e'];
  if (file.startsWith('packages/shared/')) return ['shared'];
  if (file.startsWith('scripts/')) return ['tooling'];
  if (file.startsWith(`${SERVER_TEST_DIR}/`)) {
    if (file.endsWith('.unit.test.ts')) return ['server-unit'];
    const inner = file.slice(SERVER_TEST_DIR.length + 1);
    return BOTH_ENGINES.includes(inner) ? ['server-pglite', 'server-pg'] : ['server-pglite'];
  }
  if (file.startsWith(`${WEB_ROOT}/`)) {
    const inWeb = file.slice(WEB_ROOT.length + 1);
    if (webMocked.has(inWeb)) return ['web-isolated'];
    return [WEB_HAPPY_DOM_FILES.includes(inWeb) ? 'web-happy-dom' : 'web'];
  }
  return [];
}

interface CacheFile {
  results: [string, { duration?: number }][];
}
interface JsonReport {
  testResults: { name: string; startTime: number; endTime: number }[];
}

/**
 * The durations (ms, keyed like the table) in one parsed Vitest cache or JSON report.
 * @param root the repository root the report's absolute paths start with
 */
export function durationsOf(
  input: unknown,
  root: string,
  webMocked: ReadonlySet<string>,
): Map<string, number> {
  const found = new Map<string, number>();
  if (typeof input !== 'object' || input === null) return found;
  if ('results' in input && Array.isArray((input as CacheFile).results)) {
    for (const [key, value] of (input as CacheFile).results) {
      if (typeof value.duration === 'number' && key.includes(':')) found.set(key, value.duration);
    }
    return found;
  }
  if ('testResults' in input && Array.isArray((input as JsonReport).testResults)) {
    for (const result of (input as JsonReport).testResults) {
      const file = path.relative(root, result.name).split(path.sep).join('/');
      const ms = result.endTime - result.startTime;
      for (const project of projectsOfPath(file, webMocked)) {
        const key = fileKey(project, file);
        found.set(key, Math.max(found.get(key) ?? 0, ms));
      }
    }
  }
  return found;
}

/** The new table: the old one, each input over it in turn, without files that are gone. */
export function mergeDurations(
  old: Readonly<Record<string, number>>,
  inputs: readonly Map<string, number>[],
  exists: (file: string) => boolean,
): Record<string, number> {
  const merged = new Map(Object.entries(old));
  for (const input of inputs) for (const [key, ms] of input) merged.set(key, ms);
  const table: Record<string, number> = {};
  for (const key of [...merged.keys()].sort()) {
    const ms = merged.get(key) ?? 0;
    if (exists(key.slice(key.indexOf(':') + 1))) table[key] = Math.round(ms / 100) * 100;
  }
  return table;
}

/** `--name value` options and the other arguments. */
const parseArgs = (argv: string[]): { options: Map<string, string>; files: string[] } => {
  const options = new Map<string, string>();
  const files: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      options.set(arg.slice(2), argv[i + 1] ?? '');
      i += 1;
    } else files.push(arg);
  }
  return { options, files };
};

const main = (argv: string[]): void => {
  const { options, files } = parseArgs(argv);
  if (files.length === 0) {
    console.error(
      'usage: npx tsx scripts/vitest/file-durations.ts <cache or report.json>… [--root <clone>] [--note "…"]',
    );
    process.exit(2);
  }
  const note = options.get('note');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  // A report holds absolute paths: those of the clone that ran it (a fresh clone elsewhere).
  const reportRoot = path.resolve(options.get('root') ?? root);
  const webMocked = new Set(webFilesWithModuleMocks(path.join(root, WEB_ROOT)));
  const target = path.join(root, DURATIONS_FILE);
  const previous = existsSync(target)
    ? (JSON.parse(readFileSync(target, 'utf8')) as {
        note?: string;
        durations?: Record<string, number>;
      })
    : {};
  const inputs = files.map((file) =>
    durationsOf(JSON.parse(readFileSync(file, 'utf8')), reportRoot, webMocked),
  );
  const durations = mergeDurations(previous.durations ?? {}, inputs, (file) =>
    existsSync(path.join(root, file)),
  );
  const body = {
    about:
      'Measured duration (ms) of each test file, keyed <project>:<path>; the test sequencer runs the longest first (scripts/vitest/sequencer.ts). Refresh: npx tsx scripts/vitest/file-durations.ts <Vitest cache or JSON report> (docs/testing.md, "The schedule").',
    note: note ?? previous.note ?? '',
    durations,
  };
  writeFileSync(target, `${JSON.stringify(body, null, 2)}\n`);
  const counted = inputs.reduce((sum, input) => sum + input.size, 0);
  console.log(
    `${DURATIONS_FILE}: ${Object.keys(durations).length} files (${counted} measured now)`,
  );
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
