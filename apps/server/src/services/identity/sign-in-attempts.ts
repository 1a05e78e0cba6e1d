import {
  LOCKOUT_FORGET_SECONDS,
  LOCKOUT_MAX_FAILURES_PER_HOUR,
  lockoutWaitSeconds,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { matchTotp } from '../../lib/totp.ts';
import type { RecoveryCodeRepository } from '../../repositories/identity/recovery-code.repository.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';
import type { UserRepository, UserRow } from '../../repositories/identity/user.repository.ts';

/**
 * Sign-in attempts of one account, counted in the throttle table: the lockout every password or
 * code check goes through (sign-in, two-factor set-up, password reset), and the failures that
 * feed it.
 */
export class SignInAttempts {
  constructor(
    private readonly deps: {
      throttle: ThrottleRepository;
      users: Pick<UserRepository, 'claimTotpStep'>;
      recoveryCodes: Pick<RecoveryCodeRepository, 'claim'>;
      clock: Clock;
    },
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Refuses an attempt while the account waits out its lockout or has spent its hourly failures. */
  async assertNotLockedOut(username: string): Promise<void> {
    const row = await this.deps.throttle.get(username);
    if (!row?.lastFailureAt) return;
    const now = this.now().getTime();
    const sinceLast = now - row.lastFailureAt.getTime();
    if (row.hourWindowStart && now - row.hourWindowStart.getTime() < 3_600_000) {
      if (row.hourFailures >= LOCKOUT_MAX_FAILURES_PER_HOUR)
        throw new AppError('too_many_attempts');
    }
    if (sinceLast >= LOCKOUT_FORGET_SECONDS * 1000) return;
    const waitMs = lockoutWaitSeconds(row.consecutiveFailures) * 1000;
    if (sinceLast < waitMs) throw new AppError('too_many_attempts');
  }

  async fail(
    username: string,
    key:
      | 'user_name_or_password_incorrect'
      | 'current_password_incorrect'
      | 'code_mismatch'
      | 'recovery_code_mismatch',
    field?: string,
  ): Promise<never> {
    await this.deps.throttle.recordFailure(username, this.now(), LOCKOUT_FORGET_SECONDS);
    throw new AppError(key, field);
  }

  /** A correct, unused code for the secret, or a counted failure. */
  async checkTotp(user: UserRow, secret: string, code: string): Promise<number> {
    const step = matchTotp(secret, code, this.now().getTime());
    if (step === null) return this.fail(user.email, 'code_mismatch', 'code');
    if (!(await this.deps.users.claimTotpStep(user.id, step)))
      return this.fail(user.email, 'code_mismatch', 'code');
    return step;
  }

  /**
   * One of the user's unused recovery codes (by its stored hash), now spent; or a failure counted
   * like a wrong authenticator code, so the codes cannot be guessed faster than the codes they replace.
   */
  async checkRecoveryCode(user: UserRow, codeHash: string): Promise<void> {
    if (!(await this.deps.recoveryCodes.claim(user.id, codeHash, this.now())))
      return this.fail(user.email, 'recovery_code_mismatch', 'recovery_code');
  }

  /** A sign-in or reset that went through: the account's failures are forgotten. */
  async succeeded(username: string): Promise<void> {
    await this.deps.throttle.recordSuccess(username);
  }
}
