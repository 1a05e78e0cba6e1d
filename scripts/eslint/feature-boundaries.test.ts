import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import rule from './feature-boundaries.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webSrc = path.join(repoRoot, 'apps/web/src');
const RULE = 'flashbulb/no-cross-feature-imports';

/** Lint `code` as if it were the file at `relative` (below apps/web/src) with only this rule on. */
const lint = (relative: string, code: string) =>
  new Linter({ configType: 'flat' }).verify(
    code,
    [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parser: tseslint.parser },
        plugins: { flashbulb: { rules: { 'no-cross-feature-imports': rule } } },
        rules: { [RULE]: 'error' },
      },
    ],
    { filename: path.join(webSrc, relative) },
  );

const GUEST_FILE = 'features/guest-albums/components/album-view.tsx';

describe('no imports across features', () => {
  it.each([
    ['a sibling file of the same feature', "import { x } from './guest-photo-grid.tsx';"],
    ['another folder of the same feature', "import { x } from '../api/guest-album-photos.ts';"],
    [
      'the same feature by a long relative path',
      "import { x } from '../../guest-albums/api/a.ts';",
    ],
    ['src/lib', "import { callApi } from '../../../lib/api-client.ts';"],
    ['src/components', "import { Popup } from '../../../components/popup.tsx';"],
    ['the shared package', "import { endpoints } from '@flashbulb/shared';"],
    ['a library', "import { useQuery } from '@tanstack/react-query';"],
  ])('lets a feature import %s', (_what, code) => {
    expect(lint(GUEST_FILE, code)).toEqual([]);
  });

  it.each([
    [
      'a relative sibling feature',
      "import { x } from '../../console-album/api/console-album-api.ts';",
      'console-album',
    ],
    [
      'a path through features/',
      "import { x } from '../../../features/events/api/events-api.ts';",
      'events',
    ],
    [
      'an @/ alias',
      "import { x } from '@/features/console-album/components/console-photo-grid.tsx';",
      'console-album',
    ],
    [
      'a src/ alias',
      "import { x } from 'src/features/attendees/api/attendees-api.ts';",
      'attendees',
    ],
    ['a type only', "import type { X } from '../../auth/api/auth-api.ts';", 'auth'],
    ['a re-export', "export { x } from '../../image-edit/utils/edit-geometry.ts';", 'image-edit'],
    ['a re-export of everything', "export * from '../../events/api/events-api.ts';", 'events'],
    [
      'a lazy import',
      "const Page = () => import('../../attendees/components/attendees-page.tsx');",
      'attendees',
    ],
  ])('refuses %s as an error naming both features', (_what, code, to) => {
    const messages = lint(GUEST_FILE, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ ruleId: RULE, severity: 2, line: 1 });
    expect(messages[0]?.message).toContain(`Feature 'guest-albums' imports feature '${to}'`);
  });

  it('refuses a feature in src/lib or src/components, and allows it in src/app and src/test', () => {
    const code = "import Page from '../features/console-album/components/console-album-page.tsx';";
    expect(lint('lib/x.ts', code).map((m) => m.message)).toEqual([
      "src/lib imports feature 'console-album' ('../features/console-album/components/console-album-page.tsx'). Shared code must not depend on a feature: move what it needs out of the feature.",
    ]);
    expect(lint('components/x.tsx', code)).toHaveLength(1);
    expect(lint('app/console-app.tsx', code)).toEqual([]);
    expect(lint('test/kit.tsx', code)).toEqual([]);
  });

  it('is an error for every web source file in the repository configuration', async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    for (const file of [
      GUEST_FILE,
      'features/console-album/api/console-album-api.ts',
      'lib/api-client.ts',
    ]) {
      const config = (await eslint.calculateConfigForFile(path.join(webSrc, file))) as {
        rules: Record<string, unknown>;
        plugins: Record<string, { rules?: Record<string, { meta?: unknown }> }>;
      };
      expect(config.rules[RULE]).toEqual([2]);
      // ESLint loads the config natively, Vitest through Vite: two copies of the same module.
      expect(config.plugins.flashbulb?.rules?.['no-cross-feature-imports']?.meta).toEqual(
        rule.meta,
      );
    }
  });

  it('finds no import across features in apps/web/src today', () => {
    const files = readdirSync(webSrc, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.tsx?$/.test(f),
    );
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((f) =>
      lint(f, readFileSync(path.join(webSrc, f), 'utf8'))
        // Only this rule is on: disable comments for other rules report "rule not found".
        .filter((m) => m.ruleId === RULE)
        .map((m) => `${f}:${m.line} ${m.message}`),
    );
    expect(problems).toEqual([]);
    // Linting the whole web tree takes seconds, more on a loaded two-core machine.
  }, 120_000);
});
