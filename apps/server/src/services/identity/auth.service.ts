import {
  Role,
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
import { recoveryCodeHash } from '../../lib/recovery-codes.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/secret-box.ts';
import type {
  ApiKeyRepository,
  CallerRow,
} from '../../repositories/identity/api-key.repository.ts';
import type { SessionRepository } from '../../repositories/identity/session.repository.ts';
import type { UserRepository, UserRow } from '../../repositories/identity/user.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { SignInAttempts } from './sign-in-attempts.ts';

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_DAYS = 30;
/**
 * How long after a rotation the token it replaced still rotates (once it is the previous one):
 * long enough for a page load that raced a refresh, short enough that a copied token is stale.
 */
export const REFRESH_REUSE_GRACE_MS = 20_000;
export const CHALLENGE_MINUTES = 10;

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

export interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  hasher: PasswordHasher;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  mfaExemptUsers: ReadonlySet<string>;
  attempts: SignInAttempts;
}

export interface IssuedTokens {
  result: AuthenticationResult;
  refreshToken: string;
}

/** How stale an API key's "last used" may get before a call updates it. */
export const API_KEY_TOUCH_MS = 60_000;

/**
 * Sign-in with its challenges (new password, two-factor code, authenticator set-up), tokens and
 * sessions, and who a request's Authorization names. Two-factor enrolment, password reset and
 * the first administrator are their own services beside this one.
 */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  isMfaExempt(email: string): boolean {
    return this.deps.mfaExemptUsers.has(email.toLowerCase());
  }

  // ---- sign-in ------------------------------------------------------------------------------

  async signIn(input: Body<'signIn'>): Promise<IssuedTokens | SignInResult> {
    await this.deps.attempts.assertNotLockedOut(input.username);
    const user = await this.deps.users.findByEmail(input.username);
    const passwordOk = user
      ? await this.deps.hasher.verify(user.passwordHash, input.password)
      : await this.deps.hasher.verifyAgainstDummy(input.password);
    if (!user || !passwordOk)
      return this.deps.attempts.fail(input.username, 'user_name_or_password_incorrect');
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
        if (!input.code && !input.recovery_code) throw new AppError('code_required', 'code');
        await this.deps.attempts.assertNotLockedOut(user.email);
        if (!user.totpSecret) throw new AppError('mfa_not_set_up');
        if (input.code) {
          await this.deps.attempts.checkTotp(
            user,
            this.deps.secrets.decrypt(user.totpSecret),
            input.code,
          );
        } else if (input.recovery_code) {
          await this.deps.attempts.checkRecoveryCode(
            user,
            recoveryCodeHash(this.deps.secrets, input.recovery_code),
          );
          // Recorded: the code's used_at, and this line for whoever reads the server's log.
          this.deps.logger.info({ userId: user.id }, 'two-factor recovery code used at sign-in');
        }
        if (!(await this.deps.sessions.deleteChallenge(tokenHash)))
          throw new AppError('invalid_session', 'session');
        return this.completeSignIn(user);
      }
    }
  }

  private async completeSignIn(user: UserRow): Promise<IssuedTokens> {
    await this.deps.attempts.succeeded(user.email);
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

  // ---- tokens ---------------------------------------------------------------------------------

  async refresh(refreshToken: string | undefined): Promise<IssuedTokens> {
    if (!refreshToken) throw new AppError('unauthorized_user');
    const presented = hashToken(refreshToken);
    const now = this.now();
    const session = await this.deps.sessions.findByRefreshHash(presented);
    if (!session) {
      const previous = await this.deps.sessions.findByPreviousRefreshHash(presented);
      if (previous && !previous.revokedAt && previous.expiresAt > now) {
        // Seconds after a rotation, the token it replaced comes from the browser whose navigation
        // dropped the rotation's answer (and its cookie): rotate once more instead of ending it.
        const user = await this.deps.users.findById(previous.userId);
        if (user && !user.disabledAt) {
          const issued = await this.issueTokens(user, previous.id, true);
          if (await this.rotateJustReplaced(previous.id, presented, issued, now)) return issued;
        }
      }
      // Later, a rotated-out token presented again was copied: end that session for everyone.
      const stolen = previous;
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
    const refreshHash = hashToken(issued.refreshToken);
    if (await this.deps.sessions.rotate(session.id, presented, refreshHash, now)) return issued;
    // Another refresh with the same token rotated it between our look-up and our rotation: two
    // page loads of one browser at once. The token is now the one just replaced.
    if (await this.rotateJustReplaced(session.id, presented, issued, now)) return issued;
    throw new AppError('unauthorized_user');
  }

  /**
   * Rotates the session to `issued` from the token the last rotation replaced, while that
   * rotation is recent (`REFRESH_REUSE_GRACE_MS`); false otherwise or once the session is revoked.
   */
  private rotateJustReplaced(
    sessionId: string,
    replacedHash: string,
    issued: IssuedTokens,
    now: Date,
  ): Promise<boolean> {
    return this.deps.sessions.rotateFromPrevious(
      sessionId,
      replacedHash,
      hashToken(issued.refreshToken),
      new Date(now.getTime() - REFRESH_REUSE_GRACE_MS),
    );
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
}

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
