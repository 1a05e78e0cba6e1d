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

const CONSOLE_FILE = 'features/events/editor/components/events-page.tsx';
const GUEST_FILE = 'guest/features/album/components/album-view.tsx';
const GUEST_SHARED_FILE = 'guest/shared/components/guest-photo-grid.tsx';

/** The one message of this rule that `code` gets as the file at `relative`. */
const refusal = (relative: string, code: string) => {
  const messages = lint(relative, code);
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({ ruleId: RULE, severity: 2, line: 1 });
  return messages[0]?.message ?? '';
};

describe('no imports across features', () => {
  it.each([
    ['a sibling file of the same feature', "import { x } from './event-editor-modal.tsx';"],
    ['another folder of the same feature', "import { x } from '../api/events-api.ts';"],
    [
      'the same feature by a long relative path',
      "import { x } from '../../../events/editor/api/a.ts';",
    ],
    ['src/lib', "import { callApi } from '../../../../lib/api-client.ts';"],
    ['src/components', "import { Popup } from '../../../../components/popup.tsx';"],
    ['the design system', "import { Icon } from '../../../../design/icons.tsx';"],
    ['the shared package', "import { endpoints } from '@flashbulb/shared';"],
    ['a library', "import { useQuery } from '@tanstack/react-query';"],
  ])('lets a console feature import %s', (_what, code) => {
    expect(lint(CONSOLE_FILE, code)).toEqual([]);
  });

  it.each([
    [
      'a screen of another domain',
      "import { x } from '../../../albums/console-album/api/console-album-api.ts';",
      'albums/console-album',
    ],
    [
      'another screen of the same domain',
      "import { x } from '../../../attendees/leads/api/leads-api.ts';",
      'attendees/leads',
    ],
    [
      'a path through features/',
      "import { x } from '../../../../features/payments/orders/api/orders-api.ts';",
      'payments/orders',
    ],
    [
      'an @/ alias',
      "import { x } from '@/features/albums/console-album/components/console-photo-grid.tsx';",
      'albums/console-album',
    ],
    [
      'a src/ alias',
      "import { x } from 'src/features/attendees/attendee-list/api/attendees-api.ts';",
      'attendees/attendee-list',
    ],
    [
      'a type only',
      "import type { X } from '../../../identity/auth/api/auth-api.ts';",
      'identity/auth',
    ],
    [
      'a re-export',
      "export { x } from '../../../printing/image-edit/utils/edit-geometry.ts';",
      'printing/image-edit',
    ],
    [
      'a re-export of everything',
      "export * from '../../../messaging/outbox/api/outbox-api.ts';",
      'messaging/outbox',
    ],
    [
      'a lazy import',
      "const Page = () => import('../../../attendees/attendee-list/components/attendees-page.tsx');",
      'attendees/attendee-list',
    ],
  ])('refuses %s in a console feature, naming both features', (_what, code, to) => {
    expect(refusal(CONSOLE_FILE, code)).toContain(
      `Feature 'events/editor' imports feature '${to}'`,
    );
  });

  it.each([
    ['a guest feature', "import { x } from '../../../../guest/features/album/api/mini-album.ts';"],
    ['guest/shared', "import { x } from '../../../../guest/shared/api/album-event.ts';"],
    ['the guest root', "import('../../../../guest/app/albums-root.tsx');"],
    ['guest code by alias', "import { x } from '@/guest/shared/components/icons.tsx';"],
  ])('refuses %s in a console feature', (_what, code) => {
    expect(refusal(CONSOLE_FILE, code)).toContain("Console code ('events/editor') imports guest");
  });

  it.each([
    ['a sibling file of the same feature', "import { x } from './album-cover.tsx';"],
    ['another folder of the same feature', "import { x } from '../api/mini-album.ts';"],
    ['guest/shared', "import { x } from '../../../shared/components/icons.tsx';"],
    ['src/lib', "import { callApi } from '../../../../lib/api-client.ts';"],
    ['src/i18n', "import { enAlbums } from '../../../../i18n/en-albums.ts';"],
    ['the design system', "import { Icon } from '../../../../design/icons.tsx';"],
  ])('lets a guest feature import %s', (_what, code) => {
    expect(lint(GUEST_FILE, code)).toEqual([]);
  });

  it.each([
    [
      'another guest feature',
      "import { x } from '../../kiosk/components/kiosk-screen.tsx';",
      "Feature 'guest/album' imports feature 'guest/kiosk'",
    ],
    [
      'another guest feature, type only',
      "import type { X } from '../../checkout/components/paid-album-panel.tsx';",
      "Feature 'guest/album' imports feature 'guest/checkout'",
    ],
    [
      'another guest feature, lazily',
      "const F = () => import('../../faces/components/face-lookup.tsx');",
      "Feature 'guest/album' imports feature 'guest/faces'",
    ],
    [
      'a console feature',
      "import { x } from '../../../../features/albums/console-album/api/console-album-api.ts';",
      "Guest code ('guest/album') imports console code 'albums/console-album'",
    ],
    [
      'a console feature by alias',
      "export * from 'src/features/events/editor/api/events-api.ts';",
      "Guest code ('guest/album') imports console code 'events/editor'",
    ],
    [
      'the console app',
      "import { x } from '../../../../app/console-app.tsx';",
      "Guest code ('guest/album') imports console code 'app'",
    ],
  ])('refuses %s in a guest feature', (_what, code, message) => {
    expect(refusal(GUEST_FILE, code)).toContain(message);
  });

  it.each([
    ['a guest feature', "import { x } from '../../features/album/components/album-view.tsx';"],
    ['a guest feature, type only', "import type { X } from '../../features/kiosk/hooks/k.ts';"],
    ['the guest app', "import { x } from '../../app/guest-albums-page.tsx';"],
  ])('refuses %s in guest/shared', (_what, code) => {
    expect(refusal(GUEST_SHARED_FILE, code)).toContain('src/guest/shared imports');
  });

  it('keeps the design system below every feature, console and guest', () => {
    expect(
      refusal('design/icons.tsx', "import { x } from '../features/events/editor/api/a.ts';"),
    ).toContain("src/design imports feature 'events/editor'");
    expect(
      refusal('design/icons.tsx', "import { x } from '../guest/shared/components/icons.tsx';"),
    ).toContain("Console code ('design') imports guest");
  });

  it('refuses a console feature in guest/shared and in the guest app', () => {
    const code = "import { x } from '../../../features/events/editor/api/events-api.ts';";
    expect(refusal(GUEST_SHARED_FILE, code)).toContain("imports console code 'events/editor'");
    expect(
      refusal('guest/app/guest-albums-page.tsx', code.replace('../../../', '../../')),
    ).toContain("Guest code ('guest/app') imports console code 'events/editor'");
  });

  it('lets the guest app compose guest features and guest/shared', () => {
    const code = [
      "import { AlbumView } from '../features/album/components/album-view.tsx';",
      "const K = () => import('../features/kiosk/components/kiosk-screen.tsx');",
      "import { Icon } from '../shared/components/icons.tsx';",
    ].join('\n');
    expect(lint('guest/app/guest-albums-page.tsx', code)).toEqual([]);
  });

  it('lets src/app mount the guest root and nothing else of guest/', () => {
    expect(lint('app/app.tsx', "const R = () => import('../guest/app/albums-root.tsx');")).toEqual(
      [],
    );
    expect(
      refusal(
        'app/app.tsx',
        "import { x } from '../guest/features/album/components/album-view.tsx';",
      ),
    ).toContain("Console code ('app') imports guest code 'guest/album'");
    expect(
      refusal('app/app.tsx', "import { x } from '../guest/app/guest-albums-page.tsx';"),
    ).toContain("imports guest code 'guest/app'");
  });

  it('refuses a feature or guest code in src/lib, src/components and src/i18n, and allows them in src/app and src/test', () => {
    const code =
      "import Page from '../features/albums/console-album/components/console-album-page.tsx';";
    expect(lint('lib/x.ts', code).map((m) => m.message)).toEqual([
      "src/lib imports feature 'albums/console-album' ('../features/albums/console-album/components/console-album-page.tsx'). Shared code must not depend on a feature: move what it needs out of the feature.",
    ]);
    expect(lint('components/x.tsx', code)).toHaveLength(1);
    expect(lint('i18n/x.ts', code)).toHaveLength(1);
    expect(lint('app/console-app.tsx', code)).toEqual([]);
    expect(lint('test/kit.tsx', code)).toEqual([]);
    const guest = "import { x } from '../guest/shared/api/album-event.ts';";
    expect(refusal('lib/x.ts', guest)).toContain("Console code ('lib') imports guest code");
    expect(refusal('components/x.tsx', guest)).toContain('imports guest code');
    expect(lint('test/kit.tsx', guest)).toEqual([]);
    expect(lint('guest-main.tsx', "import R from './guest/app/albums-root.tsx';")).toEqual([]);
  });

  it('is an error for every web source file in the repository configuration', async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    for (const file of [
      GUEST_FILE,
      'features/albums/console-album/api/console-album-api.ts',
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
