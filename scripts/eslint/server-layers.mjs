// ESLint rule `flashbulb/server-layers` (apps/server/src, docs/ARCHITECTURE.md "A request"): the
// layers of the server hold by lint, not by habit.
// - services/ never import routes/ or http/ (a service does not know how it is called);
// - repositories/ never import services/ (I/O does not know the rules);
// - only access/ compares roles or key types (the permission table decides; services ask it);
// - only repositories/, storage/ and db/ touch SQL, files, images, processes or the network.
// Every import form counts: `import`, `import type`, `export … from` and `import()`.
import path from 'node:path';

/** @param {string} p */
const posix = (p) => p.split(path.sep).join('/');

/**
 * Modules that do I/O: SQL, files, images, processes, the network. Subpaths count too
 * (`drizzle-orm/pg-core`, `@electric-sql/pglite/vector`).
 */
const IO_MODULES = [
  'sharp',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'drizzle-orm',
  'pg',
  '@electric-sql/pglite',
  'child_process',
  'node:child_process',
  'undici',
];

/** @param {string} specifier */
const ioModule = (specifier) =>
  IO_MODULES.find((m) => specifier === m || specifier.startsWith(`${m}/`)) ?? null;

/**
 * Where I/O may live, relative to apps/server/src. Folders end in `/`.
 * - repositories/, storage/, db/: the I/O layers themselves;
 * - lib/data-dir-modes.ts: a thin wrapper over fs (the data folder's modes), no rule in it;
 * - lib/thread-priority.ts: reads /proc to lower the image threads' priority, no rule in it;
 * - cli/: commands are programs of their own on the operator's machine (the print agent drives
 *   CUPS, the robot upload watches a folder); they reach the server only through its API;
 * - app.ts: the composition root serves the built web app from disk;
 * - container/core.ts: the composition root reads or creates the secret key file at start.
 */
const IO_ALLOWED = [
  'repositories/',
  'storage/',
  'db/',
  'lib/data-dir-modes.ts',
  'lib/thread-priority.ts',
  'cli/',
  'app.ts',
  'container/core.ts',
];

/** Role constants are the numbers of `Role` (packages/shared/src/rules/identity.ts). */
const ROLE_ENUMS = new Set(['Role']);
/** The key types of the public twins' keys (`publicKeyTypes` of the contract). */
const KEY_TYPES = new Set(['owner', 'private', 'public', 'attendee', 'robot']);
/** The principal kinds that tell a signed-in user from a key. */
const PRINCIPAL_KINDS = new Set(['key', 'user']);

/** @param {import('estree').Node} node @returns {string | null} */
const propertyName = (node) => {
  if (node.type === 'ChainExpression') return propertyName(node.expression);
  if (node.type !== 'MemberExpression') return null;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string')
    return node.property.value;
  return null;
};

/** @param {import('estree').Node} node @returns {string | null} */
const stringOf = (node) => {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? null;
  return null;
};

/** `Role.ADMIN` or a role number. @param {import('estree').Node} node */
const isRoleConstant = (node) =>
  (node.type === 'MemberExpression' &&
    node.object.type === 'Identifier' &&
    ROLE_ENUMS.has(node.object.name)) ||
  (node.type === 'Literal' && typeof node.value === 'number');

/**
 * Whether comparing `subject` (the member side) with `constant` asks a role or a key type.
 * `config.role === 'api'` (the process role) and `x.kind === 'photo'` are not principals: only
 * the constants of roles, key types and the principal kinds count.
 * @param {import('estree').Node} subject @param {import('estree').Node} constant
 * @returns {string | null} what is compared, for the message
 */
