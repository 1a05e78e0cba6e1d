import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  circlePath,
  findImportCycles,
  importGraph,
  importSpecifiers,
  stronglyConnected,
} from './import-cycles.mjs';

/** A graph from `a>b` edges (each letter a node). */
const graphOf = (...edges: string[]) => {
  const graph = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split('>') as [string, string];
    graph.set(from, [...(graph.get(from) ?? []), to]);
    if (!graph.has(to)) graph.set(to, []);
  }
  return graph;
};

const sorted = (components: string[][]) => components.map((c) => [...c].sort()).sort();

describe('the circle finder', () => {
  it('finds nothing in a graph without a circle', () => {
    expect(stronglyConnected(graphOf('a>b', 'b>c', 'a>c', 'c>d'))).toEqual([]);
  });

  it('finds each circle once, with every file in it, and leaves the files outside alone', () => {
    const graph = graphOf('a>b', 'b>c', 'c>a', 'c>d', 'd>e', 'e>d', 'e>f', 'g>g');
    expect(sorted(stronglyConnected(graph))).toEqual([['a', 'b', 'c'], ['d', 'e'], ['g']]);
  });

  it('prints a circle as a closed path through it', () => {
    const graph = graphOf('a>b', 'b>c', 'c>a', 'b>a');
    const [component] = stronglyConnected(graph);
    const route = circlePath(graph, component!);
    expect(route[0]).toBe(route[route.length - 1]);
    for (let i = 0; i + 1 < route.length; i += 1)
      expect(graph.get(route[i]!)).toContain(route[i + 1]);
  });

  it('does not overflow on a long chain', () => {
    const edges = Array.from({ length: 20_000 }, (_, i) => `n${i}>n${i + 1}`);
    expect(stronglyConnected(graphOf(...edges, 'n20000>n0'))[0]).toHaveLength(20_001);
  });

  it('reads every kind of import, type-only and dynamic ones included', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C } from './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "const g = await import('./g.ts');",
      "type H = import('./h.ts').H;",
      "import './i.ts';",
      "// import { no } from './comment.ts';",
      'const text = "import { no } from \'./string.ts\'";',
    ].join('\n');
    expect(importSpecifiers('x.ts', text)).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
      './h.ts',
      './i.ts',
    ]);
  });

  describe('on files', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write('services/mail.service.ts', "import type { Notify } from '../services/notify.ts';\n");
    write(
      'services/notify.ts',
      "import { brand } from './mail.service.ts';\nexport type Notify = 1;\n",
    );
    write('jobs/queue.ts', "import type { X } from '../lib';\n");
    write('lib/index.ts', "export const x = 1;\nimport('zod');\n");

    it('resolves relative specifiers (extension, folder index) and finds the type-only circle', () => {
      const graph = importGraph([root]);
      expect(graph.get(path.join(root, 'jobs/queue.ts'))).toEqual([
        path.join(root, 'lib/index.ts'),
      ]);
      expect(graph.get(path.join(root, 'lib/index.ts'))).toEqual([]);
      expect(sorted(stronglyConnected(graph))).toEqual([
        [path.join(root, 'services/mail.service.ts'), path.join(root, 'services/notify.ts')],
      ]);
    });
  });
});

describe('the repository', () => {
  // Type-only imports count: a circle of types is still a circle of meaning, and a newcomer
  // cannot say which layer sits above which.
  it.each(['apps/server/src', 'packages/shared/src', 'apps/web/src'])(
    'has no import circle in %s',
    (folder) => {
      const cycles = findImportCycles([folder]).map((cycle) => cycle.path.join(' → '));
      expect(cycles).toEqual([]);
    },
    // Reads and parses every file of the folder: seconds on a busy two-core machine.
    60_000,
  );

  it('resolves the shared package by name: a circle through @flashbulb/shared would be found', () => {
    const graph = importGraph(['packages/shared/src', 'apps/server/src']);
    const server = [...graph.entries()].find(([file]) => file.endsWith('apps/server/src/app.ts'));
    expect(server?.[1].some((target: string) => target.includes('packages/shared/src/'))).toBe(
      true,
    );
  }, 60_000);
});
