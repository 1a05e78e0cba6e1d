#!/usr/bin/env node
// Which file reads each event setting at run time.
//
//   node scripts/settings-readers.mjs            the table (key → reading files) and the counts
//
// The keys are those of the event settings schema (packages/shared/src/api/events/event-settings.ts:
// `eventSettingsShape`, and inside it `opts`, `notification_data`, `lead_params`,
// `shopify_shipping_address`), read from its syntax tree. A read is the key named in code (not in a
// comment) of a file that runs: the server, the guest app, the console outside the event editor,
// shared rules. What does not count: the editor (apps/web/src/features/events/editor/), the
// contract and schema (packages/shared/src/api/), the texts (i18n), tests, and the save path
// (validation before a save, the columns it is stored in). A key only those touch is a stub: the
// operator sets it and nothing changes.
//
// A key is read by a property access (`opts.photoDelayTags`, `opts?.x`, `opts['x']`) or a
// destructuring (`const { photoDelayTags } = opts`). A key's name in a string (a list of keys
// copied into a reply or a file, `pick(['x'])`) is no read: it passes the value on, and whoever
// receives it reads it (the guest app) or nobody does. A key
// that is a plain lower-case word (`description`, `topics`) says little alone: it counts only
// when reached through its parent (`opts.description`, `const { topics } = notification_data`).
//
// Known stubs are listed in STUB_KEYS with the item of the work that makes them real. Exit code
// 1 when a key that is not listed has no reader, or a listed key has become read (take it off the
// list). The test: scripts/settings-readers.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SCHEMA_FILE = 'packages/shared/src/api/events/event-settings.ts';

/** Nested objects of the settings: the object literal (or z.object) that declares each one's keys. */
const NESTED = {
  opts: 'optsShape',
  notification_data: 'notificationDataSchema',
  lead_params: 'leadParamsSchema',
  shopify_shipping_address: 'shopifyShippingAddressSchema',
};

/** Where run-time code lives. */
export const SOURCE_ROOTS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];

/**
 * What is not a run-time read (paths from the repository root; a folder ends with `/`): the
 * editor, the contract, texts, tests, and the save path.
 */
export const NOT_READERS = [
  'apps/web/src/features/events/editor/',
  'packages/shared/src/api/',
  'packages/shared/src/i18n/',
  'apps/web/src/i18n/',
  'apps/web/src/test/',
  // The save path: the database schema and the columns a save writes, the server's checks of a
  // save (patterns compile, stock-image edits, upload URLs).
  'apps/server/src/db/',
  'apps/server/src/repositories/events/event.repository.ts',
  'apps/server/src/services/events/event-settings.ts',
  'apps/server/src/services/events/event-rules.ts',
];

/**
 * Settings the editor offers and the server stores that nothing reads yet, each with the item of
 * the settings audit (owner console: "every setting does what it says") that makes it real. This
 * list may only shrink: the test fails when a key here has a reader.
 * @type {Record<string, string>}
 */
export const STUB_KEYS = {};

/**
 * Keys the save turns into another key (services/events/event-rules.ts `normalise`): read when
 * that one is. The editor's topics and channels become `cachedTopicsData`, which the notifications
 * read; the two stock-image switches are kept equal.
 */
export const CARRIED_BY = {
  'notification_data.topics': 'notification_data.cachedTopicsData',
  'notification_data.channels': 'notification_data.cachedTopicsData',
  'opts.stockImagesEnable': 'stock_images_enable',
};

/** @param {string} file */
const read = (file) => readFileSync(path.join(repoRoot, file), 'utf8');

/** @param {string} fileName @param {string} text */
const parse = (fileName, text) =>
  ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

/**
 * The property names of an object literal, or of the object literal given to `z.object(…)`.
 * @param {ts.Node | undefined} node
 * @returns {string[]}
 */
