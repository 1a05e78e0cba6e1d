import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md holds by test: the one list of domains is the folder list of every place
// that is split by domain, the page fits on one printed page, and every path it names exists.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const architecture = readFileSync(path.join(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');

/** The domains of the table under "Domains — the one list", in its order. */
const domainsOf = (text: string): string[] => {
  const section = text.split(/^## /m).find((part) => part.startsWith('Domains'));
  if (!section) return [];
  return [...section.matchAll(/^\| ([a-z]+) +\|/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'domain');
};
const DOMAINS = domainsOf(architecture);

const folders = (relative: string) =>
  readdirSync(path.join(repoRoot, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const files = (relative: string) =>
  readdirSync(path.join(repoRoot, relative), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();

/**
 * Each place split by domain: a folder per domain, and besides them only the layers named here
 * (each serving every domain). A domain a place has no folder for is named in `without`, with the
 * reason.
 */
const PLACES: { place: string; layers: string[]; without?: Record<string, string> }[] = [
  { place: 'apps/server/src/services', layers: [] },
  { place: 'apps/server/src/repositories', layers: [] },
  { place: 'packages/shared/src/api', layers: [] },
  {
    place: 'apps/server/test',
    // access/: the permission table and matrix; platform/: http, jobs, storage, database, CLI;
    // helpers/ and doubles/: what every domain's tests share.
    layers: ['access', 'doubles', 'helpers', 'platform'],
  },
  {
    place: 'apps/web/src/features',
    layers: [],
    without: {
      // No console screen of their own: face tools are panels of the event editor, and the
      // owner's photos are the console album (albums); features never import each other.
      faces: 'face tools are panels of the event editor (events)',
      photos: 'the owner’s photos are the console album (albums)',
    },
  },
];

describe('the one list of domains (docs/ARCHITECTURE.md)', () => {
  it('is read from the page: about ten domains, each once', () => {
    expect(DOMAINS.length).toBeGreaterThanOrEqual(8);
    expect(DOMAINS.length).toBeLessThanOrEqual(12);
    expect(new Set(DOMAINS).size).toBe(DOMAINS.length);
  });

  it('finds a table of domains, and only that table', () => {
    const page = ['## Domains — the one list', '', '| domain | owns |', '| --- | --- |'];
    expect(
      domainsOf([...page, '| alpha  | a |', '| beta | b |', '', '## Shape'].join('\n')),
    ).toEqual(['alpha', 'beta']);
    expect(domainsOf('## Shape\n| gamma | c |\n')).toEqual([]);
  });

  it.each(PLACES)('is the folder list of $place', ({ place, layers, without = {} }) => {
    const present = folders(place);
    const expected = [...DOMAINS.filter((domain) => !(domain in without)), ...layers].sort();
    expect(present).toEqual(expected);
    for (const domain of Object.keys(without)) expect(DOMAINS).toContain(domain);
  });

  it('has a doc per domain in docs/domains/, beside the docs of the layers', () => {
    // Layers documented on their own: access, the contract's input rules, the provider adapters
    // (and the payment providers among them), signals and jobs, storage, the web app.
    const layerDocs = [
      'access.md',
      'input-rules.md',
      'payment-providers.md',
      'providers.md',
      'signals-and-jobs.md',
      'storage.md',
      'web.md',
    ];
    expect(files('docs/domains')).toEqual(
      [...DOMAINS.map((domain) => `${domain}.md`), ...layerDocs].sort(),
    );
  });

  it('has its wiring file in apps/server/src/container: <domain>.ts or <domain>-<part>.ts', () => {
    const wiring = files('apps/server/src/container');
    // core.ts: configuration, database, clock, logger, storage; jobs.ts: the job handlers' binding.
    const layers = ['core.ts', 'jobs.ts'];
    for (const domain of DOMAINS) expect(wiring).toContain(`${domain}.ts`);
    const stray = wiring.filter(
      (file) =>
        !layers.includes(file) &&
        !DOMAINS.some((d) => file === `${d}.ts` || file.startsWith(`${d}-`)),
    );
    expect(stray).toEqual([]);
  });

  it('has the guest app apart: app/, features/ and shared/ (grid, viewer, theme)', () => {
    expect(folders('apps/web/src/guest')).toEqual(['app', 'features', 'shared']);
    expect(folders('apps/web/src/guest/features')).toEqual(
      expect.arrayContaining(['album', 'checkout', 'faces', 'kiosk', 'roamer']),
    );
    expect(folders('apps/web/src/guest/shared')).toEqual(
      expect.arrayContaining(['components', 'theme', 'viewer']),
    );
    expect(
      existsSync(path.join(repoRoot, 'apps/web/src/guest/shared/components/guest-photo-grid.tsx')),
    ).toBe(true);
  });
});

describe('docs/ARCHITECTURE.md', () => {
  const lines = architecture.replace(/\n$/, '').split('\n');

  it('fits on one printed page: at most 60 lines of at most 100 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(lines.filter((line) => [...line].length > 100)).toEqual([]);
  });

  /** Where a path the page names may start: the repository, the server, the shared package. */
  const BASES = ['', 'apps/server/src', 'apps/server', 'packages/shared/src'];
  const named = [...architecture.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!)
    // Paths only: a folder or a file with its extension; a sibling checkout (`../shared`) is not
    // in the repository.
    .filter((token) => /^[\w.<>…-]+(\/[\w.<>…-]*)*$/.test(token))
    .filter((token) => token.includes('/') || /\.(ts|md|mjs)$/.test(token))
    .filter((token) => !token.startsWith('../'))
    // Lint rules by name (`flashbulb/server-layers`) and what the server makes at run time.
    .filter((token) => !token.startsWith('flashbulb/') && !token.startsWith('data/'))
    // A placeholder (`<domain>`, `<name>`) or an ellipsis: the part before it must exist.
    .map((token) =>
      token.split(/<|…/)[0]!.replace(/[^/]*$/, (rest) => (token.includes('<') ? '' : rest)),
    );

  it('names paths that exist', () => {
    expect(named.length).toBeGreaterThan(10);
    const missing = [...new Set(named)].filter(
      (token) => !BASES.some((base) => existsSync(path.join(repoRoot, base, token))),
    );
    expect(missing).toEqual([]);
  });

  it('draws folders that exist in its shape of the code', () => {
    const shape = /```\n([\s\S]*?)```/.exec(architecture)?.[1] ?? '';
    const drawn = [
      ...shape.matchAll(/(?<=^|[\s(])([a-z][\w-]*\/(?:[a-z][\w-]*\/)*)(?=[\s,;:)]|$)/gm),
    ].map((match) => match[1]!);
    expect(drawn).toEqual(expect.arrayContaining(['http/', 'access/', 'presenters/', 'guest/']));
    const bases = [...BASES, 'apps/web/src', 'apps/web/src/guest'];
    const missing = [...new Set(drawn)].filter(
      (folder) => !bases.some((base) => existsSync(path.join(repoRoot, base, folder))),
    );
    expect(missing).toEqual([]);
  });
});
