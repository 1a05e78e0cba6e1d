#!/usr/bin/env node
// Which screen calls each call of the shared contract.
//
//   node scripts/contract-callers.mjs            the table (call → web files that call it) and the counts
//
// The calls are the keys of `endpoints` in packages/shared/src/api/index.ts, read from its syntax
// tree. A web file calls one when its code names it: `endpoints.x` (the shared map, or the guest
// app's namespace of endpoints), or an identifier imported by name from the contract
// (`@flashbulb/shared…`) or from the guest endpoint list, used outside its import. Only files a
// screen reaches count: those the console (`apps/web/src/main.tsx`) or the guest app
// (`apps/web/src/guest-main.tsx`) import, directly or through other files, lazily or not. Tests,
// and a re-export list alone, call nothing.
//
// A call no screen reaches is a server flow an operator or a guest cannot use. Some have no
// screen by design: each of those is on NO_SCREEN with who calls it instead. Calls whose screen is
// still to be built are on SCREEN_PENDING with the item of the work that builds it: that list may
// only shrink. Exit code 1 when a call that is on neither list has no caller, a listed call has
// a caller now (take it off), or a listed name is no call. The test: scripts/contract-callers.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const CONTRACT_FILE = 'packages/shared/src/api/index.ts';
/** The pages' entry points: the console and the guest app. */
export const ENTRY_FILES = ['apps/web/src/main.tsx', 'apps/web/src/guest-main.tsx'];
/** The guest app's list of endpoints (re-exports from the contract, imported as a namespace). */
export const GUEST_ENDPOINTS_FILE = 'apps/web/src/lib/guest-endpoints.ts';

/**
 * Calls no screen makes by design, each with who makes it instead. A call belongs here only when
 * a screen for it would be wrong; a missing screen goes on SCREEN_PENDING.
 */
export const NO_SCREEN = {
  // Robots (the booth software, with a robot key) report what happened at the booth.
  createActivity: 'robot: a booth reports an activity with its robot key',
  bulkCreateActivity: 'robot: a booth reports a batch of activities with its robot key',
  keyPhotoCountInfo:
    'robot: a booth reads the counts of its event’s photos with its robot or event-owner key (the console uses the owner call)',
  checkAttendeeUid:
    'robot: a booth checks an attendee id (and the card’s private id) before it uploads for it',
  robotWhoami:
    'robot: the robot client (cli/robot-upload.ts) asks which robot its key is and which event it feeds before it sends',
  // A server-rendered page (apps/server/src/pages/), not the web app.
  checkKioskCard:
    'server page: the kiosk entry page (pages/kiosk-entry.ts) checks each scanned card',
  // The print agent (the CUPS agent on the printing computer, with a station key).
  printAgentLease: 'print agent: leases the next sheet of its station',
  printAgentReport: 'print agent: reports a sheet printed or failed',
  // API only, for integrators: what a screen does another way.
  faceConsent:
    'API only: an outside client reads the consent version to send (the guest app computes it with the shared rule)',
  shareBucketInvalidateCache:
    'API only: an integrator that wrote to the share area through its own client asks for the cache to drop',
  ignoredFaceUploadAccess:
    'API only: an integrator uploads a staff face from a file (the console adds one from an event photo)',
  createCustomPhoto:
    'API only: an integrator places a photo it made for an event (the kiosk uses the attendee twin)',
  retrievePassCodeList:
    'API only: an integrator reads the pass codes alone (the editor shows them in the paid tab’s code table)',
  updatePassCode:
    'API only: an integrator changes one pass code without saving the whole event (the editor edits the code table and saves the event)',
  deletePassCode:
    'API only: an integrator removes one pass code without saving the whole event (the editor edits the code table and saves the event)',
  deletePhoto:
    'API only: an integrator deletes one photo (the console deletes one or many with the list call)',
};

/**
 * Calls built on the server whose screen is still to be built, each with the item of the work
 * (owner console: "every server flow has its screen") that builds it. This list may only shrink:
 * the test fails when a call here gets a caller.
 */
