import { describe, expect, it } from 'vitest';
import {
  INSTANT_CODE_ALPHABET,
  INSTANT_CODE_ATTEMPTS,
  INSTANT_CODE_LENGTH,
  instantCodeFrom,
  instantLinkUrl,
  normaliseInstantCode,
  parseInstantParam,
} from '@flashbulb/shared';
import { AppError } from '../../src/lib/app-error.ts';
import { allocateInstantCode, drawInstantCode } from '../../src/services/photos/instant-links.ts';

/**
 * Instant links' short codes on plain values: the alphabet people can read off a screen, random
 * draws, and the collision rule. photos/calls.test.ts proves the grant hands them out.
 */

describe('the instant code alphabet', () => {
  it('has no look-alikes and no repeats', () => {
    for (const ambiguous of ['0', 'O', '1', 'I', 'L', 'U', 'V'])
      expect(INSTANT_CODE_ALPHABET).not.toContain(ambiguous);
    expect(new Set(INSTANT_CODE_ALPHABET).size).toBe(INSTANT_CODE_ALPHABET.length);
    expect(INSTANT_CODE_ALPHABET).toMatch(/^[A-Z2-9]+$/);
  });

  it('draws codes of the alphabet only, at the code length, none repeated in two hundred', () => {
    const codes = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const code = drawInstantCode();
      expect(code).toHaveLength(INSTANT_CODE_LENGTH);
      for (const ch of code) expect(INSTANT_CODE_ALPHABET).toContain(ch);
      codes.add(code);
    }
    expect(codes.size).toBe(200);
  });

  it('favours no character: bytes beyond the last whole round of the alphabet are drawn again', () => {
    const n = INSTANT_CODE_ALPHABET.length;
    const limit = 256 - (256 % n);
    // A byte at or above the limit would map to the first characters twice as often.
    const bytes = [255, limit, 0, 1, 2, 3, 4, 5];
    let i = 0;
    expect(instantCodeFrom(() => bytes[i++]!)).toBe(INSTANT_CODE_ALPHABET.slice(0, 6));
  });

  it('reads what a guest typed: any case, spaces and dashes; refuses look-alikes', () => {
    expect(normaliseInstantCode('ab c-def')).toBe('ABCDEF');
    expect(normaliseInstantCode('ABCDE0')).toBeNull();
    expect(normaliseInstantCode('ABCDE')).toBeNull();
    expect(parseInstantParam('k7xq-ab2c3d')).toEqual({ eventName: 'K7XQ', code: 'AB2C3D' });
    expect(parseInstantParam('K7XQ')).toBeNull();
    expect(parseInstantParam('K7XQ-AB2C3D-1')).toBeNull();
    expect(instantLinkUrl('https://x.test/', 'K7XQ', 'AB2C3D')).toBe(
      'https://x.test/?instant=K7XQ-AB2C3D',
    );
  });
});

describe('the collision rule', () => {
  it('draws again while the event already has the code', async () => {
    const taken = new Set(['AAAAAA', 'BBBBBB']);
    const draws = ['AAAAAA', 'BBBBBB', 'CCCCCC'];
    const tried: string[] = [];
    const code = await allocateInstantCode(
      (c) => {
        tried.push(c);
        return Promise.resolve(!taken.has(c));
      },
      () => draws.shift()!,
    );
    expect(code).toBe('CCCCCC');
    expect(tried).toEqual(['AAAAAA', 'BBBBBB', 'CCCCCC']);
  });

  it(`gives up after ${INSTANT_CODE_ATTEMPTS} clashes in a row with an error, not a loop`, async () => {
    let tries = 0;
    const refused = await allocateInstantCode(
      () => {
        tries++;
        return Promise.resolve(false);
      },
      () => 'AAAAAA',
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(tries).toBe(INSTANT_CODE_ATTEMPTS);
  });
});
