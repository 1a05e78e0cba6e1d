// The engine rule of the server suite (server-engines.ts): the list names real files, the files
// that are about the engine are on it, and the Vitest projects follow it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';
import { BOTH_ENGINES, postgresIncludes, SERVER_TEST_DIR } from './server-engines.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Every server test file, as a path under SERVER_TEST_DIR (`<domain>/<name>.test.ts`). */
const serverTests = readdirSync(path.join(repoRoot, SERVER_TEST_DIR), { recursive: true })
  .map((name) => String(name).split(path.sep).join('/'))
  .filter((name) => name.endsWith('.test.ts'));

interface Project {
  test?: { name?: string; include?: string[]; exclude?: string[] };
}
const project = (name: string): Project | undefined =>
  (config.test?.projects as Project[] | undefined)?.find((p) => p.test?.name === name);

describe('server test engines', () => {
  it('lists only server test files that exist, each once', () => {
    for (const file of BOTH_ENGINES) expect(serverTests, file).toContain(file);
    expect(new Set(BOTH_ENGINES).size).toBe(BOTH_ENGINES.length);
  });

  it('lists every file that branches on the engine or asks for an untouched database', () => {
    const aboutTheEngine = serverTests.filter((file) =>
      /FLASHBULB_TEST_DB|createEmptyPgDatabase|empty: true/.test(
        readFileSync(path.join(repoRoot, SERVER_TEST_DIR, file), 'utf8'),
      ),
    );
    expect(aboutTheEngine.length).toBeGreaterThan(0);
    for (const file of aboutTheEngine) expect(BOTH_ENGINES, file).toContain(file);
  });

  it('runs every server file on PGlite and the listed ones on PostgreSQL', () => {
    expect(project('server-pglite')?.test?.include).toEqual([`${SERVER_TEST_DIR}/**/*.test.ts`]);
    // …but the unit tests, which touch no database: project server-unit runs them, on no engine.
    const unitTests = `${SERVER_TEST_DIR}/**/*.unit.test.ts`;
    expect(project('server-pglite')?.test?.exclude).toContain(unitTests);
    expect(project('server-unit')?.test?.include).toEqual([unitTests]);
    for (const file of BOTH_ENGINES)
      expect(file, 'a unit test has no engine').not.toMatch(/\.unit\.test\.ts$/);
    const allEngines = process.env.FLASHBULB_TEST_ALL_ENGINES === '1';
    expect(project('server-pg')?.test?.include).toEqual(postgresIncludes(allEngines));
    if (!allEngines) expect(project('server-pg')?.test?.include).toHaveLength(BOTH_ENGINES.length);
    for (const include of postgresIncludes(false)) expect(existsSync(include)).toBe(true);
  });
});
