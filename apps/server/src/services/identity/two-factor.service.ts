import {
  normaliseRecoveryCode,
  TOTP_ISSUER,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import { generateRecoveryCodes, recoveryCodeHash } from '../../lib/recovery-codes.ts';
import { hashToken, type SecretBox } from '../../lib/secret-box.ts';
import { generateTotpSecret, matchTotp, otpauthUri } from '../../lib/totp.ts';
import type { RecoveryCodeRepository } from '../../repositories/identity/recovery-code.repository.ts';
import type { SessionRepository } from '../../repositories/identity/session.repository.ts';
import type { UserRepository, UserRow } from '../../repositories/identity/user.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { SignInAttempts } from './sign-in-attempts.ts';

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/**
 * Two-factor enrolment: an authenticator set up during sign-in (the MFA_SETUP challenge) or by a
 * signed-in user, its first code, and turning two-factor on or off; the recovery codes that stand
 * in for the authenticator when it is lost.
 */
export class TwoFactorService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      sessions: SessionRepository;
      recoveryCodes: RecoveryCodeRepository;
      hasher: PasswordHasher;
      secrets: SecretBox;
      clock: Clock;
      attempts: SignInAttempts;
      /** Accounts that may turn two-factor off (`FLASHBULB_MFA_EXEMPT_USERS`). */
      isMfaExempt: (email: string) => boolean;
    },
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async associateSoftwareToken(
    actor: SignedInUser | null,
    input: Body<'associateSoftwareToken'>,
  ): Promise<{ secret_code: string; otpauth_uri: string; session?: string }> {
    const secret = generateTotpSecret();
    const sealed = this.deps.secrets.encrypt(secret);
    if (input.session) {
      const tokenHash = hashToken(input.session);
      const challenge = await this.deps.sessions.findChallenge(tokenHash, this.now());
      if (!challenge || challenge.challengeName !== 'MFA_SETUP')
        throw new AppError('invalid_session', 'session');
      const user = await this.deps.users.findById(challenge.userId);
      if (!user) throw new AppError('invalid_session', 'session');
      await this.deps.sessions.updateChallenge(tokenHash, {
        pendingTotpSecret: sealed,
        totpVerified: false,
      });
      return {
        secret_code: secret,
        otpauth_uri: otpauthUri(secret, user.email, TOTP_ISSUER),
        session: input.session,
      };
    }
    if (!actor?.sessionId) throw new AppError('unauthorized_user');
    await this.proveItIsThem(actor, input);
    await this.deps.sessions.setPendingTotp(actor.userId, sealed);
    return { secret_code: secret, otpauth_uri: otpauthUri(secret, actor.email, TOTP_ISSUER) };
  }

  /**
   * A signed-in user adding or replacing an authenticator shows the password or a current code of
   * the authenticator they have: a stolen access token alone cannot plant the thief's own.
   */
  private async proveItIsThem(
    actor: SignedInUser,
    input: { password?: string | undefined; code?: string | undefined },
  ): Promise<void> {
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    if (input.password === undefined && input.code === undefined)
      throw new AppError('password_required', 'password');
    await this.deps.attempts.assertNotLockedOut(user.email);
    if (input.password !== undefined) {
      if (!(await this.deps.hasher.verify(user.passwordHash, input.password)))
        return this.deps.attempts.fail(user.email, 'user_name_or_password_incorrect', 'password');
      return;
    }
    if (!user.totpSecret || !user.totpEnabled) throw new AppError('mfa_not_set_up');
    await this.deps.attempts.checkTotp(
      user,
      this.deps.secrets.decrypt(user.totpSecret),
      input.code ?? '',
    );
  }

  async verifySoftwareToken(
    actor: SignedInUser | null,
    input: Body<'verifySoftwareToken'>,
  ): Promise<{ status: 'SUCCESS'; session?: string; recovery_codes: string[] }> {
    if (input.session) {
      const tokenHash = hashToken(input.session);
      const challenge = await this.deps.sessions.findChallenge(tokenHash, this.now());
      if (!challenge || challenge.challengeName !== 'MFA_SETUP')
        throw new AppError('invalid_session', 'session');
      if (!challenge.pendingTotpSecret) throw new AppError('mfa_not_set_up');
      const user = await this.deps.users.findById(challenge.userId);
      if (!user) throw new AppError('invalid_session', 'session');
      await this.deps.attempts.assertNotLockedOut(user.email);
      const step = await this.verifyNewSecret(
        user,
        this.deps.secrets.decrypt(challenge.pendingTotpSecret),
        input.code,
      );
      await this.deps.users.setTotp(user.id, challenge.pendingTotpSecret, true, step);
      await this.deps.sessions.updateChallenge(tokenHash, {
        pendingTotpSecret: null,
        totpVerified: true,
      });
      return {
        status: 'SUCCESS',
        session: input.session,
        recovery_codes: await this.newRecoveryCodes(user.id),
      };
    }
    if (!actor?.sessionId) throw new AppError('unauthorized_user');
    const sealed = await this.deps.sessions.takePendingTotp(actor.userId);
    if (!sealed) throw new AppError('mfa_not_set_up');
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    await this.deps.attempts.assertNotLockedOut(user.email);
    const step = await this.verifyNewSecret(user, this.deps.secrets.decrypt(sealed), input.code);
    await this.deps.users.setTotp(user.id, sealed, true, step);
    await this.deps.sessions.clearPendingTotp(user.id);
    return { status: 'SUCCESS', recovery_codes: await this.newRecoveryCodes(user.id) };
  }

  /** A new set replaces the old one; only the keyed hashes are kept, the codes are shown once. */
  private async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = generateRecoveryCodes();
    await this.deps.recoveryCodes.replace(
      userId,
      codes.map((code) => recoveryCodeHash(this.deps.secrets, normaliseRecoveryCode(code))),
      this.now(),
    );
    return codes;
  }

  /** Signed in, with the password or a current code: the old set stops working at once. */
  async regenerateRecoveryCodes(
    actor: SignedInUser | null,
    input: Body<'regenerateRecoveryCodes'>,
  ): Promise<{ recovery_codes: string[] }> {
    if (!actor?.sessionId) throw new AppError('unauthorized_user');
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    if (!user.totpSecret || !user.totpEnabled) throw new AppError('mfa_not_set_up');
    await this.proveItIsThem(actor, input);
    return { recovery_codes: await this.newRecoveryCodes(user.id) };
  }

  async recoveryCodesStatus(actor: SignedInUser): Promise<{
    remaining: number;
    total: number;
    generated_at: string | null;
    last_used_at: string | null;
  }> {
    const status = await this.deps.recoveryCodes.status(actor.userId);
    return {
      remaining: status.remaining,
      total: status.total,
      generated_at: status.generatedAt?.toISOString() ?? null,
      last_used_at: status.lastUsedAt?.toISOString() ?? null,
    };
  }

  /** The first code from a new authenticator: right for the new secret, and not a replay. */
  private async verifyNewSecret(user: UserRow, secret: string, code: string): Promise<number> {
    const step = matchTotp(secret, code, this.now().getTime());
    if (step === null) return this.deps.attempts.fail(user.email, 'code_mismatch', 'code');
    if (user.totpLastStep !== null && step <= user.totpLastStep)
      return this.deps.attempts.fail(user.email, 'code_mismatch', 'code');
    return step;
  }

  async setMfaPreference(
    actor: SignedInUser,
    input: Body<'setMfaPreference'>['software_token_mfa_settings'],
  ): Promise<void> {
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    const wantOn = input.enabled && input.preferred_mfa;
    if (wantOn && !user.totpSecret) throw new AppError('mfa_not_set_up');
    // Two-factor is mandatory: only exempt accounts may turn it off.
    if (!wantOn && !this.deps.isMfaExempt(user.email)) throw new AppError('forbidden');
    await this.deps.users.setTotpEnabled(user.id, wantOn);
  }
}