const objectKeys = (node) => {
  if (!node) return [];
  let current = node;
  // `{…} as const`, `z.object({…})`
  while (ts.isAsExpression(current) || ts.isParenthesizedExpression(current))
    current = current.expression;
  if (ts.isCallExpression(current)) {
    const literal = current.arguments.find((a) => ts.isObjectLiteralExpression(a));
    if (literal) current = literal;
  }
  if (!ts.isObjectLiteralExpression(current)) return [];
  return current.properties.flatMap((p) =>
    p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [],
  );
};

/**
 * Every key of the event settings schema, nested ones as `parent.key` (`opts.photoDelayTags`);
 * a nested object itself is not a key, its keys are.
 * @param {string} [text] the schema file's text
 * @returns {string[]}
 */
export const settingKeys = (text = read(SCHEMA_FILE)) => {
  const source = parse(SCHEMA_FILE, text);
  /** @type {Map<string, ts.Expression>} */
  const declarations = new Map();
  source.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const d of statement.declarationList.declarations)
      if (ts.isIdentifier(d.name) && d.initializer) declarations.set(d.name.text, d.initializer);
  });
  const top = objectKeys(declarations.get('eventSettingsShape'));
  if (top.length === 0) throw new Error(`eventSettingsShape not found in ${SCHEMA_FILE}`);
  return top.flatMap((key) => {
    if (!(key in NESTED)) return [key];
    const nested = objectKeys(declarations.get(NESTED[/** @type {keyof NESTED} */ (key)]));
    if (nested.length === 0) throw new Error(`the keys of ${key} were not found`);
    return nested.map((k) => `${key}.${k}`);
  });
};

/** A plain lower-case word (`description`) names nothing alone; `photoDelayTags` or `is_free` do. */
const isPlainWord = (/** @type {string} */ name) => /^[a-z]+$/.test(name);

/** The objects that hold nested keys: a read through one of these names is a read of its key. */
const PARENTS = new Set(Object.keys(NESTED));

/**
 * The names a file's code uses: `name` alone, and `parent>name` where the parent is one of the
 * settings' nested objects (a property access on it, a destructuring of it, also through a local
 * name: `const o = event.row.opts; o.description`). JSON read in SQL (`opts->>'name'`) counts
 * too. Comments and other strings are not code.
 * @param {string} fileName
 * @param {string} text
 * @returns {Set<string>}
 */
export const namesUsed = (fileName, text) => {
  const source = parse(fileName, text);
  /** Local names of the nested objects (`const o = event.row.opts` → o: opts). */
  /** @type {Map<string, string>} */
  const aliases = new Map();
  /** The parent an expression names: `event.row.opts` → opts, `o` → opts when o is an alias. */
  const parentOf = (/** @type {ts.Expression} */ e) => {
    let current = e;
    while (
      ts.isNonNullExpression(current) ||
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current)
    )
      current = current.expression;
    /** @type {string | undefined} */
    let name;
    if (ts.isIdentifier(current)) name = aliases.get(current.text) ?? current.text;
    else if (ts.isPropertyAccessExpression(current)) name = current.name.text;
    else if (
      ts.isElementAccessExpression(current) &&
      ts.isStringLiteral(current.argumentExpression)
    )
      name = current.argumentExpression.text;
    return name && PARENTS.has(name) ? name : undefined;
  };
  /** @param {ts.Node} node */
  const collectAliases = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const parent = parentOf(node.initializer);
      if (parent) aliases.set(node.name.text, parent);
    }
    node.forEachChild(collectAliases);
  };
  collectAliases(source);

  /** @type {Set<string>} */
  const names = new Set();
  /** @param {string} name @param {string | undefined} parent */
  const add = (name, parent) => {
    names.add(name);
    if (parent) names.add(`${parent}>${name}`);
  };
  /** @param {string} sqlText */
  const addSqlJson = (sqlText) => {
    for (const match of sqlText.matchAll(/->>?\s*'([A-Za-z_][\w]*)'/g))
      if (match[1]) add(match[1], 'sql');
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node)) add(node.name.text, parentOf(node.expression));
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression))
      add(node.argumentExpression.text, parentOf(node.expression));
    else if (ts.isObjectBindingPattern(node)) {
      const declaration = node.parent;
      const from =
        ts.isVariableDeclaration(declaration) && declaration.initializer
          ? parentOf(declaration.initializer)
          : ts.isBindingElement(declaration)
            ? [declaration.propertyName, declaration.name]
                .map((n) => (n && ts.isIdentifier(n) && PARENTS.has(n.text) ? n.text : undefined))
                .find(Boolean)
            : undefined;
      for (const element of node.elements) {
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key) || ts.isStringLiteral(key)) add(key.text, from);
      }
    } else if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node))
      addSqlJson(node.text);
    else if (ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) addSqlJson(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return names;
};

