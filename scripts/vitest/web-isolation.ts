// Which web test files need a module registry of their own (vitest.config.ts reads this; see
// docs/testing.md, "Cheap set-ups").
//
// The web project runs without isolation: one worker process imports React, Mantine, the texts and
// the app once and runs file after file (40 % less CPU than a fresh registry per file). A file
// that replaces a module with `vi.mock` needs its own registry: the mock is hoisted into that
// file's imports, and in a shared registry it would either come too late (the real module already
// loaded by an earlier file) or stay for the files after it. Those files run in the
// `web-isolated` project.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const TEST_FILE = /\.test\.tsx?$/;
const MOCKS_A_MODULE = /\bvi\.(mock|doMock)\(/;

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(full);
    return TEST_FILE.test(entry.name) ? [full] : [];
  });

/** The web test files (relative to `webRoot`, e.g. `src/a/b.test.tsx`) that call `vi.mock`. */
export const webFilesWithModuleMocks = (webRoot: string): string[] =>
  testFiles(path.join(webRoot, 'src'))
    .filter((file) => MOCKS_A_MODULE.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(webRoot, file).split(path.sep).join('/'))
    .sort();