const principalComparison = (subject, constant) => {
  const name = propertyName(subject);
  if (name === 'role' && isRoleConstant(constant)) return 'a role';
  const text = stringOf(constant);
  if (text === null) return null;
  if (name === 'keyType' && KEY_TYPES.has(text)) return 'a key type';
  if (name === 'kind' && PRINCIPAL_KINDS.has(text)) return 'a principal kind';
  return null;
};

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Server layers: services never import routes or http; repositories never import services; only access/ compares roles or key types; only repositories, storage and db do I/O',
    },
    schema: [],
    messages: {
      serviceImportsTransport:
        "A service imports {{layer}}/ ('{{specifier}}'). Services do not know how they are called: move what both need to lib/ or the contract.",
      repositoryImportsService:
        "A repository imports services/ ('{{specifier}}'). Repositories do I/O only: move the rule into the service that calls them.",
      principalComparison:
        'Comparing {{what}} outside access/. Name the rule in access/ (rules.ts or the permission table) and ask it from here.',
      ioImport:
        "'{{specifier}}' is I/O: only repositories/, storage/ and db/ import it. Put the work behind a repository or a storage method.",
      globalFetch:
        'The global fetch is network I/O: only repositories/, storage/ and db/ call it. Put the call behind a repository (an adapter).',
    },
  },
  create(context) {
    const file = posix(context.filename);
    const match = /^(.*\/apps\/server\/src)\/(.+)$/.exec(file);
    if (!match) return {};
    const src = match[1] ?? '';
    const relative = match[2] ?? '';
    const layer = relative.includes('/') ? relative.slice(0, relative.indexOf('/')) : null;
    const ioAllowed = IO_ALLOWED.some((p) =>
      p.endsWith('/') ? relative.startsWith(p) : relative === p,
    );

    /** The layer folder a relative specifier points into, or null. @param {string} specifier */
    const layerOf = (specifier) => {
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) return null;
      const target = posix(path.resolve(path.dirname(file), specifier));
      if (!target.startsWith(`${src}/`)) return null;
      const rest = target.slice(src.length + 1);
      return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : null;
    };

    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (!source) return;
      const specifier = stringOf(source);
      if (specifier === null) return;
      const target = layerOf(specifier);
      if (layer === 'services' && (target === 'routes' || target === 'http')) {
        context.report({
          node: source,
          messageId: 'serviceImportsTransport',
          data: { layer: target, specifier },
        });
      }
      if (layer === 'repositories' && target === 'services') {
        context.report({
          node: source,
          messageId: 'repositoryImportsService',
          data: { specifier },
        });
      }
      if (!ioAllowed && ioModule(specifier)) {
        context.report({ node: source, messageId: 'ioImport', data: { specifier } });
      }
    };

    /** @param {import('estree').Node} node @param {string} what */
    const reportComparison = (node, what) =>
      context.report({ node, messageId: 'principalComparison', data: { what } });

    /** Whether `fetch` at `node` is the global one (no import or local of that name). */
    const isGlobal = (/** @type {import('estree').Node} */ node, /** @type {string} */ name) => {
      /** @type {import('eslint').Scope.Scope | null} */
      let scope = context.sourceCode.getScope(node);
      while (scope) {
        const variable = scope.set.get(name);
        if (variable && variable.defs.length > 0) return false;
        scope = scope.upper;
      }
      return true;
    };

    /** @type {import('eslint').Rule.RuleListener} */
    const listeners = {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
    if (layer !== 'access') {
      listeners.BinaryExpression = (node) => {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        const what =
          principalComparison(node.left, node.right) ?? principalComparison(node.right, node.left);
        if (what) reportComparison(node, what);
      };
      listeners.SwitchStatement = (node) => {
        const name = propertyName(node.discriminant);
        if (name === 'role' || name === 'keyType') {
          reportComparison(node.discriminant, name === 'role' ? 'a role' : 'a key type');
          return;
        }
        if (
          name === 'kind' &&
          node.cases.some((c) => c.test && PRINCIPAL_KINDS.has(stringOf(c.test) ?? ''))
        ) {
          reportComparison(node.discriminant, 'a principal kind');
        }
      };
      // `GATED_KEYS.has(principal.keyType)`, `[Role.ADMIN].includes(actor.role)`: a comparison too.
      listeners.CallExpression = (node) => {
        const method = propertyName(node.callee);
        const argument = node.arguments[0];
        if ((method === 'has' || method === 'includes') && argument) {
          const name = propertyName(argument);
          if (name === 'role' || name === 'keyType')
            reportComparison(node, name === 'role' ? 'a role' : 'a key type');
        }
      };
    }
    if (!ioAllowed) {
      const previous = listeners.CallExpression;
      listeners.CallExpression = (node) => {
        previous?.(node);
        const callee = node.callee;
        if (callee.type === 'Identifier' && callee.name === 'fetch' && isGlobal(node, 'fetch'))
          context.report({ node: callee, messageId: 'globalFetch' });
        if (
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'globalThis' &&
          propertyName(callee) === 'fetch'
        )
          context.report({ node: callee, messageId: 'globalFetch' });
      };
    }
    return listeners;
  },
};

export default rule;
