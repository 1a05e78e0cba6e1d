import { ApiKeyRepository } from '../repositories/identity/api-key.repository.ts';
import { OrganisationRepository } from '../repositories/identity/organisation.repository.ts';
import { RecoveryCodeRepository } from '../repositories/identity/recovery-code.repository.ts';
import { SessionRepository } from '../repositories/identity/session.repository.ts';
import { ThrottleRepository } from '../repositories/identity/throttle.repository.ts';
import { UserRepository } from '../repositories/identity/user.repository.ts';
import { AuthService } from '../services/identity/auth.service.ts';
import { FirstAdminService } from '../services/identity/first-admin.service.ts';
import { PasswordResetService } from '../services/identity/password-reset.service.ts';
import { SignInAttempts } from '../services/identity/sign-in-attempts.ts';
import { TwoFactorService } from '../services/identity/two-factor.service.ts';
import { OrganisationService } from '../services/identity/organisation.service.ts';
import { UserService } from '../services/identity/user.service.ts';
import type { Core } from './core.ts';
import type { Messaging } from './messaging.ts';

/** Identity: users, sessions, API keys, organisations. */
export const wireIdentity = (
  core: Core,
  messaging: Messaging,
  /** Seeds a new organisation's defaults (image processes, events domain). */
  seedOrganisation: (organisationId: number) => Promise<void>,
) => {
  const { config, database, clock, logger, secrets, hasher } = core;
  const { mail } = messaging.services;
  const users = new UserRepository(database.db);
  const organisations = new OrganisationRepository(database.db);
  const sessions = new SessionRepository(database.db);
  const throttle = new ThrottleRepository(database.db, database);
  const apiKeys = new ApiKeyRepository(database.db);
  const recoveryCodes = new RecoveryCodeRepository(database.db);
  const attempts = new SignInAttempts({ throttle, users, recoveryCodes, clock });
  const authLogger = logger.child({ component: 'auth' });
  const auth = new AuthService({
    users,
    sessions,
    apiKeys,
    hasher,
    secrets,
    clock,
    logger: authLogger,
    mfaExemptUsers: config.mfaExemptUsers,
    attempts,
  });
  const isMfaExempt = (email: string) => auth.isMfaExempt(email);
  const userService = new UserService({
    users,
    sessions,
    recoveryCodes,
    organisations,
    apiKeys,
    mail,
    hasher,
    clock,
    isMfaExempt,
    testPayments: config.providers.payments.kind === 'test',
    publicUrl: config.publicUrl,
  });
  return {
    repositories: { users, organisations, sessions, throttle, apiKeys, recoveryCodes },
    services: {
      auth,
      twoFactor: new TwoFactorService({
        users,
        sessions,
        recoveryCodes,
        hasher,
        secrets,
        clock,
        attempts,
        isMfaExempt,
      }),
      passwordReset: new PasswordResetService({
        users,
        sessions,
        throttle,
        apiKeys,
        mail,
        hasher,
        secrets,
        clock,
        attempts,
        publicUrl: config.publicUrl,
        queueResetCode: (username) => core.jobs.send('auth.password-reset', { username }),
      }),
      firstAdmin: new FirstAdminService({ users, hasher, secrets, logger: authLogger }),
      users: userService,
      organisations: new OrganisationService(organisations, seedOrganisation),
    },
  };
};
export type Identity = ReturnType<typeof wireIdentity>;
