// ESLint rule `flashbulb/no-cross-feature-imports` (apps/web, docs/domains/web.md): a feature
// folder (`src/features/<name>/`) imports only itself, `src/lib`, `src/components`, `src/i18n`
// and packages; shared folders import no feature at all. Routes in `src/app/` compose features.
import path from 'node:path';

/** Folders below `src/` that every feature may use and that must not depend on a feature. */
const SHARED_DIRS = new Set(['lib', 'components', 'i18n']);

/** @param {string} p */
const posix = (p) => p.split(path.sep).join('/');

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where a file sits: `{ src, feature }` inside a feature, `{ src, shared }` in a shared folder,
 * null elsewhere (app/, test/, outside the web app).
 * @param {string} file absolute path
 * @returns {{ src: string; feature?: string; shared?: string } | null}
 */
const placeOf = (file) => {
  const inFeature = /^(.*\/src)\/features\/([^/]+)\//.exec(file);
  if (inFeature) return { src: inFeature[1] ?? '', feature: inFeature[2] ?? '' };
  const inShared = /^(.*\/src)\/([^/]+)\//.exec(file);
  if (inShared?.[2] && SHARED_DIRS.has(inShared[2])) {
    return { src: inShared[1] ?? '', shared: inShared[2] };
  }
  return null;
};

/**
 * The feature an import specifier points into, or null. Relative and absolute specifiers are
 * resolved from the importing file; any other specifier (a path alias such as `@/features/x`,
 * `~/features/x` or `src/features/x`) names a feature by its `features/<name>` segment.
 * @param {string} specifier @param {string} file @param {string} src
 * @returns {string | null}
 */
const featureOf = (specifier, file, src) => {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = posix(path.resolve(path.dirname(file), specifier));
    const match = new RegExp(`^${escape(src)}/features/([^/]+)`).exec(target);
    return match?.[1] ?? null;
  }
  return /(?:^|\/)features\/([^/]+)/.exec(specifier)?.[1] ?? null;
};

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Features never import each other; shared folders (lib, components, i18n) import no feature',
    },
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' imports feature '{{to}}' ('{{specifier}}'). Features never import each other: compose them in src/app/, or move what both need to src/lib or src/components.",
      sharedImportsFeature:
        "src/{{from}} imports feature '{{to}}' ('{{specifier}}'). Shared code must not depend on a feature: move what it needs out of the feature.",
    },
  },
  create(context) {
    const file = posix(context.filename);
    const place = placeOf(file);
    if (!place) return {};

    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const specifier = source.value;
      const to = featureOf(specifier, file, place.src);
      if (!to || to === place.feature) return;
      if (place.feature) {
        context.report({
          node: source,
          messageId: 'crossFeature',
          data: { from: place.feature, to, specifier },
        });
      } else {
        context.report({
          node: source,
          messageId: 'sharedImportsFeature',
          data: { from: place.shared ?? '', to, specifier },
        });
      }
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
