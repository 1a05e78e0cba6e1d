import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  LOCKOUT_FORGET_SECONDS,
  LOCKOUT_MAX_FAILURES_PER_HOUR,
  RESET_CODE_MAX_TRIES,
  RESET_CODE_MINUTES,
  Role,
  TOTP_ISSUER,
  lockoutWaitSeconds,
  type AuthenticationResult,
  type ChallengeName,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type SignInResult,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { signJwt, verifyJwt } from '../../lib/jwt.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/secret-box.ts';
import { generateTotpSecret, matchTotp, otpauthUri } from '../../lib/totp.ts';
import type {
  ApiKeyRepository,
  CallerRow,
} from '../../repositories/identity/api-key.repository.ts';
import type { SessionRepository } from '../../repositories/identity/session.repository.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';
import type { UserRepository, UserRow } from '../../repositories/identity/user.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { MailService } from '../messaging/mail.service.ts';
import { escapeHtml } from '../../lib/escape-html.ts';

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_DAYS = 30;
export const CHALLENGE_MINUTES = 10;
/** One reset e-mail per account per minute, whatever the caller asks. */
const RESET_MAIL_INTERVAL_MS = 60_000;

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

export interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  throttle: ThrottleRepository;
  apiKeys: ApiKeyRepository;
  mail: MailService;
  hasher: PasswordHasher;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  mfaExemptUsers: ReadonlySet<string>;
  publicUrl: string;
  /** Queues the forgot-password work (job `auth.password-reset`, which calls `sendResetCode`). */
  queueResetCode: (username: string) => Promise<void>;
}

export interface IssuedTokens {
  result: AuthenticationResult;
  refreshToken: string;
}

