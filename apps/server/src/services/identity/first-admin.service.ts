import { timingSafeEqual } from 'node:crypto';
import { Role, type EndpointName, type Endpoints, type ParsedBodyOf } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { PasswordHasher } from '../../lib/password-hasher.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { UserRepository } from '../../repositories/identity/user.repository.ts';

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/** The first administrator of an empty install (the set-up page, or the environment at start). */
export class FirstAdminService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      hasher: PasswordHasher;
      secrets: SecretBox;
      logger: Logger;
    },
  ) {}

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
