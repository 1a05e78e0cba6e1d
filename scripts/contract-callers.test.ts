// The screen audit (contract-callers.mjs): every call of the shared contract is made by a web file
// a screen reaches, or is listed with who makes it instead (NO_SCREEN) or as a screen still to
// build (SCREEN_PENDING, a list that may only shrink).
import { describe, expect, it } from 'vitest';
import { endpoints } from '../packages/shared/src/api/index.ts';
import {
  auditProblems,
  contractCallers,
  contractCalls,
  fileUses,
  NO_SCREEN,
  reachedFiles,
  SCREEN_PENDING,
} from './contract-callers.mjs';

const uses = (code: string, file = 'apps/web/src/features/x/api/x-api.ts') =>
  fileUses(file, code).names;

describe('the calls', () => {
  it('are the keys of the contract’s endpoints, each with the name its module exports', () => {
    const calls = contractCalls();
    expect(calls.map((c) => c.name)).toEqual(Object.keys(endpoints));
    expect(calls).toContainEqual({ name: 'robotList', exportName: 'robotList' });
  });
});

describe('what counts as a call', () => {
  it('the shared map or the guest namespace by property, and a name imported from the contract', () => {
    expect(uses('callApi(endpoints.robotList, {});').has('robotList')).toBe(true);
    expect(uses("callApi(endpoints['robotList'], {});").has('robotList')).toBe(true);
    expect(
      uses("import { robotList } from '@flashbulb/shared';\ncallApi(robotList, {});").has(
        'robotList',
      ),
    ).toBe(true);
    expect(
      uses(
        "import { keySearchByFace as search } from '@flashbulb/shared/api/faces/faces';\nsearch;",
      ).has('keySearchByFace'),
    ).toBe(true);
    const guest =
      "import { trackShare } from '../../lib/guest-endpoints.ts';\ncallApi(trackShare);";
    expect(uses(guest, 'apps/web/src/features/x/x.ts').has('trackShare')).toBe(true);
  });

  it('a call destructured from a contract module loaded lazily', () => {
    const code =
      "const calls = () => import('@flashbulb/shared/api/identity/auth');\ncalls().then(({ refresh }) => send(refresh));";
    expect(uses(code).has('refresh')).toBe(true);
    expect(uses('const { refresh } = options;').has('refresh')).toBe(false);
  });

  it('not an import alone, a type, a comment, a string, a property of the same name or a re-export', () => {
    expect(uses("import { robotList } from '@flashbulb/shared';").has('robotList')).toBe(false);
    expect(
      uses("import { type robotList } from '@flashbulb/shared';\nlet x: typeof robotList;").has(
        'robotList',
      ),
    ).toBe(false);
    expect(uses('// endpoints.robotList is called here\nconst a = 1;').has('robotList')).toBe(
      false,
    );
    expect(uses("const a = 'robotList';").has('robotList')).toBe(false);
    expect(
      uses(
        "import { robotList } from '@flashbulb/shared';\nconst a = { robotList: 1 }; a.robotList;",
      ).has('robotList'),
    ).toBe(false);
    expect(uses("export { robotList } from '@flashbulb/shared';").has('robotList')).toBe(false);
  });

  it('only in files a screen reaches from the entry points, lazily or not', () => {
    const files: Record<string, string> = {
      'apps/web/src/main.tsx': "import { App } from './app/app.tsx';",
      'apps/web/src/guest-main.tsx': "const Page = lazy(() => import('./guest/page.tsx'));",
      'apps/web/src/app/app.tsx': "import { x } from '../features/a/a-api.ts';",
      'apps/web/src/features/a/a-api.ts': 'callApi(endpoints.robotList);',
      'apps/web/src/guest/page.tsx': 'callApi(endpoints.trackShare);',
      'apps/web/src/features/b/orphan-api.ts': 'callApi(endpoints.deletePpt);',
    };
    const reached = reachedFiles((file) => files[file] ?? '');
    expect([...reached.keys()].sort()).toEqual(
      [
        'apps/web/src/app/app.tsx',
        'apps/web/src/features/a/a-api.ts',
        'apps/web/src/guest-main.tsx',
        'apps/web/src/guest/page.tsx',
        'apps/web/src/main.tsx',
      ].sort(),
    );
    expect(reached.get('apps/web/src/guest/page.tsx')?.has('trackShare')).toBe(true);
  });
});

describe('the audit', () => {
  const table = [
    { name: 'a', callers: ['apps/web/src/a.ts'] },
    { name: 'b', callers: [] },
    { name: 'c', callers: [] },
  ];

  it('fails on a call no screen makes unless it is listed', () => {
    expect(auditProblems(table, { b: 'robot' }, {})).toEqual([
      'c: no screen calls it (build its screen, or list it in NO_SCREEN with who calls it)',
    ]);
    expect(auditProblems(table, { b: 'robot' }, { c: 'kiosk' })).toEqual([]);
  });

  it('fails on a listed call that has a caller, a listed name that is no call, a name on both lists', () => {
    expect(auditProblems(table, { b: 'x' }, { a: 'y', c: 'z' })).toEqual([
      'a: called by apps/web/src/a.ts; take it off SCREEN_PENDING',
    ]);
    expect(auditProblems(table, { b: 'x', gone: 'x' }, { c: 'z' })).toEqual([
      'gone: listed but not a call of the contract',
    ]);
    expect(auditProblems(table, { b: 'x', c: 'x' }, { c: 'z' })).toEqual([
      'c: on both NO_SCREEN and SCREEN_PENDING',
    ]);
  });
});

describe('the repository', () => {
  it('every call has a screen, or is listed with why it has none; no listed call has one', () => {
    expect(auditProblems(contractCallers())).toEqual([]);
  });

  it('keeps the lists short: a reason for each, and most calls reached by a screen', () => {
    for (const reason of [...Object.values(NO_SCREEN), ...Object.values(SCREEN_PENDING)])
      expect(reason.length).toBeGreaterThan(10);
    const table = contractCallers();
    const called = table.filter((row) => row.callers.length > 0).length;
    expect(called / table.length).toBeGreaterThan(0.8);
  });
});
