// The size rule of services (service-length.mjs): no service file over 350 lines without the
// reason written at its top.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MARKER,
  MAX_LINES,
  givesReason,
  lengthProblem,
  lineCount,
  longServices,
} from './service-length.mjs';

const body = (lines: number) => 'export const x = 1;\n'.repeat(lines);
const reason = `/**\n * ${MARKER} one concern, the rules of a refund, read in one place.\n */\n`;

describe('the rule on one file', () => {
  it('counts lines as an editor does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('lets a file of the limit pass and refuses one line more', () => {
    expect(lengthProblem('a.service.ts', body(MAX_LINES))).toBeNull();
    expect(lengthProblem('a.service.ts', body(MAX_LINES + 1))).toContain(
      `a.service.ts: ${MAX_LINES + 1} lines`,
    );
  });

  it('lets a long file pass with the reason in a comment at its top, not further down', () => {
    expect(lengthProblem('a.service.ts', reason + body(MAX_LINES))).toBeNull();
    expect(givesReason(`// ${MARKER} one state machine.\n`)).toBe(true);
    // Below the first lines, or outside a comment, it says nothing.
    expect(lengthProblem('a.service.ts', body(20) + reason + body(MAX_LINES))).not.toBeNull();
    expect(givesReason(`const note = '${MARKER}';\n`)).toBe(false);
  });
});

describe('the services', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'service-length-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a long service in a domain folder and names it', () => {
    mkdirSync(path.join(dir, 'services', 'payments'), { recursive: true });
    writeFileSync(path.join(dir, 'services', 'payments', 'long.service.ts'), body(MAX_LINES + 5));
    writeFileSync(path.join(dir, 'services', 'payments', 'why.service.ts'), reason + body(400));
    writeFileSync(path.join(dir, 'services', 'payments', 'long.test.ts'), body(400));
    expect(longServices(dir, 'services')).toEqual([
      expect.stringContaining(path.join('services', 'payments', 'long.service.ts')),
    ]);
  });

  it('hold in this repository: every service over the limit says why at its top', () => {
    expect(longServices(path.resolve(import.meta.dirname, '..'))).toEqual([]);
  });
});