/** Identity: sign-in with challenges, TOTP two-factor, sessions, password reset, lockout. */
/** How stale an API key's "last used" may get before a call updates it. */
export const API_KEY_TOUCH_MS = 60_000;

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  isMfaExempt(email: string): boolean {
    return this.deps.mfaExemptUsers.has(email.toLowerCase());
  }

  // ---- lockout ------------------------------------------------------------------------------

  /** Refuses an attempt while the account waits out its lockout or has spent its hourly failures. */
  private async assertNotLockedOut(username: string): Promise<void> {
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

  private async fail(
    username: string,
    key: 'user_name_or_password_incorrect' | 'code_mismatch',
    field?: string,
  ): Promise<never> {
    await this.deps.throttle.recordFailure(username, this.now(), LOCKOUT_FORGET_SECONDS);
    throw new AppError(key, field);
  }

  // ---- sign-in ------------------------------------------------------------------------------

  async signIn(input: Body<'signIn'>): Promise<IssuedTokens | SignInResult> {
    await this.assertNotLockedOut(input.username);
    const user = await this.deps.users.findByEmail(input.username);
    const passwordOk = user
      ? await this.deps.hasher.verify(user.passwordHash, input.password)
      : await this.deps.hasher.verifyAgainstDummy(input.password);
    if (!user || !passwordOk) return this.fail(input.username, 'user_name_or_password_incorrect');
    // Told only to whoever knows the password, so it says nothing about which e-mails exist.
    if (user.disabledAt) throw new AppError('user_disabled');
    if (
      user.status === 'FORCE_CHANGE_PASSWORD' &&
      user.temporaryPasswordExpiresAt &&
      user.temporaryPasswordExpiresAt <= this.now()
    ) {
      throw new AppError('temporary_password_expired');
    }
    return this.nextStep(user);
  }

  /** After the password: a new password, the authenticator, or tokens. */
  private async nextStep(user: UserRow): Promise<IssuedTokens | SignInResult> {
    if (user.status === 'FORCE_CHANGE_PASSWORD')
      return this.challenge(user, 'NEW_PASSWORD_REQUIRED');
    if (user.totpEnabled && user.totpSecret) return this.challenge(user, 'SOFTWARE_TOKEN_MFA');
    if (this.isMfaExempt(user.email)) return this.completeSignIn(user);
    return this.challenge(user, 'MFA_SETUP');
  }

  private async challenge(user: UserRow, challengeName: ChallengeName): Promise<SignInResult> {
    const session = randomToken(32);
    await this.deps.sessions.createChallenge({
      tokenHash: hashToken(session),
      userId: user.id,
      challengeName,
      expiresAt: new Date(this.now().getTime() + CHALLENGE_MINUTES * 60_000),
    });
    return { challenge_name: challengeName, session };
  }

  async respondToChallenge(
    input: Body<'respondToChallenge'>,
  ): Promise<IssuedTokens | SignInResult> {
    const tokenHash = hashToken(input.session);
    const challenge = await this.deps.sessions.findChallenge(tokenHash, this.now());
    if (!challenge) throw new AppError('invalid_session', 'session');
    if (challenge.challengeName !== input.challenge_name)
      throw new AppError('invalid_challenge', 'challenge_name');
    const user = await this.deps.users.findById(challenge.userId);
    if (!user || user.disabledAt) throw new AppError('invalid_session', 'session');

    switch (input.challenge_name) {
      case 'NEW_PASSWORD_REQUIRED': {
        if (!input.new_password) throw new AppError('invalid_password', 'new_password');
        if (!(await this.deps.sessions.deleteChallenge(tokenHash)))
          throw new AppError('invalid_session', 'session');
        await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(input.new_password));
        const updated = await this.deps.users.findById(user.id);
        if (!updated) throw new AppError('invalid_session', 'session');
        return this.nextStep(updated);
      }
      case 'MFA_SETUP': {
        if (!challenge.totpVerified) throw new AppError('mfa_not_set_up');
        if (!(await this.deps.sessions.deleteChallenge(tokenHash)))
          throw new AppError('invalid_session', 'session');
        return this.completeSignIn(user);
      }
      case 'SOFTWARE_TOKEN_MFA': {
        if (!input.code) throw new AppError('code_required', 'code');
        await this.assertNotLockedOut(user.email);
        if (!user.totpSecret) throw new AppError('mfa_not_set_up');
        await this.checkTotp(user, this.deps.secrets.decrypt(user.totpSecret), input.code);
        if (!(await this.deps.sessions.deleteChallenge(tokenHash)))
          throw new AppError('invalid_session', 'session');
        return this.completeSignIn(user);
      }
    }
  }

  /** A correct, unused code for the secret, or a counted failure. */
  private async checkTotp(user: UserRow, secret: string, code: string): Promise<number> {
    const step = matchTotp(secret, code, this.now().getTime());
    if (step === null) return this.fail(user.email, 'code_mismatch', 'code');
    if (!(await this.deps.users.claimTotpStep(user.id, step)))
      return this.fail(user.email, 'code_mismatch', 'code');
    return step;
  }

  private async completeSignIn(user: UserRow): Promise<IssuedTokens> {
    await this.deps.throttle.recordSuccess(user.email);
    return this.issueTokens(user, randomToken(18));
  }

  private async issueTokens(
    user: UserRow,
    sessionId: string,
    existing = false,
  ): Promise<IssuedTokens> {
    const now = this.now();
    const refreshToken = randomToken(32);
    if (!existing) {
      await this.deps.sessions.create({
        id: sessionId,
        userId: user.id,
        refreshTokenHash: hashToken(refreshToken),
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
      });
    }
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + ACCESS_TOKEN_SECONDS;
    const key = this.deps.secrets.signingKey;
    return {
      refreshToken,
      result: {
        access_token: signJwt(
          { typ: 'access', sub: String(user.id), sid: sessionId, iat, exp },
          key,
        ),
        id_token: signJwt(
          {
            typ: 'id',
            sub: String(user.id),
            email: user.email,
            role: user.role,
            organisation_id: user.organisationId,
            iat,
            exp,
          },
          key,
        ),
        refresh_token: refreshToken,
        expires_in: ACCESS_TOKEN_SECONDS,
        token_type: 'Bearer',
      },
    };
  }

  // ---- authenticator set-up -------------------------------------------------------------------

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
    await this.assertNotLockedOut(user.email);
    if (input.password !== undefined) {
      if (!(await this.deps.hasher.verify(user.passwordHash, input.password)))
        return this.fail(user.email, 'user_name_or_password_incorrect', 'password');
      return;
    }
    if (!user.totpSecret || !user.totpEnabled) throw new AppError('mfa_not_set_up');
    await this.checkTotp(user, this.deps.secrets.decrypt(user.totpSecret), input.code ?? '');
  }

  async verifySoftwareToken(
    actor: SignedInUser | null,
    input: Body<'verifySoftwareToken'>,
  ): Promise<{ status: 'SUCCESS'; session?: string }> {
    if (input.session) {
      const tokenHash = hashToken(input.session);
      const challenge = await this.deps.sessions.findChallenge(tokenHash, this.now());
      if (!challenge || challenge.challengeName !== 'MFA_SETUP')
        throw new AppError('invalid_session', 'session');
      if (!challenge.pendingTotpSecret) throw new AppError('mfa_not_set_up');
      const user = await this.deps.users.findById(challenge.userId);
      if (!user) throw new AppError('invalid_session', 'session');
      await this.assertNotLockedOut(user.email);
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
      return { status: 'SUCCESS', session: input.session };
    }
    if (!actor?.sessionId) throw new AppError('unauthorized_user');
    const sealed = await this.deps.sessions.takePendingTotp(actor.userId);
    if (!sealed) throw new AppError('mfa_not_set_up');
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    await this.assertNotLockedOut(user.email);
    const step = await this.verifyNewSecret(user, this.deps.secrets.decrypt(sealed), input.code);
    await this.deps.users.setTotp(user.id, sealed, true, step);
    await this.deps.sessions.clearPendingTotp(user.id);
    return { status: 'SUCCESS' };
  }

  /** The first code from a new authenticator: right for the new secret, and not a replay. */
  private async verifyNewSecret(user: UserRow, secret: string, code: string): Promise<number> {
    const step = matchTotp(secret, code, this.now().getTime());
    if (step === null) return this.fail(user.email, 'code_mismatch', 'code');
    if (user.totpLastStep !== null && step <= user.totpLastStep)
      return this.fail(user.email, 'code_mismatch', 'code');
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
    if (!wantOn && !this.isMfaExempt(user.email)) throw new AppError('forbidden');
    await this.deps.users.setTotpEnabled(user.id, wantOn);
  }

  // ---- tokens ---------------------------------------------------------------------------------

  async refresh(refreshToken: string | undefined): Promise<IssuedTokens> {
    if (!refreshToken) throw new AppError('unauthorized_user');
    const presented = hashToken(refreshToken);
    const now = this.now();
    const session = await this.deps.sessions.findByRefreshHash(presented);
    if (!session) {
      // A rotated-out token presented again was copied: end that session for everyone.
      const stolen = await this.deps.sessions.findByPreviousRefreshHash(presented);
      if (stolen) {
        await this.deps.sessions.revoke(stolen.id, now);
        this.deps.logger.warn(
          { sessionUser: stolen.userId },
          'refresh token reuse; session revoked',
        );
      }
      throw new AppError('unauthorized_user');
    }
    if (session.revokedAt || session.expiresAt <= now) throw new AppError('unauthorized_user');
    const user = await this.deps.users.findById(session.userId);
    if (!user || user.disabledAt) throw new AppError('unauthorized_user');
    const issued = await this.issueTokens(user, session.id, true);
    if (
      !(await this.deps.sessions.rotate(session.id, presented, hashToken(issued.refreshToken), now))
    ) {
      throw new AppError('unauthorized_user');
    }
    return issued;
  }

  async signOut(actor: SignedInUser | null, refreshToken: string | undefined): Promise<void> {
    const now = this.now();
    if (actor?.sessionId) await this.deps.sessions.revoke(actor.sessionId, now);
    if (refreshToken) {
      const session = await this.deps.sessions.findByRefreshHash(hashToken(refreshToken));
      if (session) await this.deps.sessions.revoke(session.id, now);
    }
  }

  /** Resolves `Authorization` into an actor: `Bearer <access token>` or a user API key. */
  async authenticate(authorization: string | undefined): Promise<SignedInUser> {
    if (!authorization) throw new AppError('unauthorized_user');
    const now = this.now();
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (bearer) {
      const claims = verifyJwt(bearer[1]!, this.deps.secrets.signingKey, now.getTime());
      if (!claims || claims.typ !== 'access' || typeof claims.sid !== 'string')
        throw new AppError('unauthorized_user');
      const found = await this.deps.sessions.findActive(claims.sid, now);
      if (!found || String(found.session.userId) !== claims.sub)
        throw new AppError('unauthorized_user');
      return signedInUserOf(found.user, found.session.id);
    }
    const found = await this.deps.apiKeys.findByHash(hashToken(authorization.trim()));
    if (!found) throw new AppError('unauthorized_user');
    const apiKey = found.key;
    // "Last used" is shown to the minute: one write a minute per key, not one per call (a robot
    // or script calling many times a second would otherwise write on every call).
    if (!apiKey.lastUsedAt || now.getTime() - apiKey.lastUsedAt.getTime() >= API_KEY_TOUCH_MS)
      await this.deps.apiKeys.touch(apiKey.id, now);
    return signedInUserOf(found.user, null);
  }

  // ---- password reset -------------------------------------------------------------------------

  /**
   * A forgot-password request: it only queues the work, the same for every address, so neither the
   * answer nor its timing tells whether the account exists.
   */
  async forgotPassword(input: Body<'forgotPassword'>): Promise<void> {
    await this.deps.queueResetCode(input.username);
  }

  /** The job's work: a code for a known account (at most one mail a minute), nothing otherwise. */
  async sendResetCode(username: string): Promise<void> {
    const user = await this.deps.users.findByEmail(username);
    if (!user) return;
    const existing = await this.deps.throttle.getResetCode(user.id);
    if (existing && this.now().getTime() - existing.createdAt.getTime() < RESET_MAIL_INTERVAL_MS)
      return;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.deps.throttle.putResetCode(
      user.id,
      this.deps.secrets.hmac(`${user.id}:${code}`),
      new Date(this.now().getTime() + RESET_CODE_MINUTES * 60_000),
    );
    await this.deps.mail.send({
      kind: 'password_reset',
      to: user.email,
      subject: 'Your Flashbulb password reset code',
      text:
        `Your code to reset your Flashbulb password is ${code}.\n\n` +
        `It is valid for ${RESET_CODE_MINUTES} minutes. If you did not ask for it, ignore this e-mail; ` +
        `your password stays as it is.\n\n${this.deps.publicUrl}/`,
      html:
        `<p>Your code to reset your Flashbulb password is <strong>${code}</strong>.</p>` +
        `<p>It is valid for ${RESET_CODE_MINUTES} minutes. If you did not ask for it, ignore this e-mail; ` +
        `your password stays as it is.</p><p><a href="${escapeHtml(this.deps.publicUrl)}/">Flashbulb</a></p>`,
    });
  }

  async confirmForgotPassword(input: Body<'confirmForgotPassword'>): Promise<void> {
    await this.assertNotLockedOut(input.username);
    const user = await this.deps.users.findByEmail(input.username);
    const row = user ? await this.deps.throttle.getResetCode(user.id) : undefined;
    if (!user || !row) return this.fail(input.username, 'code_mismatch', 'code');
    if (row.expiresAt <= this.now() || row.tries >= RESET_CODE_MAX_TRIES)
      throw new AppError('expired_code', 'code');
    const codeHash = this.deps.secrets.hmac(`${user.id}:${input.code}`);
    if (codeHash !== row.codeHash) {
      await this.deps.throttle.countResetTry(user.id);
      return this.fail(input.username, 'code_mismatch', 'code');
    }
    if (!(await this.deps.throttle.deleteResetCode(user.id, codeHash)))
      throw new AppError('expired_code', 'code');
    await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(input.new_password));
    // Whoever had the old password may hold a session or have made an API key: both end here.
    await this.deps.sessions.revokeAllForUser(user.id, this.now());
    await this.deps.apiKeys.deleteAllForUser(user.id);
    await this.deps.throttle.recordSuccess(input.username);
  }

  // ---- first administrator ----------------------------------------------------------------------

  async needsFirstAdmin(): Promise<boolean> {
    return (await this.deps.users.count()) === 0;
  }

  /**
   * The token that lets a visitor from another machine claim an empty install; printed in the log
   * at start. Derived from the secret, so every process of the install knows the same one.
   */
  setupToken(): string {
    return this.deps.secrets.hmac('first-admin-set-up-token').slice(0, 32);
  }

  /**
   * The first super user. An empty install would belong to whoever comes first, so only a caller
   * on the server machine itself (`local`) or one with the logged set-up token may claim it. The
   * environment's admin (`bootstrap.ts`) is local.
   */
  async createFirstAdmin(
    input: Body<'createFirstAdmin'>,
    origin: { local: boolean },
  ): Promise<{ email: string }> {
    if (!(await this.needsFirstAdmin())) throw new AppError('setup_already_done');
    if (!origin.local && !sameSecret(input.setup_token ?? '', this.setupToken()))
      throw new AppError('setup_token_required', 'setup_token');
    const created = await this.deps.users.createIfNoUsers({
      email: input.email,
      passwordHash: await this.deps.hasher.hash(input.password),
      role: Role.SUPER_USER,
      organisationId: null,
      status: 'CONFIRMED',
    });
    if (!created) throw new AppError('setup_already_done');
    this.deps.logger.info({ userId: created.id }, 'first administrator created');
    return { email: created.email };
  }
}

/** Compares two secrets in constant time (a length difference answers false at once). */
const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The actor of a signed-in call; a disabled user signs nothing. */
const signedInUserOf = (user: CallerRow, sessionId: string | null): SignedInUser => {
  if (user.disabledAt) throw new AppError('unauthorized_user');
  return {
    userId: user.id,
    email: user.email,
    role: user.role as Role,
    organisationId: user.organisationId,
    sessionId,
  };
};
