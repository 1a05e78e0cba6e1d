import { z } from 'zod';
import { isCommonPassword } from './common-passwords.ts';

export const PASSWORD_MIN_LENGTH = 8;
/** NIST SP 800-63B asks for at least 64; we allow more so pass phrases fit. */
export const PASSWORD_MAX_LENGTH = 256;
/** The longest e-mail address any call takes (RFC 5321: a 64-character local part, @, a 255-character domain). */
export const EMAIL_MAX_LENGTH = 320;
export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
export const TOTP_ISSUER = 'Flashbulb';
export const TOTP_DEVICE_NAME = 'My TOTP device';
export const TEMPORARY_PASSWORD_DAYS = 7;
export const RESET_CODE_MINUTES = 15;
export const RESET_CODE_MAX_TRIES = 5;
export const LOCKOUT_FREE_FAILURES = 5;
export const LOCKOUT_MAX_WAIT_SECONDS = 15 * 60;
export const LOCKOUT_FORGET_SECONDS = 15 * 60;
export const LOCKOUT_MAX_FAILURES_PER_HOUR = 100;

/**
 * Seconds a client must wait after its latest failure before the next attempt counts, given the
 * number of consecutive failures so far: none for the first five, then 2^(n−5) s, capped at 15 min.
 */
export const lockoutWaitSeconds = (consecutiveFailures: number): number => {
  if (consecutiveFailures < LOCKOUT_FREE_FAILURES) return 0;
  const exponent = consecutiveFailures - LOCKOUT_FREE_FAILURES;
  if (exponent >= 10) return LOCKOUT_MAX_WAIT_SECONDS;
  return Math.min(2 ** exponent, LOCKOUT_MAX_WAIT_SECONDS);
};

/** E-mail as user name: trimmed and lower-cased so one person has one account. */
export const normaliseEmail = (value: string): string => value.trim().toLowerCase();

// A pragmatic address check (RFC 5322 is looser): local@domain.tld, no spaces.
const EMAIL_PATTERN =
  /^[^\s@"(),:;<>[\\\]]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

export const isValidEmail = (value: string): boolean =>
  value.length <= 254 && EMAIL_PATTERN.test(value.trim());

export const emailSchema = z
  .string({ error: 'email_required' })
  .trim()
  .min(1, 'email_required')
  .max(254, 'email_invalid')
  .refine(isValidEmail, 'email_invalid')
  .transform(normaliseEmail)
  .describe('E-mail address (the user name)');

/** The user name at sign-in: any text, so an unknown or malformed name answers like a wrong password. */
export const usernameSchema = z
  .string({ error: 'email_required' })
  .trim()
  .min(1, 'email_required')
  .max(EMAIL_MAX_LENGTH, 'user_name_or_password_incorrect')
  .transform(normaliseEmail)
  .describe('The e-mail address the account was created with');

/** Password presented at sign-in: never judged, only compared. */
export const passwordInputSchema = z
  .string({ error: 'password_required' })
  .min(1, 'password_required')
  .max(1024, 'user_name_or_password_incorrect');

/** A password being chosen: length rules only, no composition rules, common ones refused. */
export const newPasswordSchema = z
  .string({ error: 'invalid_password' })
  .min(PASSWORD_MIN_LENGTH, 'invalid_password')
  .max(PASSWORD_MAX_LENGTH, 'password_too_long')
  .refine((value) => !isCommonPassword(value), 'invalid_password')
  .refine((value) => value.trim().length >= PASSWORD_MIN_LENGTH, 'invalid_password')
  .describe(`At least ${PASSWORD_MIN_LENGTH} characters; common passwords are refused`);

/** Recovery codes made at a time; each replaces one authenticator code, once. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (shown as two groups of five). */
export const RECOVERY_CODE_LENGTH = 10;
/** Crockford's base 32: no i, l, o or u, so a code read off paper is typed back right. */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A recovery code as typed: case, spaces and dashes do not matter, and the letters people confuse
 * with digits (o, i, l) read as the digits, so `ABCDE-FGH0K`, `abcde fgh0k` and `abcdefghok` are one code.
 */
export const normaliseRecoveryCode = (value: string): string =>
  value.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');

const RECOVERY_CODE_PATTERN = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`);

/** How a code is shown: `abcde-fgh0k`. */
export const formatRecoveryCode = (code: string): string =>
  `${code.slice(0, RECOVERY_CODE_LENGTH / 2)}-${code.slice(RECOVERY_CODE_LENGTH / 2)}`;

export const recoveryCodeSchema = z
  .string({ error: 'recovery_code_required' })
  .trim()
  .min(1, 'recovery_code_required')
  .max(40, 'recovery_code_format')
  .transform(normaliseRecoveryCode)
  .refine((value) => RECOVERY_CODE_PATTERN.test(value), 'recovery_code_format')
  .describe('One of the recovery codes shown when two-factor was set up (abcde-fgh0k)');

export const totpCodeSchema = z
  .string({ error: 'code_required' })
  .trim()
  .min(1, 'code_required')
  .regex(/^\d{6}$/, 'code_format')
  .describe('6-digit code from the authenticator app');

export const resetCodeSchema = z
  .string({ error: 'code_required' })
  .trim()
  .min(1, 'code_required')
  .regex(/^\d{6}$/, 'code_format')
  .describe('6-digit code from the password-reset e-mail');

export const Role = { SUPER_USER: 1, ADMIN: 2, EVENT_OWNER: 3 } as const;
export type Role = (typeof Role)[keyof typeof Role];
export const roleSchema = z
  .union([z.literal(1), z.literal(2), z.literal(3)], { error: 'role_invalid' })
  .describe('1 super user, 2 admin, 3 event owner');
export const roleNames: Record<Role, string> = { 1: 'Super user', 2: 'Admin', 3: 'Event owner' };
