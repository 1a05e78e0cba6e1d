// ESLint rule `flashbulb/server-layers` (apps/server/src, docs/ARCHITECTURE.md "Shape"): the
// layers of the server hold by lint, not by habit.
// - services/ never import routes/ or http/ (a service does not know how it is called);
// - repositories/ never import services/ (I/O does not know the rules);
// - only access/ compares roles or key types (the permission table decides; services ask it);
// - only repositories/, storage/ and db/ touch SQL, files, images, processes or the network.
// Every import form counts: `import`, `import type`, `export … from`, `import()`, the type
// `import('…').T`, `require('…')` and `import x = require('…')`.
import path from 'node:path';

/**
 * The fields of typescript-eslint's nodes the rule reads (its import and export forms, calls).
 * @typedef {{ type: string; name?: string; value?: unknown }} TsName
 * @typedef {{ type: string; importKind?: string; exportKind?: string; imported?: TsName;
 *   local?: TsName }} TsPart
 * @typedef {{ type: string; importKind?: string; exportKind?: string; specifiers?: TsPart[];
 *   source?: import('estree').Node | null;
 *   moduleReference?: { type: string; expression: import('estree').Node };
 *   callee?: TsName; arguments?: import('estree').Node[] }} TsNode
 */

/** @param {string} p */
const posix = (p) => p.split(path.sep).join('/');

/**
 * Modules that do I/O: SQL, files, images, video, processes, the network. Subpaths count too
 * (`drizzle-orm/pg-core`, `@electric-sql/pglite/vector`); a name ending in `-` is a family
 * (`@electric-sql/pglite-pgvector`), one ending in `/` a scope (`@aws-sdk/client-s3`).
 */
const IO_MODULES = [
  'sharp',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'drizzle-orm',
  'pg',
  'pg-boss',
  '@electric-sql/pglite',
  '@electric-sql/pglite-',
  'child_process',
  'node:child_process',
  '@ffmpeg-installer/',
  '@ffprobe-installer/',
  'fluent-ffmpeg',
  'ffmpeg-static',
  'undici',
  'https',
  'node:https',
  'dns',
  'node:dns',
  'tls',
  'node:tls',
  'dgram',
  'node:dgram',
  'nodemailer',
  '@aws-sdk/',
];

/**
 * `http` and `net` also hold what is no I/O (`STATUS_CODES`, `isIP`, the `Socket` type): only
 * their connecting and serving members count, and a default or namespace import of them.
 */
const NETWORK_MEMBERS = {
  http: new Set(['request', 'get', 'createServer', 'Agent', 'ClientRequest']),
  net: new Set(['connect', 'createConnection', 'createServer', 'Socket', 'Server']),
};

/** @param {string} specifier */
const ioModule = (specifier) =>
  IO_MODULES.find((m) =>
    m.endsWith('/') || m.endsWith('-')
      ? specifier.startsWith(m)
      : specifier === m || specifier.startsWith(`${m}/`),
  ) ?? null;

/** `http` or `net` (with or without `node:`), or null. @param {string} specifier */
const memberModule = (specifier) => {
  const name = specifier.replace(/^node:/, '');
  return name === 'http' || name === 'net' ? name : null;
};

/**
 * Where I/O may live, relative to apps/server/src. Folders end in `/`.
 * - repositories/, storage/, db/: the I/O layers themselves;
 * - lib/data-dir-modes.ts: a thin wrapper over fs (the data folder's modes), no rule in it;
 * - lib/thread-priority.ts: reads /proc to lower the image threads' priority, no rule in it;
 * - cli/: commands are programs of their own on the operator's machine (the print agent drives
 *   CUPS, the robot upload watches a folder); they reach the server only through its API;
 * - app.ts: the composition root serves the built web app from disk;
 * - container/core.ts: the composition root reads or creates the secret key file at start;
 * - jobs/job-queue.ts: the job queue is pg-boss on the app's own database, the one adapter of
 *   `JobSender` (services see the interface, never pg-boss).
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
  'jobs/job-queue.ts',
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

    /**
     * @param {import('estree').Node | null | undefined} source
     * @param {{ typeOnly?: boolean; members?: readonly string[] | null }} [how] what is taken:
     *   type-only, and the named members (null: the whole module: default, namespace, `require`)
     */
    const check = (source, how = {}) => {
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
      const memberOf = memberModule(specifier);
      if (!ioAllowed && memberOf && !how.typeOnly) {
        const members = how.members ?? null;
        const network = NETWORK_MEMBERS[memberOf];
        if (members === null || members.some((name) => network.has(name)))
          context.report({ node: source, messageId: 'ioImport', data: { specifier } });
      }
    };

    /**
     * What an import or `export … from` takes from its module: type-only, and its named members
     * (null for a default or namespace import or `export *`, which take all of it).
     * @param {TsNode} node
     */
    const taken = (node) => {
      const specifiers = node.specifiers ?? [];
      const kind = node.importKind ?? node.exportKind;
      /** @param {TsPart} s */
      const partKind = (s) => s.importKind ?? s.exportKind;
      const typeOnly =
        kind === 'type' ||
        (specifiers.length > 0 && specifiers.every((s) => partKind(s) === 'type'));
      if (node.type === 'ExportAllDeclaration') return { typeOnly, members: null };
      /** @type {string[]} */
      const members = [];
      for (const s of specifiers) {
        const name = s.type === 'ExportSpecifier' ? s.local : s.imported;
        if (s.type !== 'ImportSpecifier' && s.type !== 'ExportSpecifier')
          return { typeOnly, members: null };
        if (partKind(s) !== 'type' && name) members.push(name.name ?? String(name.value));
      }
      return { typeOnly, members };
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

    /**
     * A node as typescript-eslint gives it: TypeScript's fields (`importKind`, …) ride on the
     * ESTree nodes, and TypeScript's own nodes come to listeners ESLint's types do not name.
     * @param {unknown} node
     */
    const ts = (node) => /** @type {TsNode} */ (node);

    /** `require('…')`: the whole module, like a default import. @param {TsNode} node */
    const checkRequire = (node) => {
      const argument = node.arguments?.[0];
      if (node.callee?.type === 'Identifier' && node.callee.name === 'require' && argument)
        check(argument);
    };

    /** @type {import('eslint').Rule.RuleListener} */
    const listeners = {
      ImportDeclaration: (node) => check(node.source, taken(ts(node))),
      ExportNamedDeclaration: (node) => check(node.source, taken(ts(node))),
      ExportAllDeclaration: (node) => check(node.source, taken(ts(node))),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => checkRequire(ts(node)),
    };
    const tsListeners = /** @type {Record<string, (node: TsNode) => void>} */ (
      /** @type {unknown} */ (listeners)
    );
    // `import x = require('…')`
    tsListeners.TSImportEqualsDeclaration = (node) => {
      if (node.moduleReference?.type === 'TSExternalModuleReference')
        check(node.moduleReference.expression, { typeOnly: node.importKind === 'type' });
    };
    // `type T = import('…').T`: a type, but a layer it names is a layer it leans on.
    tsListeners.TSImportType = (node) => check(node.source, { typeOnly: true });
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
        checkRequire(ts(node));
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
