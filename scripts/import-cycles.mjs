#!/usr/bin/env node
// Import circles between source files, type-only imports included.
//
//   node scripts/import-cycles.mjs [folder …]     (default: apps/server/src packages/shared/src apps/web/src)
//
// Every .ts/.tsx file's `import`, `import type`, `export … from`, `import('…')` and `import('…').T`
// specifiers are read with TypeScript's parser; relative ones and `@flashbulb/shared[/…]` are
// resolved to files, everything else (packages, node:) is outside the graph. The strongly connected
// components of more than one file (or a file importing itself) are the circles; each is printed as
// one path through it. Exit code 1 when there is one. The test: scripts/import-cycles.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sharedSrc = path.join(repoRoot, 'packages/shared/src');

export const DEFAULT_ROOTS = ['apps/server/src', 'packages/shared/src', 'apps/web/src'];

/** @typedef {Map<string, string[]>} Graph node → the nodes it points at */

/**
 * Every module specifier a file names, type-only and dynamic imports included.
 * @param {string} fileName
 * @param {string} text
 * @returns {string[]}
 */
export const importSpecifiers = (fileName, text) => {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  /** @type {string[]} */
  const found = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const CANDIDATES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** @param {string} candidate */
const isFile = (candidate) => existsSync(candidate) && statSync(candidate).isFile();

/**
 * The file a specifier names, or null for a package outside the repository.
 * @param {string} fromFile
 * @param {string} specifier
 * @returns {string | null}
 */
export const resolveSpecifier = (fromFile, specifier) => {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier === '@flashbulb/shared') base = path.join(sharedSrc, 'index');
  else if (specifier.startsWith('@flashbulb/shared/'))
    base = path.join(sharedSrc, specifier.slice('@flashbulb/shared/'.length));
  else return null;
  for (const suffix of CANDIDATES) if (isFile(base + suffix)) return base + suffix;
  // A `.js` specifier of a TypeScript file.
  if (/\.jsx?$/.test(base)) {
    const stem = base.replace(/\.jsx?$/, '');
    for (const suffix of ['.ts', '.tsx']) if (isFile(stem + suffix)) return stem + suffix;
  }
  return null;
};

/** @param {string} folder @returns {string[]} */
const sourceFiles = (folder) => {
  /** @type {string[]} */
  const out = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  walk(folder);
  return out;
};

/**
 * The import graph of the files under the given folders (absolute or repository-relative): file →
 * the files it imports. An edge leaving the folders (e.g. into the shared package from the server)
 * is kept only when its target is inside them too.
 * @param {readonly string[]} folders
 * @returns {Graph}
 */
export const importGraph = (folders) => {
  const files = folders.flatMap((folder) => sourceFiles(path.resolve(repoRoot, folder)));
  const inside = new Set(files);
  /** @type {Graph} */
  const graph = new Map();
  for (const file of files) {
    /** @type {Set<string>} */
    const targets = new Set();
    for (const specifier of importSpecifiers(file, readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier);
      if (target && inside.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
};

/**
 * Tarjan's strongly connected components over `graph` (node → nodes it points at). Answers the
 * components that are circles: more than one node, or one node pointing at itself.
 * @param {Graph} graph
 * @returns {string[][]}
 */
export const stronglyConnected = (graph) => {
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {Set<string>} */
  const onStack = new Set();
  /** @type {string[]} */
  const stack = [];
  /** @type {string[][]} */
  const components = [];
  let next = 0;
  /** @param {string} node */
  const successors = (node) => graph.get(node) ?? [];
  /** @param {string} node */
  const lowOf = (node) => /** @type {number} */ (low.get(node));
  /** @param {string} node */
  const indexOf = (node) => /** @type {number} */ (index.get(node));
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    /** @type {{ node: string; i: number }[]} */
    const work = [{ node: root, i: 0 }];
    index.set(root, next);
    low.set(root, next);
    next += 1;
    stack.push(root);
    onStack.add(root);
    for (let frame = work.at(-1); frame; frame = work.at(-1)) {
      const list = successors(frame.node);
      if (frame.i < list.length) {
        const child = /** @type {string} */ (list[frame.i]);
        frame.i += 1;
        if (!index.has(child)) {
          index.set(child, next);
          low.set(child, next);
          next += 1;
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, i: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(lowOf(frame.node), indexOf(child)));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(lowOf(parent.node), lowOf(frame.node)));
      if (lowOf(frame.node) === indexOf(frame.node)) {
        /** @type {string[]} */
        const component = [];
        /** @type {string} */
        let member;
        do {
          member = /** @type {string} */ (stack.pop());
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || successors(frame.node).includes(frame.node))
          components.push(component.reverse());
      }
    }
  }
  return components;
};

/**
 * One closed path through a component: from its first node, breadth-first inside the component
 * back to that node (the shortest circle through it). Answers [a, b, …, a].
 * @param {Graph} graph
 * @param {string[]} component
 * @returns {string[]}
 */
export const circlePath = (graph, component) => {
  const members = new Set(component);
  const start = /** @type {string} */ (component[0]);
  /** @type {Map<string, string>} */
  const cameFrom = new Map();
  const queue = [start];
  const seen = new Set([start]);
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const child of graph.get(node) ?? []) {
      if (!members.has(child)) continue;
      if (child === start) {
        const path_ = [start];
        for (let at = node; at !== start; at = /** @type {string} */ (cameFrom.get(at)))
          path_.splice(1, 0, at);
        return [...path_, start];
      }
      if (seen.has(child)) continue;
      seen.add(child);
      cameFrom.set(child, node);
      queue.push(child);
    }
  }
  return [...component, start];
};

/**
 * The circles among the files under `folders`: each with its files and one path, repo-relative.
 * @param {readonly string[]} folders
 * @returns {{ files: string[]; path: string[] }[]}
 */
export const findImportCycles = (folders = DEFAULT_ROOTS) => {
  const graph = importGraph(folders);
  /** @param {string} file */
  const relative = (file) => path.relative(repoRoot, file);
  return stronglyConnected(graph).map((component) => ({
    files: component.map(relative).sort(),
    path: circlePath(graph, component).map(relative),
  }));
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const cycles = findImportCycles(folders.length > 0 ? folders : DEFAULT_ROOTS);
  for (const cycle of cycles) {
    console.log(`circle of ${cycle.files.length} files:\n  ${cycle.path.join('\n  → ')}`);
    if (cycle.files.length > cycle.path.length - 1)
      console.log(`  (and ${cycle.files.length - cycle.path.length + 1} more files in it)`);
  }
  console.log(cycles.length === 0 ? 'no import circle' : `${cycles.length} import circle(s)`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
