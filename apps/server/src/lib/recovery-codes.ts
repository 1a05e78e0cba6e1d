import { randomInt } from 'node:crypto';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  formatRecoveryCode,
} from '@flashbulb/shared';
import type { SecretBox } from './secret-box.ts';

/**
 * A new set of two-factor recovery codes: `RECOVERY_CODE_COUNT` distinct codes of 50 random bits
 * each (10 characters of a 32-letter alphabet), as shown to the user (`abcde-fgh0k`).
 */
export const generateRecoveryCodes = (count = RECOVERY_CODE_COUNT): string[] => {
  const codes = new Set<string>();
  while (codes.size < count) {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    codes.add(code);
  }
  return [...codes].map(formatRecoveryCode);
};

/**
 * What is stored of a (normalised) code: a keyed HMAC, so the database alone cannot be searched
 * for codes offline. The caller normalises first (`normaliseRecoveryCode`), as the contract does.
 */
export const recoveryCodeHash = (secrets: Pick<SecretBox, 'hmac'>, normalisedCode: string) =>
  secrets.hmac(`mfa-recovery:${normalisedCode}`);
