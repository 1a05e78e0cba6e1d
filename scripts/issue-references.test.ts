// Source comments give the why, not the ticket: an "issue N" in the apps, their tests, the
// journeys and benchmarks, or packages/shared means nothing to a reader without the tracker (the docs may still name issues).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = [
  'apps/server/src',
  'apps/server/test',
  'apps/web/src',
  'packages/shared/src',
  'packages/shared/test',
  'e2e',
];
const ISSUE = /\bissues? #?\d+/i;

export function issueReferences(text: string): number[] {
  return text.split('\n').flatMap((line, index) => (ISSUE.test(line) ? [index + 1] : []));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|css)$/.test(entry.name) ? [full] : [];
  });
}

describe('issue numbers in source', () => {
  it('finds a reference in a comment, in any case and with a hash', () => {
    expect(issueReferences('// see issue 27 item 3\nconst a = 1;')).toEqual([1]);
    expect(issueReferences('const a = 1;\n/* Issue #9 */')).toEqual([2]);
    expect(issueReferences('// the issues 30 and 31')).toEqual([1]);
    expect(issueReferences('// an issue of timing\nconst issue = 4;')).toEqual([]);
  });

  it('appear in no source or test file of the apps, the shared package or the journeys', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const found = ROOTS.flatMap((dir) =>
      sourceFiles(path.join(root, dir)).flatMap((file) =>
        issueReferences(readFileSync(file, 'utf8')).map(
          (line) => `${path.relative(root, file)}:${line}`,
        ),
      ),
    );
    expect(found).toEqual([]);
  });
});
