import { randomInt } from 'node:crypto';
import {
  Role,
  TEMPORARY_PASSWORD_DAYS,
  type Endpoints,
  type ParsedBodyOf,
  type MyInfo,
  type User,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { ApiKeyRepository } from '../../repositories/identity/api-key.repository.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { RecoveryCodeRepository } from '../../repositories/identity/recovery-code.repository.ts';
import type { SessionRepository } from '../../repositories/identity/session.repository.ts';
import type {
  UserRepository,
  UserWithOrganisation,
} from '../../repositories/identity/user.repository.ts';
import { organisationScope } from '../../access/rules.ts';
import {
  createsUsers,
  isSuperUser,
  managesUsers,
  mayGrantRole,
  reachesUser,
  roleNeedsOrganisation,
  seesUser,
} from '../../access/roles.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { MailService } from '../messaging/mail.service.ts';
import { apiKeyForOwner, userForOperator } from '../../presenters/identity.presenter.ts';

// Readable temporary passwords: no 0/O, 1/l/I.
const TEMP_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const generateTemporaryPassword = (): string =>
  Array.from({ length: 14 }, () => TEMP_ALPHABET[randomInt(TEMP_ALPHABET.length)]).join('');

export type UpdateUserInput = ParsedBodyOf<Endpoints['updateUser']>;

/** The create-user call's parsed body (also what the CLI's `create-user` passes). */
export type CreateUserInput = ParsedBodyOf<Endpoints['createUser']>;

/** Users and their API keys. Access: super users any user; admins their organisation, never super users. */
export class UserService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      sessions: SessionRepository;
      recoveryCodes: Pick<RecoveryCodeRepository, 'deleteAll'>;
      organisations: OrganisationRepository;
      apiKeys: ApiKeyRepository;
      mail: MailService;
      hasher: PasswordHasher;
      clock: Clock;
      isMfaExempt: (email: string) => boolean;
      publicUrl: string;
      /** The built-in test payment provider is on (FLASHBULB_PAYMENTS_PROVIDER=test). */
      testPayments?: boolean;
    },
  ) {}

  /** The signed-in user, and whether the console must say that test payments are on. */
  async myInfo(actor: SignedInUser): Promise<MyInfo> {
    const user = await this.deps.users.findById(actor.userId);
    if (!user) throw new AppError('unauthorized_user');
    return {
      ...userForOperator(user, this.deps.isMfaExempt(user.email)),
      test_payments: this.deps.testPayments === true,
    };
  }

  /** `actor` null means the operator at the command line (full rights). */
  async create(actor: SignedInUser | null, input: CreateUserInput): Promise<User> {
    const organisationId = this.resolveOrganisation(actor, input);
    if (organisationId !== null && !(await this.deps.organisations.findById(organisationId))) {
      throw new AppError('organisation_not_found', 'organisation_id');
    }
    const temporaryPassword = input.temporary_password ?? generateTemporaryPassword();
    const created = await this.deps.users.create({
      email: input.email,
      passwordHash: await this.deps.hasher.hash(temporaryPassword),
      role: input.role,
      organisationId,
      status: 'FORCE_CHANGE_PASSWORD',
      temporaryPasswordExpiresAt: new Date(
        this.deps.clock.now().getTime() + TEMPORARY_PASSWORD_DAYS * 86_400_000,
      ),
    });
    if (!created) throw new AppError('user_exists', 'email');
    if (!input.temporary_password) await this.sendInvitation(created.email, temporaryPassword);
    const user = await this.deps.users.findById(created.id);
    if (!user) throw new Error('User vanished after insert');
    return userForOperator(user, this.deps.isMfaExempt(user.email));
  }

  /** Super users: all users or one organisation's; admins: their organisation's; others: refused. */
  async list(actor: SignedInUser, organisationId: number | undefined): Promise<{ users: User[] }> {
    if (!managesUsers(actor)) throw new AppError('forbidden');
    const scope = organisationScope(actor, organisationId);
    if (scope === null) return { users: [] };
    const rows = await this.deps.users.list(scope);
    // An admin never sees super users, even one filed under their organisation.
    const visible = rows.filter((u) => seesUser(actor, u));
    return { users: visible.map((u) => userForOperator(u, this.deps.isMfaExempt(u.email))) };
  }

  /**
   * A user the actor may change (owner console §6, our server rules): super users any other user;
   * admins the other non-super users of their organisation; event owners nobody. A user outside the
   * actor's reach is `user_not_found`, so ids leak nothing.
   */
  private async manageable(actor: SignedInUser, id: number): Promise<UserWithOrganisation> {
    if (!managesUsers(actor)) throw new AppError('forbidden');
    const target = await this.deps.users.findById(id);
    if (!target || !reachesUser(actor, target)) throw new AppError('user_not_found', 'id');
    if (target.id === actor.userId) throw new AppError('forbidden', 'id');
    return target;
  }

  async update(actor: SignedInUser, input: UpdateUserInput): Promise<User> {
    const target = await this.manageable(actor, input.id);
    const role = input.role ?? (target.role as Role);
    const organisationId =
      input.organisation_id === undefined ? target.organisationId : input.organisation_id;
    if (!isSuperUser(actor)) {
      if (!mayGrantRole(actor, role)) throw new AppError('forbidden', 'role');
      if (organisationId !== actor.organisationId)
        throw new AppError('forbidden', 'organisation_id');
    }
    if (roleNeedsOrganisation(role) && organisationId === null)
      throw new AppError('organisation_not_found', 'organisation_id');
    if (organisationId !== null && !(await this.deps.organisations.findById(organisationId)))
      throw new AppError('organisation_not_found', 'organisation_id');
    const now = this.deps.clock.now();
    const disabledAt =
      input.disabled === undefined
        ? target.disabledAt
        : input.disabled
          ? (target.disabledAt ?? now)
          : null;
    await this.deps.users.updateAccount(target.id, { role, organisationId, disabledAt });
    // Requests check the flag anyway (AuthService.authenticate); ending the sessions is tidiness.
    if (disabledAt) await this.deps.sessions.revokeAllForUser(target.id, now);
    return this.reload(target.id);
  }

  /** The authenticator is forgotten; the next sign-in sets one up again (MFA_SETUP). */
  async resetMfa(actor: SignedInUser, id: number): Promise<User> {
    const target = await this.manageable(actor, id);
    await this.deps.users.setTotp(target.id, null, false, null);
    // The codes stood in for the forgotten authenticator: they go with it.
    await this.deps.recoveryCodes.deleteAll(target.id);
    return this.reload(target.id);
  }

  private async reload(id: number): Promise<User> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new AppError('user_not_found', 'id');
    return userForOperator(user, this.deps.isMfaExempt(user.email));
  }

  private resolveOrganisation(actor: SignedInUser | null, input: CreateUserInput): number | null {
    const requested = input.organisation_id ?? null;
    if (!actor || isSuperUser(actor)) {
      if (roleNeedsOrganisation(input.role) && requested === null) {
        throw new AppError('organisation_not_found', 'organisation_id');
      }
      return requested;
    }
    if (!createsUsers(actor)) throw new AppError('forbidden');
    if (!mayGrantRole(actor, input.role)) throw new AppError('forbidden', 'role');
    if (requested !== null && requested !== actor.organisationId)
      throw new AppError('forbidden', 'organisation_id');
    return actor.organisationId;
  }

  private async sendInvitation(email: string, temporaryPassword: string): Promise<void> {
    const url = `${this.deps.publicUrl}/`;
    await this.deps.mail.send({
      kind: 'user_invitation',
      to: email,
      subject: 'Your Flashbulb account',
      text:
        `An account was created for you on Flashbulb.\n\nUser name: ${email}\nTemporary password: ${temporaryPassword}\n\n` +
        `Sign in at ${url} within ${TEMPORARY_PASSWORD_DAYS} days; you will choose your own password and set up ` +
        `an authenticator app.`,
      html:
        `<p>An account was created for you on Flashbulb.</p><p>User name: ${escapeHtml(email)}<br>` +
        `Temporary password: <code>${escapeHtml(temporaryPassword)}</code></p>` +
        `<p>Sign in at <a href="${escapeHtml(url)}">${escapeHtml(url)}</a> within ${TEMPORARY_PASSWORD_DAYS} days; ` +
        `you will choose your own password and set up an authenticator app.</p>`,
    });
  }

  async createApiKey(actor: SignedInUser, name: string) {
    const secret = `fbk_${randomToken(30)}`;
    const row = await this.deps.apiKeys.create({
      userId: actor.userId,
      name,
      prefix: secret.slice(0, 10),
      keyHash: hashToken(secret),
    });
    return { ...apiKeyForOwner(row), api_key: secret };
  }

  async listApiKeys(actor: SignedInUser) {
    return { api_keys: (await this.deps.apiKeys.listForUser(actor.userId)).map(apiKeyForOwner) };
  }

  async deleteApiKey(actor: SignedInUser, id: number): Promise<void> {
    if (!(await this.deps.apiKeys.delete(actor.userId, id)))
      throw new AppError('api_key_not_found', 'id');
  }
}