/** @type {Record<string, string>} */
export const SCREEN_PENDING = {};

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
 * The calls of the contract: each key of `endpoints` with the name its module exports it by
 * (`robotList: robots.robotList` → robotList, robotList).
 * @param {string} [text] the contract index's text
 * @returns {{ name: string; exportName: string }[]}
 */
export const contractCalls = (text = read(CONTRACT_FILE)) => {
  const source = parse(CONTRACT_FILE, text);
  /** @type {{ name: string; exportName: string }[]} */
  const calls = [];
  source.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== 'endpoints' || !d.initializer) continue;
      let literal = d.initializer;
      while (ts.isAsExpression(literal) || ts.isSatisfiesExpression(literal))
        literal = literal.expression;
      if (!ts.isObjectLiteralExpression(literal)) continue;
      for (const p of literal.properties) {
        if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) continue;
        const value = p.initializer;
        const exportName = ts.isPropertyAccessExpression(value)
          ? value.name.text
          : ts.isIdentifier(value)
            ? value.text
            : p.name.text;
        calls.push({ name: p.name.text, exportName });
      }
    }
  });
  if (calls.length === 0) throw new Error(`endpoints not found in ${CONTRACT_FILE}`);
  return calls;
};

/** @param {string} specifier */
const isContractModule = (specifier) =>
  specifier === '@flashbulb/shared' || specifier.startsWith('@flashbulb/shared/api/');

/**
 * What a web file imports (relative paths, resolved from the repository root) and the names of
 * the contract it uses in code: `endpoints.x`, and identifiers imported by name from the contract
 * or the guest endpoint list (by the name they are exported as).
 * @param {string} file a path from the repository root
 * @param {string} text
 * @returns {{ imports: string[]; names: Set<string> }}
 */
export const fileUses = (file, text) => {
  const source = parse(file, text);
  /** @type {string[]} */
  const imports = [];
  /** Local name → exported name, for names imported from the contract. */
  /** @type {Map<string, string>} */
  const imported = new Map();
  /** @type {Set<string>} */
  const names = new Set();
  /** Names taken out of objects by destructuring: calls when the file loads the contract lazily. */
  /** @type {Set<string>} */
  const destructured = new Set();
  let importsContractLazily = false;
  /** @param {string} specifier */
  const resolve = (specifier) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  /** @param {string} specifier */
  const isGuestList = (specifier) =>
    specifier.startsWith('.') && resolve(specifier) === GUEST_ENDPOINTS_FILE;

  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      if (specifier.startsWith('.')) imports.push(resolve(specifier));
      const clause = node.importClause;
      if (
        clause &&
        !clause.isTypeOnly &&
        (isContractModule(specifier) || isGuestList(specifier)) &&
        clause.namedBindings &&
        ts.isNamedImports(clause.namedBindings)
      )
        for (const element of clause.namedBindings.elements)
          if (!element.isTypeOnly)
            imported.set(element.name.text, (element.propertyName ?? element.name).text);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      // A re-export passes names on; only its module's own imports count.
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const specifier = node.moduleSpecifier.text;
        if (specifier.startsWith('.')) imports.push(resolve(specifier));
      }
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const specifier = node.arguments[0].text;
      if (specifier.startsWith('.')) imports.push(resolve(specifier));
      if (isContractModule(specifier)) importsContractLazily = true;
    }
    // A contract module loaded lazily: its calls are taken by destructuring its namespace
    // (`import('…/auth').then(({ refresh }) => …)`).
    if (ts.isObjectBindingPattern(node))
      for (const element of node.elements) {
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key)) destructured.add(key.text);
      }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      if (node.expression.text === 'endpoints') names.add(node.name.text);
    } else if (
      ts.isElementAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'endpoints' &&
      ts.isStringLiteral(node.argumentExpression)
    )
      names.add(node.argumentExpression.text);
    else if (ts.isIdentifier(node)) {
      const exported = imported.get(node.text);
      // A property's name (`x.robotList`, `{ robotList: 1 }`) is not the imported value.
      const parent = node.parent;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node);
      if (exported && !isPropertyName) names.add(exported);
    }
    node.forEachChild(visit);
  };
  // Imports first, so names used before their import (hoisting) are still known.
  source.forEachChild((statement) => {
    if (ts.isImportDeclaration(statement)) visit(statement);
  });
  source.forEachChild((statement) => {
    if (!ts.isImportDeclaration(statement)) visit(statement);
  });
  if (importsContractLazily) for (const name of destructured) names.add(name);
  return { imports, names };
};

