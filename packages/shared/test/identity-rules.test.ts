import { describe, expect, it } from 'vitest';
import {
  emailSchema,
  isCommonPassword,
  lockoutWaitSeconds,
  newPasswordSchema,
  totpCodeSchema,
  usernameSchema,
  formatRecoveryCode,
  normaliseRecoveryCode,
  recoveryCodeSchema,
} from '../src/index.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('password rules', () => {
  it('needs at least 8 characters and allows at least 64', () => {
    expect(firstMessage(newPasswordSchema.safeParse('seven77'))).toBe('invalid_password');
    expect(newPasswordSchema.safeParse('eight888x').success).toBe(true);
    expect(newPasswordSchema.safeParse('x'.repeat(40) + 'y'.repeat(40)).success).toBe(true);
    expect(newPasswordSchema.safeParse('z'.repeat(256)).success).toBe(true);
    expect(firstMessage(newPasswordSchema.safeParse('z'.repeat(257)))).toBe('password_too_long');
  });

  it('has no composition rules', () => {
    for (const value of [
      'alllowercaseletters',
      'ALL UPPER CASE',
      '9183746502918',
      'çàéèù ñ ß 漢字漢字',
    ]) {
      expect(newPasswordSchema.safeParse(value).success, value).toBe(true);
    }
  });

  it('refuses common passwords whatever their case', () => {
    for (const value of ['password', 'Password1', 'QWERTYUIOP', '12345678', 'iloveyou']) {
      expect(isCommonPassword(value), value).toBe(true);
      expect(firstMessage(newPasswordSchema.safeParse(value)), value).toBe('invalid_password');
    }
    expect(isCommonPassword('violet tuesday lamp')).toBe(false);
  });

  it('refuses passwords that are mostly blanks', () => {
    expect(firstMessage(newPasswordSchema.safeParse('        a'))).toBe('invalid_password');
  });
});

describe('lockout curve', () => {
  it('is free for five failures, then doubles from 1 s, capped at 15 minutes', () => {
    expect([0, 1, 2, 3, 4].map(lockoutWaitSeconds)).toEqual([0, 0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 14].map(lockoutWaitSeconds)).toEqual([1, 2, 4, 8, 16, 512]);
    expect(lockoutWaitSeconds(15)).toBe(900);
    expect(lockoutWaitSeconds(1000)).toBe(900);
  });
});

describe('e-mail and codes', () => {
  it('normalises e-mail user names', () => {
    expect(emailSchema.parse('  Someone@Example.COM ')).toBe('someone@example.com');
    expect(usernameSchema.parse('A@B.C')).toBe('a@b.c');
  });

  it('refuses malformed e-mail addresses with email_invalid', () => {
    for (const value of ['plain', 'a@b', 'a b@c.com', '@example.com', 'a@-example.com']) {
      expect(firstMessage(emailSchema.safeParse(value)), value).toBe('email_invalid');
    }
    expect(firstMessage(emailSchema.safeParse(''))).toBe('email_required');
  });

  it('takes exactly six digits as a code', () => {
    expect(totpCodeSchema.parse(' 012345 ')).toBe('012345');
    for (const value of ['12345', '1234567', '12a456']) {
      expect(firstMessage(totpCodeSchema.safeParse(value)), value).toBe('code_format');
    }
  });
});

describe('recovery codes', () => {
  it('reads a code however it was typed: case, spaces, dashes and look-alike letters', () => {
    expect(recoveryCodeSchema.parse(' ABCDE-FGH0K ')).toBe('abcdefgh0k');
    expect(recoveryCodeSchema.parse('abcde fghok')).toBe('abcdefgh0k');
    expect(normaliseRecoveryCode('1IlL0oO')).toBe('1111000');
    expect(formatRecoveryCode('abcdefgh0k')).toBe('abcde-fgh0k');
  });

  it('refuses what cannot be a code with its own keys', () => {
    const keyOf = (value: string) => recoveryCodeSchema.safeParse(value).error?.issues[0]?.message;
    expect(keyOf('')).toBe('recovery_code_required');
    expect(keyOf('abcd')).toBe('recovery_code_format');
    expect(keyOf('abcde-fghuk')).toBe('recovery_code_format');
    expect(keyOf('x'.repeat(41))).toBe('recovery_code_format');
  });
});
