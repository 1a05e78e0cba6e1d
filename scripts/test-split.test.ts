import { describe, expect, it } from 'vitest';
import { mergeReports, planRuns } from './test-split.mjs';

describe('npm test runs the journeys beside the other projects', () => {
  it('splits a whole run in two: every project but e2e, and e2e', () => {
    const runs = planRuns([], { split: true });
    expect(runs.map((r) => [r.name, r.args])).toEqual([
      ['rest', ['--project', '!e2e']],
      ['e2e', ['--project', 'e2e']],
    ]);
  });

  it('keeps the chosen projects and gives each run its own JSON report', () => {
    const runs = planRuns(
      ['--project', 'web', '--project=e2e', '--reporter=json', '--outputFile.json=/tmp/r.json'],
      { split: true },
    );
    expect(runs).toEqual([
      {
        name: 'rest',
        args: ['--project', 'web', '--reporter=json', '--outputFile.json=/tmp/r.json.rest'],
        report: '/tmp/r.json.rest',
      },
      {
        name: 'e2e',
        args: ['--project', 'e2e', '--reporter=json', '--outputFile.json=/tmp/r.json.e2e'],
        report: '/tmp/r.json.e2e',
      },
    ]);
  });

  it('runs one process unless asked, when only one side is chosen, or a file or test is named', () => {
    const split = { split: true };
    expect(planRuns([])).toHaveLength(1);
    expect(planRuns(['--project', 'web'], split)).toHaveLength(1);
    expect(planRuns(['--project', 'e2e'], split)).toHaveLength(1);
    expect(planRuns(['e2e/kiosk.e2e.test.ts'], split)).toHaveLength(1);
    expect(planRuns(['-t', 'kiosk'], split)).toHaveLength(1);
    // An option's value is not a file filter.
    expect(planRuns(['--reporter', 'dot'], split)).toHaveLength(2);
  });

  it('merges the reports: counts added, results joined, failed when either failed or is missing', () => {
    const a = {
      success: true,
      numTotalTests: 3,
      numFailedTests: 0,
      startTime: 20,
      testResults: [{ name: 'a' }],
    };
    const b = {
      success: false,
      numTotalTests: 2,
      numFailedTests: 1,
      startTime: 10,
      testResults: [{ name: 'b' }],
    };
    expect(mergeReports([a, b])).toMatchObject({
      success: false,
      numTotalTests: 5,
      numFailedTests: 1,
      startTime: 10,
      testResults: [{ name: 'a' }, { name: 'b' }],
    });
    expect(mergeReports([a, { ...b, success: true }]).success).toBe(true);
    expect(mergeReports([a, undefined]).success).toBe(false);
  });
});
