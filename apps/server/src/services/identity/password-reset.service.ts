import { randomInt } from 'node:crypto';
import {
  RESET_CODE_MAX_TRIES,
  RESET_CODE_MINUTES,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { ApiKeyRepository } from '../../repositories/identity/api-key.repository.ts';
import type { SessionRepository } from '../../repositories/identity/session.repository.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';
import type { UserRepository } from '../../repositories/identity/user.repository.ts';
import type { MailService } from '../messaging/mail.service.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { SignInAttempts } from './sign-in-attempts.ts';

/** One reset e-mail per account per minute, whatever the caller asks. */
const RESET_MAIL_INTERVAL_MS = 60_000;

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/** Password reset: a code by e-mail (queued, the same answer for every address), then a new password. */
export class PasswordResetService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      sessions: SessionRepository;
      throttle: ThrottleRepository;
      apiKeys: ApiKeyRepository;
      mail: MailService;
      hasher: PasswordHasher;
      secrets: SecretBox;
      clock: Clock;
      attempts: SignInAttempts;
      publicUrl: string;
      /** Queues the forgot-password work (job `auth.password-reset`, which calls `sendResetCode`). */
      queueResetCode: (username: string) => Promise<void>;
    },
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

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
    await this.deps.attempts.assertNotLockedOut(input.username);
    const user = await this.deps.users.findByEmail(input.username);
    const row = user ? await this.deps.throttle.getResetCode(user.id) : undefined;
    if (!user || !row) return this.deps.attempts.fail(input.username, 'code_mismatch', 'code');
    if (row.expiresAt <= this.now() || row.tries >= RESET_CODE_MAX_TRIES)
      throw new AppError('expired_code', 'code');
    const codeHash = this.deps.secrets.hmac(`${user.id}:${input.code}`);
    if (codeHash !== row.codeHash) {
      await this.deps.throttle.countResetTry(user.id);
      return this.deps.attempts.fail(input.username, 'code_mismatch', 'code');
    }
    if (!(await this.deps.throttle.deleteResetCode(user.id, codeHash)))
      throw new AppError('expired_code', 'code');
    await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(input.new_password));
    // Whoever had the old password may hold a session or have made an API key: both end here.
    await this.deps.sessions.revokeAllForUser(user.id, this.now());
    await this.deps.apiKeys.deleteAllForUser(user.id);
    await this.deps.attempts.succeeded(input.username);
  }

  /**
   * A signed-in user's new password, the current one first (a wrong one counts toward the
   * account's lockout like a failed sign-in). Every other session ends; the caller's stays. API
   * keys stay too: the user proved the password, and robots keep running.
   */
  async changePassword(actor: SignedInUser, input: Body<'changePassword'>): Promise<void> {
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    await this.deps.attempts.assertNotLockedOut(user.email);
    if (!(await this.deps.hasher.verify(user.passwordHash, input.previous_password)))
      return this.deps.attempts.fail(user.email, 'current_password_incorrect', 'previous_password');
    await this.deps.users.setPassword(
      user.id,
      await this.deps.hasher.hash(input.proposed_password),
    );
    await this.deps.sessions.revokeAllForUser(user.id, this.now(), actor.sessionId ?? undefined);
    await this.deps.attempts.succeeded(user.email);
  }
}
