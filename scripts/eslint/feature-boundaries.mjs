// ESLint rule `flashbulb/no-cross-feature-imports` (apps/web, docs/domains/web.md). Two apps share
// `src/`: the console (`app/` routes composing `features/<domain>/<screen>/`) and the guest side
// (`guest/`: `guest/app/` composing `guest/features/<f>/`, with `guest/shared/` below them).
//
// - a console feature imports no other console feature and nothing of `guest/`;
// - `lib/`, `components/`, `i18n/`, `design/` import no feature and nothing of `guest/`;
// - `app/` imports of `guest/` only the guest root (`guest/app/albums-root.tsx`), which it mounts;
// - a guest feature imports no other guest feature, no console feature and not `app/`;
// - `guest/shared/` imports no guest feature and not `guest/app/`;
// - nothing in `guest/` imports a console feature or `app/`.
// `test/` and the two entries (`main.tsx`, `guest-main.tsx`) may import anything.
import path from 'node:path';

/** Folders below `src/` that every feature may use and that must not depend on a feature. */
const SHARED_DIRS = new Set(['lib', 'components', 'i18n', 'design']);

/** The module `app/` mounts for guest links: the only file of `guest/` console code may import. */
const GUEST_ROOT = 'guest/app/albums-root';

/** @param {string} p */
const posix = (p) => p.split(path.sep).join('/');

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @typedef {{ kind: 'feature'; name: string }
 *   | { kind: 'guestFeature'; name: string }
 *   | { kind: 'guestShared' }
 *   | { kind: 'guestApp'; path: string }
 *   | { kind: 'app' }
 *   | { kind: 'shared'; name: string }
 *   | { kind: 'other' }} Place
 */

/**
 * What a path below `src/` is. A console feature is `features/<domain>/<screen>`; a file or folder
 * directly in `features/<domain>` counts as the feature `<domain>`.
 * @param {string} rel path relative to `src/`, posix
 * @returns {Place}
 */
const classify = (rel) => {
  const parts = rel.split('/');
  if (parts[0] === 'features' && parts[1]) {
    const screen = parts[2];
    const isScreen = screen !== undefined && (parts.length > 3 || !/\.[a-z]+$/i.test(screen));
    return { kind: 'feature', name: isScreen ? `${parts[1]}/${screen}` : parts[1] };
  }
  if (parts[0] === 'guest') {
    if (parts[1] === 'features' && parts[2]) return { kind: 'guestFeature', name: parts[2] };
    if (parts[1] === 'shared') return { kind: 'guestShared' };
    return { kind: 'guestApp', path: rel };
  }
  if (parts[0] === 'app' && parts.length > 1) return { kind: 'app' };
  if (parts[0] && parts.length > 1 && SHARED_DIRS.has(parts[0])) {
    return { kind: 'shared', name: parts[0] };
  }
  return { kind: 'other' };
};

/**
 * The place an import specifier points to, or null for a package. Relative and absolute
 * specifiers are resolved from the importing file; a path alias (`@/x`, `~/x`, `src/x`, or any
 * specifier with a `src/` segment) names a path below `src/`.
 * @param {string} specifier @param {string} file @param {string} src
 * @returns {Place | null}
 */
const targetOf = (specifier, file, src) => {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = posix(path.resolve(path.dirname(file), specifier));
    const match = new RegExp(`^${escape(src)}/(.+)$`).exec(target);
    return match?.[1] ? classify(match[1]) : null;
  }
  const alias = /^(?:@|~)\/(.+)$/.exec(specifier) ?? /(?:^|\/)src\/(.+)$/.exec(specifier);
  return alias?.[1] ? classify(alias[1]) : null;
};

/** @param {Place} place */
const isConsole = (place) => place.kind === 'feature' || place.kind === 'app';

/** @param {Place} place */
const isGuest = (place) =>
  place.kind === 'guestFeature' || place.kind === 'guestShared' || place.kind === 'guestApp';

/** @param {Place} place */
const nameOf = (place) => {
  switch (place.kind) {
    case 'feature':
      return place.name;
    case 'guestFeature':
      return `guest/${place.name}`;
    case 'guestShared':
      return 'guest/shared';
    case 'guestApp':
      return 'guest/app';
    case 'app':
      return 'app';
    case 'shared':
      return place.name;
    case 'other':
      return '';
  }
};

/**
 * The message id for importing `to` from `from`, or null when allowed.
 * @param {Place} from @param {Place} to
 * @returns {string | null}
 */
const verdict = (from, to) => {
  switch (from.kind) {
    case 'feature':
      if (to.kind === 'feature' && to.name !== from.name) return 'crossFeature';
      if (isGuest(to)) return 'consoleImportsGuest';
      return null;
    case 'shared':
      if (to.kind === 'feature') return 'sharedImportsFeature';
      if (isGuest(to)) return 'consoleImportsGuest';
      return null;
    case 'app':
      if (
        isGuest(to) &&
        !(to.kind === 'guestApp' && to.path.replace(/\.tsx?$/, '') === GUEST_ROOT)
      ) {
        return 'consoleImportsGuest';
      }
      return null;
    case 'guestFeature':
      if (to.kind === 'guestFeature' && to.name !== from.name) return 'crossFeature';
      if (isConsole(to)) return 'guestImportsConsole';
      return null;
    case 'guestShared':
      if (to.kind === 'guestFeature' || to.kind === 'guestApp') return 'guestSharedImportsUp';
      if (isConsole(to)) return 'guestImportsConsole';
      return null;
    case 'guestApp':
      if (isConsole(to)) return 'guestImportsConsole';
      return null;
    case 'other':
      return null;
  }
};

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Features never import each other; shared folders import no feature; console and guest code stay apart',
    },
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' imports feature '{{to}}' ('{{specifier}}'). Features never import each other: compose them in src/app/ (console) or src/guest/app/ (guest), or move what both need to src/lib, src/components or src/guest/shared.",
      sharedImportsFeature:
        "src/{{from}} imports feature '{{to}}' ('{{specifier}}'). Shared code must not depend on a feature: move what it needs out of the feature.",
      consoleImportsGuest:
        "Console code ('{{from}}') imports guest code '{{to}}' ('{{specifier}}'). Only src/app/ mounts the guest root (src/guest/app/albums-root.tsx); move what both need to src/lib or src/components.",
      guestImportsConsole:
        "Guest code ('{{from}}') imports console code '{{to}}' ('{{specifier}}'). The guest app never loads the console: move what both need to src/lib or src/components.",
      guestSharedImportsUp:
        "src/guest/shared imports '{{to}}' ('{{specifier}}'). Guest shared code must not depend on a guest feature or the guest app: move what it needs into src/guest/shared.",
    },
  },
  create(context) {
    const file = posix(context.filename);
    const inSrc = /^(.*\/src)\/(.+)$/.exec(file);
    if (!inSrc?.[1] || !inSrc[2]) return {};
    const src = inSrc[1];
    const from = classify(inSrc[2]);
    if (from.kind === 'other') return {};

    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const specifier = source.value;
      const to = targetOf(specifier, file, src);
      if (!to) return;
      const messageId = verdict(from, to);
      if (!messageId) return;
      context.report({
        node: source,
        messageId,
        data: { from: nameOf(from), to: nameOf(to), specifier },
      });
    };

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default rule;