/** @param {string} file a path from the repository root */
const isWebSource = (file) =>
  /\.(ts|tsx)$/.test(file) &&
  !/\.test\.(ts|tsx)$/.test(file) &&
  !file.endsWith('.d.ts') &&
  !file.startsWith('apps/web/src/test/');

/**
 * The web files a screen reaches: the entry points and everything they import, statically or
 * lazily, through relative imports (which name their file with its extension).
 * @param {(file: string) => string} [readFile]
 * @returns {Map<string, Set<string>>} each reached file with the contract names its code uses
 */
export const reachedFiles = (readFile = read) => {
  /** @type {Map<string, Set<string>>} */
  const reached = new Map();
  const queue = [...ENTRY_FILES];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (reached.has(file) || !isWebSource(file)) continue;
    if (!existsSync(path.join(repoRoot, file)) && readFile === read) continue;
    const { imports, names } = fileUses(file, readFile(file));
    reached.set(file, names);
    queue.push(...imports);
  }
  return reached;
};

/**
 * Each call of the contract with the reached web files that call it.
 * @returns {{ name: string; callers: string[] }[]}
 */
export const contractCallers = () => {
  const calls = contractCalls();
  const files = [...reachedFiles()].sort(([a], [b]) => a.localeCompare(b));
  return calls.map(({ name, exportName }) => ({
    name,
    callers: files
      .filter(([, names]) => names.has(name) || names.has(exportName))
      .map(([file]) => file),
  }));
};

/**
 * The audit: calls nobody calls that neither list holds, listed calls that have a caller, and
 * listed names that are no call.
 * @param {{ name: string; callers: string[] }[]} table
 * @param {Record<string, string>} [noScreen]
 * @param {Record<string, string>} [pending]
 */
export const auditProblems = (table, noScreen = NO_SCREEN, pending = SCREEN_PENDING) => {
  const names = new Set(table.map((row) => row.name));
  const listed = (/** @type {string} */ name) => name in noScreen || name in pending;
  return [
    ...table
      .filter((row) => row.callers.length === 0 && !listed(row.name))
      .map(
        (row) =>
          `${row.name}: no screen calls it (build its screen, or list it in NO_SCREEN with who calls it)`,
      ),
    ...table
      .filter((row) => row.callers.length > 0 && listed(row.name))
      .map(
        (row) =>
          `${row.name}: called by ${row.callers[0]}; take it off ${row.name in noScreen ? 'NO_SCREEN' : 'SCREEN_PENDING'}`,
      ),
    ...[...Object.keys(noScreen), ...Object.keys(pending)]
      .filter((name) => !names.has(name))
      .map((name) => `${name}: listed but not a call of the contract`),
    ...Object.keys(noScreen)
      .filter((name) => name in pending)
      .map((name) => `${name}: on both NO_SCREEN and SCREEN_PENDING`),
  ];
};

const main = () => {
  const table = contractCallers();
  const width = Math.max(...table.map((row) => row.name.length));
  for (const row of table) {
    const reason =
      /** @type {Record<string, string>} */ (NO_SCREEN)[row.name] ??
      /** @type {Record<string, string>} */ (SCREEN_PENDING)[row.name];
    const first = row.callers[0] ?? `— ${reason ?? 'nothing'}`;
    const more = row.callers.length > 1 ? ` (+${row.callers.length - 1})` : '';
    console.log(`${row.name.padEnd(width)}  ${first}${more}`);
  }
  const called = table.filter((row) => row.callers.length > 0).length;
  console.log(
    `\n${table.length} calls: ${called} called by a screen, ${table.length - called} by none` +
      ` (${Object.keys(NO_SCREEN).length} by design, ${Object.keys(SCREEN_PENDING).length} pending)`,
  );
  const problems = auditProblems(table);
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