/**
 * Whether a file that uses `names` reads the setting `key` (`opts.x` or a top-level key).
 * @param {string} key
 * @param {Set<string>} names
 */
export const readsKey = (key, names) => {
  const [parent, name] = key.includes('.') ? key.split('.') : [undefined, key];
  if (!name) return false;
  if (!isPlainWord(name)) return names.has(name);
  return parent ? names.has(`${parent}>${name}`) || names.has(`sql>${name}`) : names.has(name);
};

/** @param {string} file a path from the repository root */
export const isReaderFile = (file) =>
  /\.(ts|tsx|mjs|js)$/.test(file) &&
  !/\.test\.(ts|tsx)$/.test(file) &&
  !file.endsWith('.d.ts') &&
  !NOT_READERS.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

/** Every run-time source file, from the repository root. */
export const readerFiles = () =>
  SOURCE_ROOTS.flatMap((root) =>
    readdirSync(path.join(repoRoot, root), { recursive: true })
      .map((name) => `${root}/${String(name).split(path.sep).join('/')}`)
      .filter(isReaderFile),
  ).sort();

/**
 * Each key of the schema with the files that read it (a carried key: its carrier's readers).
 * @returns {{ key: string; readers: string[]; via?: string }[]}
 */
export const settingReaders = () => {
  const keys = settingKeys();
  const files = readerFiles().map((file) => ({ file, names: namesUsed(file, read(file)) }));
  /** @param {string} key */
  const readersOf = (key) => files.filter((f) => readsKey(key, f.names)).map((f) => f.file);
  return keys.map((key) => {
    const via = CARRIED_BY[/** @type {keyof typeof CARRIED_BY} */ (key)];
    return via ? { key, readers: readersOf(via), via } : { key, readers: readersOf(key) };
  });
};

/**
 * The audit: keys nobody reads that are not on the stub list, and listed keys that are read now.
 * @param {{ key: string; readers: string[] }[]} table
 * @param {Record<string, string>} [stubs]
 */
export const auditProblems = (table, stubs = STUB_KEYS) => {
  const keys = new Set(table.map((row) => row.key));
  return [
    ...table
      .filter((row) => row.readers.length === 0 && !(row.key in stubs))
      .map(
        (row) => `${row.key}: only the editor touches it (make it real, or list it in STUB_KEYS)`,
      ),
    ...table
      .filter((row) => row.readers.length > 0 && row.key in stubs)
      .map((row) => `${row.key}: read by ${row.readers[0]}; take it off STUB_KEYS`),
    ...Object.keys(stubs)
      .filter((key) => !keys.has(key))
      .map((key) => `${key}: on STUB_KEYS but not a key of the settings schema`),
  ];
};

const main = () => {
  const table = settingReaders();
  const width = Math.max(...table.map((row) => row.key.length));
  for (const row of table) {
    const stub = /** @type {Record<string, string>} */ (STUB_KEYS)[row.key];
    const first = row.readers[0] ?? (stub ? `— stub (${stub})` : '— nothing');
    const more = row.readers.length > 1 ? ` (+${row.readers.length - 1})` : '';
    const via = row.via ? ` (as ${row.via})` : '';
    console.log(`${row.key.padEnd(width)}  ${first}${more}${via}`);
  }
  const read = table.filter((row) => row.readers.length > 0).length;
  console.log(
    `\n${table.length} keys: ${read} read at run time, ${table.length - read} read by nothing` +
      ` (${Object.keys(STUB_KEYS).length} listed as known stubs)`,
  );
  const problems = auditProblems(table);
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
